package reports

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/fgrtbench/fgrtbench/reports/paper"
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
	type perSeed struct {
		correct, n int
		acc        map[int]float64 // by fold
	}
	groups := map[cellKey]map[int]*perSeed{}
	for _, r := range recs {
		if !r.Selected || !stochastic[baseMethod(r.Method, base)] {
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
	var out []SeedSpread
	for k, seeds := range groups {
		if len(seeds) < 2 {
			continue
		}
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
			// Folds summed in order, so that shuffled records give the
			// same bits.
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
		sp.summarise()
		if col, ok := paper.ColumnForMethod(baseMethod(k.method, base)); ok {
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
		ss += (v - s.Mean) * (v - s.Mean)
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
		switch d := v*100 - s.Paper; {
		case math.Abs(d) <= paperTol:
			ties++
		case d < 0:
			below++
		}
	}
	s.Percentile = 100 * (float64(below) + 0.5*float64(ties)) / float64(len(s.Acc))
	s.Inside = s.Min*100-paperTol <= s.Paper && s.Paper <= s.Max*100+paperTol
}

// Where says where the paper's value falls in the seed distribution, e.g.
// "inside our 10 seeds' range, percentile 35".
func (s SeedSpread) Where() string {
	if !s.HasPaper {
		return ""
	}
	side := "inside"
	switch {
	case s.Paper < s.Min*100-paperTol:
		side = "below"
	case s.Paper > s.Max*100+paperTol:
		side = "above"
	}
	return fmt.Sprintf("%s our %d seeds' range, percentile %s", side, len(s.Acc), fixed(s.Percentile, 0))
}

type spreadIndex map[cellKey]SeedSpread

func newSpreadIndex(sp []SeedSpread) spreadIndex {
	ix := spreadIndex{}
	for _, s := range sp {
		ix[cellKey{s.Protocol, s.Dataset, s.Method}] = s
	}
	return ix
}

// SeedTable lists the seed distributions of one protocol and where the
// paper's value falls in each.
func SeedTable(spreads []SeedSpread, protocol string, pres results.Presentation) Table {
	t := Table{
		Name:   "seeds-" + protocol,
		Title:  fmt.Sprintf("Accuracy (%%) over learner seeds, stochastic methods, %s protocol", protocol),
		Header: []string{"Dataset", "Method", "Seeds", "Mean ± sd", "Min", "Median", "Max", "Paper", "Paper's place"},
		Align:  "llrrrrrrl",
		CSVHeader: []string{"protocol", "dataset", "method", "seeds", "accuracy_mean", "accuracy_std", "accuracy_min", "accuracy_median",
			"accuracy_max", "correct_per_seed", "n_test_per_seed", "paper", "paper_inside_range", "paper_percentile"},
	}
	for _, s := range spreads {
		if s.Protocol != protocol {
			continue
		}
		paperS, inside, pctS, where := "", "", "", "—"
		if s.HasPaper {
			paperS, inside, pctS, where = fixed(s.Paper, 2), strconv.FormatBool(s.Inside), fixed(s.Percentile, 1), s.Where()
		}
		counts := func(v []int) string {
			parts := make([]string, len(v))
			for i, x := range v {
				parts[i] = strconv.Itoa(x)
			}
			return strings.Join(parts, " ")
		}
		cell := func(acc float64) string {
			if singleSplit(s) {
				// The median of an even number of seeds may fall halfway.
				count := math.Round(acc*float64(s.NTest[0])*2) / 2
				return fmt.Sprintf("%s (%s/%d)", pct(acc), strconv.FormatFloat(count, 'f', -1, 64), s.NTest[0])
			}
			return pct(acc)
		}
		t.Rows = append(t.Rows, []Entry{{Text: s.Dataset}, {Text: pres.DisplayName(s.Method)}, {Text: strconv.Itoa(len(s.Acc))},
			{Text: pct(s.Mean) + " ± " + pct(s.Std)}, {Text: cell(s.Min)}, {Text: cell(s.Median)}, {Text: cell(s.Max)},
			{Text: orDash(paperS)}, {Text: where}})
		t.CSVRows = append(t.CSVRows, []string{protocol, s.Dataset, s.Method, strconv.Itoa(len(s.Acc)), csvNum(s.Mean * 100),
			csvNum(s.Std * 100), csvNum(s.Min * 100), csvNum(s.Median * 100), csvNum(s.Max * 100),
			counts(s.Correct), counts(s.NTest), paperS, inside, pctS})
	}
	t.Notes = []string{
		"One value per learner seed (repeat): the seed's accuracy, its mean over folds (under holdout the one split, so min/median/max are shown with their counts). sd is the population one (ddof 0).",
		"Paper's place: whether the paper's printed value lies inside the range of our seeds (within 0.005 points, its rounding) and its percentile among them (seeds below it, ties counting half).",
	}
	return t
}

// singleSplit reports whether every seed of s was tested on the same number
// of rows (one hold-out split), so that accuracies map back to counts.
func singleSplit(s SeedSpread) bool {
	for _, n := range s.NTest {
		if n != s.NTest[0] {
			return false
		}
	}
	return s.Protocol == "holdout"
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
