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
		Name:  "seeds-" + protocol,
		Title: fmt.Sprintf("Accuracy (%%) over learner seeds, stochastic methods, %s protocol", protocol),
	}
	var rows []analysis.SeedSpread
	for _, s := range spreads {
		if s.Protocol == protocol {
			rows = append(rows, s)
		}
	}
	declare(&t, seedColumns(protocol, pres), rows)
	t.Notes = []string{
		"One value per learner seed (repeat): the seed's accuracy, its mean over folds (under holdout the one split, so min/median/max are shown with their counts). sd is the population one (ddof 0).",
		"Paper's place: whether the paper's printed value lies inside the range of our seeds (within 0.005 points, its rounding) and its percentile among them (seeds below it, ties counting half).",
	}
	return t
}

// seedColumns declares the seed table: the spread over seeds shown with
// counts under holdout, written as percentages, and the paper's place
// among the seeds where the paper has a value.
func seedColumns(protocol string, pres results.Presentation) []Column[analysis.SeedSpread] {
	type spread = analysis.SeedSpread
	percent := func(of func(spread) float64) func(spread) string {
		return func(s spread) string { return csvNum(of(s) * 100) }
	}
	// counted shows an accuracy of one seed, with its count of correct
	// rows under holdout.
	counted := func(of func(spread) float64) func(spread) Entry {
		return func(s spread) Entry {
			acc := of(s)
			if singleSplit(s) {
				// The median of an even number of seeds may fall halfway.
				count := math.Round(float64(acc*float64(s.NTest[0]))*2) / 2
				return Entry{Text: fmt.Sprintf("%s (%s/%d)", pct(acc), strconv.FormatFloat(count, 'f', -1, 64), s.NTest[0])}
			}
			return Entry{Text: pct(acc)}
		}
	}
	counts := func(of func(spread) []int) func(spread) string {
		return func(s spread) string {
			v := of(s)
			parts := make([]string, len(v))
			for i, x := range v {
				parts[i] = strconv.Itoa(x)
			}
			return strings.Join(parts, " ")
		}
	}
	withPaper := func(f func(spread) string) func(spread) string {
		return func(s spread) string {
			if !s.HasPaper {
				return ""
			}
			return f(s)
		}
	}
	paperValue := withPaper(func(s spread) string { return fixed(s.Paper, 2) })
	return []Column[spread]{
		{CSV: "protocol", Write: func(spread) string { return protocol }},
		{Header: "Dataset", Show: func(s spread) Entry { return Entry{Text: s.Dataset} },
			CSV: "dataset", Write: func(s spread) string { return s.Dataset }},
		{Header: "Method", Show: func(s spread) Entry { return Entry{Text: pres.DisplayName(s.Method)} },
			CSV: "method", Write: func(s spread) string { return s.Method }},
		{Header: "Seeds", Align: 'r', Show: func(s spread) Entry { return Entry{Text: strconv.Itoa(len(s.Acc))} },
			CSV: "seeds", Write: func(s spread) string { return strconv.Itoa(len(s.Acc)) }},
		{Header: "Mean ± sd", Align: 'r', Show: func(s spread) Entry { return Entry{Text: pct(s.Mean) + " ± " + pct(s.Std)} },
			CSV: "accuracy_mean", Write: percent(func(s spread) float64 { return s.Mean })},
		{CSV: "accuracy_std", Write: percent(func(s spread) float64 { return s.Std })},
		{Header: "Min", Align: 'r', Show: counted(func(s spread) float64 { return s.Min }),
			CSV: "accuracy_min", Write: percent(func(s spread) float64 { return s.Min })},
		{Header: "Median", Align: 'r', Show: counted(func(s spread) float64 { return s.Median }),
			CSV: "accuracy_median", Write: percent(func(s spread) float64 { return s.Median })},
		{Header: "Max", Align: 'r', Show: counted(func(s spread) float64 { return s.Max }),
			CSV: "accuracy_max", Write: percent(func(s spread) float64 { return s.Max })},
		{CSV: "correct_per_seed", Write: counts(func(s spread) []int { return s.Correct })},
		{CSV: "n_test_per_seed", Write: counts(func(s spread) []int { return s.NTest })},
		{Header: "Paper", Align: 'r', Show: func(s spread) Entry { return Entry{Text: orDash(paperValue(s))} },
			CSV: "paper", Write: paperValue},
		{Header: "Paper's place", Show: func(s spread) Entry {
			if !s.HasPaper {
				return Entry{Text: "—"}
			}
			return Entry{Text: s.Where()}
		}, CSV: "paper_inside_range", Write: withPaper(func(s spread) string { return strconv.FormatBool(s.Inside) })},
		{CSV: "paper_percentile", Write: withPaper(func(s spread) string { return fixed(s.Percentile, 1) })},
	}
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
