package reports

import (
	"maps"
	"strconv"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/results"
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

// TestNotInPaperMarked checks that a learner the paper never ran
// (FuzzyCART, the majority baseline) is marked as such where the report
// shows the paper's columns: the complexity table's paper figures and the
// comparison with the paper; the paper's own methods and grid variants
// are not.
func TestNotInPaperMarked(t *testing.T) {
	recs := fixtureRecords()
	for _, d := range []string{"wine", "zoo", "pima"} {
		for fold := range 3 {
			for _, m := range []string{"fuzzycart", "majority"} {
				recs = append(recs, results.Record{Protocol: "paper", Dataset: d, Method: m, Selection: "fixed", Selected: true,
					Fold: fold, Seed: 42, NTrain: 80, NTest: 20, Correct: 12, Accuracy: 0.6, BalancedAccuracy: 0.5,
					Rules: 3, Antecedents: 3, RulebaseSize: 3, Leaves: 3, InternalNodes: 2, Key: "nip/" + d + "/" + m + "/" + strconv.Itoa(fold)})
			}
		}
	}
	pres := results.Presentation{Names: maps.Clone(paperMethods.Names), Order: paperMethods.Order}
	pres.Names["fuzzycart"] = "FuzzyCART"
	pres.Names["majority"] = "Majority"
	a := analysisOf(t, recs, analysis.Options{Methods: pres})
	ct := ComplexityTable(a, "paper")
	marked := map[string]string{}
	for _, row := range ct.Rows {
		marked[gridCell(t, ct, row, "Method").Text] = gridCell(t, ct, row, "Paper rules").Text
	}
	for _, tc := range []struct{ display, paperRules string }{
		{"FuzzyCART", notInPaperText},
		{"Majority", notInPaperText},
		{"FGRT", "10.40"},
		{"CART@text", "—"},
	} {
		if got, ok := marked[tc.display]; !ok || got != tc.paperRules {
			t.Errorf("complexity-paper %s: paper rules %q (row %v), want %q", tc.display, got, ok, tc.paperRules)
		}
	}
	rep, err := Build(Options{Dir: t.TempDir(), Analysis: a})
	if err != nil {
		t.Fatal(err)
	}
	want := "Not in the paper, so compared with none of its numbers: FuzzyCART, Majority.\n"
	if !strings.Contains(string(rep.Markdown), want) {
		t.Errorf("REPORT.md lacks %q", want)
	}
}
