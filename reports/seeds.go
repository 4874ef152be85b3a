package reports

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/results"
)

type spreadIndex map[cellKey]analysis.SeedSpread

func newSpreadIndex(sp []analysis.SeedSpread) spreadIndex {
	ix := spreadIndex{}
	for _, s := range sp {
		ix[cellKey{s.Protocol, s.Dataset, s.Method}] = s
	}
	return ix
}

// SeedTable lists the seed distributions of one protocol and where the
// paper's value falls in each.
func SeedTable(spreads []analysis.SeedSpread, protocol string, pres results.Presentation) Table {
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
				count := math.Round(float64(acc*float64(s.NTest[0]))*2) / 2
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
func singleSplit(s analysis.SeedSpread) bool {
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
