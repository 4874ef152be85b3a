package analysis

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"

	"github.com/fgrtbench/fgrtbench/paper"
	"github.com/fgrtbench/fgrtbench/results"
)

// paperTol is how far (in percentage points) a value may be from a paper
// value printed with two decimals and still equal it.
const paperTol = 0.005

// SeedSpread is the distribution over learner seeds (repeats) of a
// stochastic method's accuracy on one dataset under one protocol. A seed's
// accuracy is the mean over its folds of the selected rows' accuracies (the
// one split under holdout), as the paper reports a cross-validated value
// and as Cell averages: so the mean over seeds is the cell's accuracy that
// the accuracy table's CSV, its mean row and the paper check use.
type SeedSpread struct {
	Protocol, Dataset, Method string
	// Acc holds the per-seed accuracies (fractions) in repeat order.
	Acc []float64
	// Correct and NTest are the per-seed counts.
	Correct, NTest []int
	// Mean and Std (population, ddof 0) of Acc; Min, Median and Max of Acc.
	Mean, Std, Min, Median, Max float64
	// Paper is the paper's value (percent) when it has one for the method.
	Paper    float64
	HasPaper bool
	// Inside reports Min <= Paper <= Max (within paperTol); Percentile is
	// the share of seeds below the paper's value, ties counting half, in
	// percent.
	Inside     bool
	Percentile float64
}

// SeedSpreads computes the seed distribution of every (protocol, dataset,
// method) whose method is stochastic and has at least two repeats. base maps
// a method label to its registry method (nil: the label itself); stochastic
// says whether a registry method draws from its seed.
func SeedSpreads(recs []results.Record, base map[string]string, stochastic map[string]bool) []SeedSpread {
	var out []SeedSpread
	for k, seeds := range seedGroups(recs, base, stochastic) {
		if len(seeds) < 2 {
			continue
		}
		sp := spreadOf(k, seeds)
		sp.summarise()
		if col, ok := paper.ColumnForMethod(BaseMethod(k.method, base)); ok {
			sp.Paper, sp.HasPaper = paper.Accuracy(k.dataset, col)
		}
		if sp.HasPaper {
			sp.position()
		}
		out = append(out, sp)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		return cellKey{a.Protocol, a.Dataset, a.Method}.less(cellKey{b.Protocol, b.Dataset, b.Method})
	})
	return out
}

// perSeed is one seed's (repeat's) selected rows of a cell: the correct
// predictions and test rows summed, and each fold's accuracy.
type perSeed struct {
	correct, n int
	acc        map[int]float64 // by fold
}

// seedGroups gathers the selected rows of the stochastic methods by cell
// and seed.
func seedGroups(recs []results.Record, base map[string]string, stochastic map[string]bool) map[cellKey]map[int]*perSeed {
	groups := map[cellKey]map[int]*perSeed{}
	for _, r := range recs {
		if !r.Selected || !stochastic[BaseMethod(r.Method, base)] {
			continue
		}
		k := cellKey{r.Protocol, r.Dataset, r.Method}
		if groups[k] == nil {
			groups[k] = map[int]*perSeed{}
		}
		s := groups[k][r.Repeat]
		if s == nil {
			s = &perSeed{acc: map[int]float64{}}
			groups[k][r.Repeat] = s
		}
		s.correct += r.Correct
		s.n += r.NTest
		s.acc[r.Fold] = r.Accuracy
	}
	return groups
}

// spreadOf lists a cell's seeds in order with their counts and mean
// accuracy over folds.
func spreadOf(k cellKey, seeds map[int]*perSeed) SeedSpread {
	reps := make([]int, 0, len(seeds))
	for r := range seeds {
		reps = append(reps, r)
	}
	sort.Ints(reps)
	sp := SeedSpread{Protocol: k.protocol, Dataset: k.dataset, Method: k.method}
	for _, r := range reps {
		s := seeds[r]
		sp.Correct = append(sp.Correct, s.correct)
		sp.NTest = append(sp.NTest, s.n)
		// Folds summed in order, so that shuffled records give the same
		// bits.
		folds := make([]int, 0, len(s.acc))
		for f := range s.acc {
			folds = append(folds, f)
		}
		sort.Ints(folds)
		sum := 0.0
		for _, f := range folds {
			sum += s.acc[f]
		}
		sp.Acc = append(sp.Acc, sum/float64(len(folds)))
	}
	return sp
}

func (s *SeedSpread) summarise() {
	sorted := slices.Clone(s.Acc)
	slices.Sort(sorted)
	n := len(sorted)
	sum := 0.0
	for _, v := range s.Acc {
		sum += v
	}
	s.Mean = sum / float64(n)
	ss := 0.0
	for _, v := range s.Acc {
		ss += float64((v - s.Mean) * (v - s.Mean))
	}
	s.Std = math.Sqrt(ss / float64(n))
	s.Min, s.Max = sorted[0], sorted[n-1]
	s.Median = sorted[n/2]
	if n%2 == 0 {
		s.Median = (sorted[n/2-1] + sorted[n/2]) / 2
	}
}

func (s *SeedSpread) position() {
	below, ties := 0, 0
	for _, v := range s.Acc {
		switch d := float64(v*100) - s.Paper; {
		case math.Abs(d) <= paperTol:
			ties++
		case d < 0:
			below++
		}
	}
	s.Percentile = 100 * (float64(below) + float64(0.5*float64(ties))) / float64(len(s.Acc))
	s.Inside = float64(s.Min*100)-paperTol <= s.Paper && s.Paper <= float64(s.Max*100)+paperTol
}

// Where says where the paper's value falls in the seed distribution, e.g.
// "inside our 10 seeds' range, percentile 35".
func (s SeedSpread) Where() string {
	if !s.HasPaper {
		return ""
	}
	side := "inside"
	switch {
	case s.Paper < float64(s.Min*100)-paperTol:
		side = "below"
	case s.Paper > float64(s.Max*100)+paperTol:
		side = "above"
	}
	return fmt.Sprintf("%s our %d seeds' range, percentile %s", side, len(s.Acc), strconv.FormatFloat(s.Percentile, 'f', 0, 64))
}
