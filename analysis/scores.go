package analysis

import (
	"math"
	"sort"

	"github.com/fgrtbench/fgrtbench/internal/fmath"
)

// LogLossEps is the clipping bound of LogLoss: scikit-learn's log_loss
// with eps="auto" (its default since 1.2) clips each score to
// [eps, 1 − eps] with eps the float64 machine epsilon, 2.220446049250313e-16,
// then renormalises each row to sum 1. LogLoss does the same, so a model
// whose scores are not probabilities (FGRT's firing strengths) gets the
// log-loss scikit-learn would report for them.
var LogLossEps = math.Nextafter(1, 2) - 1

// LogLoss is the mean negative log-probability of the true class: scores
// [i][k] is row i's score of class k and truth[i] its true class index.
// Each score is clipped to [LogLossEps, 1 − LogLossEps] and each row
// renormalised, as scikit-learn's log_loss does. NaN for no rows.
func LogLoss(scores [][]float64, truth []int) float64 {
	if len(scores) == 0 {
		return math.NaN()
	}
	var sum float64
	for i, row := range scores {
		var total float64
		for _, s := range row {
			total += clip(s)
		}
		sum -= fmath.Log(clip(row[truth[i]]) / total)
	}
	return sum / float64(len(scores))
}

func clip(s float64) float64 { return min(max(s, LogLossEps), 1-LogLossEps) }

// BinaryAUC is the area under the ROC curve of scores for the positives
// (pos[i]): the Mann–Whitney statistic with tied scores given the average
// of their ranks, which equals scikit-learn's roc_auc_score (its
// trapezoidal ROC counts a tie between a positive and a negative as one
// half). NaN when there is no positive or no negative.
func BinaryAUC(scores []float64, pos []bool) float64 {
	idx := make([]int, len(scores))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return scores[idx[a]] < scores[idx[b]] })
	var rankSum float64
	nPos := 0
	for i := 0; i < len(idx); {
		j := i
		for j < len(idx) && scores[idx[j]] == scores[idx[i]] {
			j++
		}
		rank := float64(float64(i+j+1) / 2) // mean of the 1-based ranks i+1 .. j
		for k := i; k < j; k++ {
			if pos[idx[k]] {
				rankSum += rank
				nPos++
			}
		}
		i = j
	}
	nNeg := len(scores) - nPos
	if nPos == 0 || nNeg == 0 {
		return math.NaN()
	}
	return (rankSum - float64(float64(nPos)*float64(nPos+1)/2)) / (float64(nPos) * float64(nNeg))
}

// MacroAUC is the one-vs-rest AUC averaged over classes (scikit-learn's
// roc_auc_score with multi_class="ovr", average="macro", computed per
// class as a binary AUC, so the scores need not be probabilities). A
// class with no positive or no negative row is left out of the mean (it
// has no ROC curve); NaN when no class has one.
func MacroAUC(scores [][]float64, truth []int, classes int) float64 {
	var sum float64
	n := 0
	col := make([]float64, len(scores))
	pos := make([]bool, len(scores))
	for k := 0; k < classes; k++ {
		for i, row := range scores {
			col[i], pos[i] = row[k], truth[i] == k
		}
		if auc := BinaryAUC(col, pos); !math.IsNaN(auc) {
			sum += auc
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}
