package stats

import (
	"fmt"
	"math"
	"math/big"
)

// AllPairs, passed as the reference to Pairwise, compares every pair of
// methods instead of every method against one reference.
const AllPairs = -1

// PairwiseResult compares methods A and B (column indices of the score
// matrix) over the datasets: the Wilcoxon signed-rank test of the
// differences A − B with its Holm-adjusted p-value within the family of
// comparisons, and the Bayesian signed-rank test of the same differences.
type PairwiseResult struct {
	A, B int
	// N is the number of datasets; MeanDiff the mean of A − B over them.
	N        int
	MeanDiff float64
	Wilcoxon WilcoxonResult
	// P is Wilcoxon.P and PHolm the Holm-adjusted p-value; both NaN when NA.
	P, PHolm float64
	// NA reports a comparison that is not applicable (see
	// WilcoxonResult.NA): print "n/a", never a p-value. A not-applicable
	// comparison is left out of the Holm family.
	NA    bool
	Bayes BayesResult
}

// Pairwise compares the methods (columns) of scores, a datasets × methods
// matrix (rows may be zero: every comparison is then NA), by the Wilcoxon
// signed-rank test with Holm's correction over the family of comparisons,
// and by the Bayesian signed-rank test with the options bayes.
//
// With reference = AllPairs the family is every pair (i, j), i < j, in that
// order, with differences column i − column j. Otherwise it is the
// reference against every other method in column order, with differences
// reference − other. The tests are symmetric, so scores need not be
// higher-is-better; Bayes.PRight is always "A's score exceeds B's by more
// than the rope", in the units of the scores (DefaultRope assumes
// accuracies in [0, 1]).
func Pairwise(scores [][]float64, k, reference int, bayes SignedRankOptions) ([]PairwiseResult, error) {
	return PairwiseZero(scores, k, reference, bayes, ZeroWilcox)
}

// PairwiseZero is Pairwise with the Wilcoxon tests' zero-difference
// convention zeroMethod (ZeroWilcox, ZeroPratt or ZeroSplit; see
// WilcoxonZero).
func PairwiseZero(scores [][]float64, k, reference int, bayes SignedRankOptions, zeroMethod string) ([]PairwiseResult, error) {
	return PairwiseExact(scores, nil, k, reference, bayes, zeroMethod)
}

// PairwiseExact is PairwiseZero where the scores are also known exactly:
// exact, when not nil, holds the same matrix as rationals, from which the
// Bayesian signed-rank test takes its differences (BayesSignedRankExact),
// so that a difference of exactly the ROPE is decided exactly. The
// Wilcoxon test ranks the float differences as before.
func PairwiseExact(scores [][]float64, exact [][]*big.Rat, k, reference int, bayes SignedRankOptions, zeroMethod string) ([]PairwiseResult, error) {
	if exact != nil && len(exact) != len(scores) {
		return nil, fmt.Errorf("stats: %d exact rows for %d rows of scores", len(exact), len(scores))
	}
	for i, row := range exact {
		if len(row) != k {
			return nil, fmt.Errorf("stats: exact row %d has %d values, want %d", i, len(row), k)
		}
	}
	if k < 2 {
		return nil, fmt.Errorf("stats: need at least 2 methods, got %d", k)
	}
	if reference != AllPairs && (reference < 0 || reference >= k) {
		return nil, fmt.Errorf("stats: reference method %d out of range 0..%d", reference, k-1)
	}
	for i, row := range scores {
		if len(row) != k {
			return nil, fmt.Errorf("stats: row %d has %d values, want %d", i, len(row), k)
		}
	}
	pairs := comparedPairs(k, reference)
	out := make([]PairwiseResult, len(pairs))
	ps := make([]float64, len(pairs))
	for p, ab := range pairs {
		var err error
		if out[p], err = comparePair(scores, exact, ab, bayes, zeroMethod); err != nil {
			return nil, err
		}
		ps[p] = out[p].P
	}
	adj, err := Holm(ps)
	if err != nil {
		return nil, err
	}
	for p := range out {
		out[p].PHolm = adj[p]
	}
	return out, nil
}

// comparedPairs lists the pairs of methods compared: every pair (i < j)
// for AllPairs, else the reference against each other method.
func comparedPairs(k, reference int) [][2]int {
	var pairs [][2]int
	if reference == AllPairs {
		for i := 0; i < k; i++ {
			for j := i + 1; j < k; j++ {
				pairs = append(pairs, [2]int{i, j})
			}
		}
		return pairs
	}
	for j := 0; j < k; j++ {
		if j != reference {
			pairs = append(pairs, [2]int{reference, j})
		}
	}
	return pairs
}

// comparePair tests one pair of methods on their per-dataset differences:
// the Wilcoxon signed-rank test and the Bayesian signed-rank test (Holm's
// adjustment is the caller's, over every pair).
func comparePair(scores [][]float64, exact [][]*big.Rat, ab [2]int, bayes SignedRankOptions, zeroMethod string) (PairwiseResult, error) {
	d := make([]float64, len(scores))
	sum := 0.0
	for i, row := range scores {
		d[i] = row[ab[0]] - row[ab[1]]
		sum += d[i]
	}
	w, err := WilcoxonZero(d, zeroMethod)
	if err != nil {
		return PairwiseResult{}, fmt.Errorf("stats: methods %d and %d: %v", ab[0], ab[1], err)
	}
	var b BayesResult
	if exact != nil {
		de := make([]*big.Rat, len(exact))
		for i, row := range exact {
			de[i] = new(big.Rat).Sub(row[ab[0]], row[ab[1]])
		}
		b, err = BayesSignedRankExact(de, bayes)
	} else {
		b, err = BayesSignedRank(d, bayes)
	}
	if err != nil {
		return PairwiseResult{}, err
	}
	mean := math.NaN()
	if len(d) > 0 {
		mean = sum / float64(len(d))
	}
	return PairwiseResult{A: ab[0], B: ab[1], N: len(d), MeanDiff: mean, Wilcoxon: w, P: w.P, NA: w.NA, Bayes: b}, nil
}
