package reports

import (
	"testing"

	"github.com/fgrtbench/fgrtbench/analysis"
)

// TestMajorityRateSection checks the per-dataset sentence on FGRT and
// FuzzyCART at the majority-class rate: rendered from the Chance flags
// only, other methods' flags left out, absent without either method.
func TestMajorityRateSection(t *testing.T) {
	cells := func(methods ...string) []analysis.Cell {
		var out []analysis.Cell
		for _, d := range []string{"pima", "saheart", "wine"} {
			for _, m := range methods {
				out = append(out, analysis.Cell{Protocol: "clean", Dataset: d, Method: m})
			}
		}
		return out
	}
	methods := func(bases ...string) []analysis.Method {
		var out []analysis.Method
		for _, b := range bases {
			out = append(out, analysis.Method{Label: b, Display: b, Base: b})
		}
		return out
	}
	flag := func(p, d, m string, ba float64) analysis.Chance {
		return analysis.Chance{Protocol: p, Dataset: d, Method: m, BalancedAccuracy: ba, Baseline: 0.5, Source: "majority"}
	}
	for _, tc := range []struct {
		name string
		a    analysis.Analysis
		want string
	}{
		{"neither method", analysis.Analysis{Methods: methods("cart", "majority"), Cells: cells("cart", "majority"),
			Chance: []analysis.Chance{flag("clean", "pima", "cart", 0.5)}}, ""},
		{"FGRT never at chance", analysis.Analysis{Methods: methods("fgrt", "cart"), Cells: cells("fgrt", "cart"),
			Chance: []analysis.Chance{flag("clean", "pima", "cart", 0.5)}},
			"## fgrt at the majority-class rate\n\nOn none of the 3 datasets does fgrt sit at the majority-class rate (balanced accuracy not above the majority-class baseline's).\n\n"},
		{"both, per dataset", analysis.Analysis{Methods: methods("fgrt", "fuzzycart", "cart"), Cells: cells("fgrt", "fuzzycart", "cart"),
			Chance: []analysis.Chance{
				flag("paper", "pima", "fgrt", 0.5), flag("clean", "pima", "fgrt", 0.5),
				flag("clean", "pima", "cart", 0.49),
				flag("clean", "saheart", "fuzzycart", 0.4999),
			}},
			"## fgrt and fuzzycart at the majority-class rate\n\n" +
				"Where a tree's balanced accuracy is not above the majority-class baseline's (§), it predicts no better than always answering the most frequent class:\n\n" +
				"- **pima**: fgrt under paper (balanced accuracy 50.00, baseline 50.00 from majority); fgrt under clean (balanced accuracy 50.00, baseline 50.00 from majority).\n" +
				"- **saheart**: fuzzycart under clean (balanced accuracy 49.99, baseline 50.00 from majority).\n\n" +
				"Above the majority-class rate on every protocol: wine.\n\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lg := newLegend()
			got := string(majorityRateSection(&tc.a, lg))
			if got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}
