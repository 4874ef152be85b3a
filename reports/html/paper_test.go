package html

import (
	"html/template"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/paper"
	"github.com/fgrtbench/fgrtbench/results"
)

// verdictAnalysis is a paper-protocol study of wine and zoo named name:
// FGRT equal to the authors' committed means, CART off them on zoo (a
// failure to reproduce), J48 off the paper by construction.
func verdictAnalysis(t *testing.T, name string) *analysis.Analysis {
	t.Helper()
	var recs []results.Record
	for _, ds := range []string{"wine", "zoo"} {
		fgrt, _ := paper.Authors(ds, "fgrt")
		cart, _ := paper.Authors(ds, "cart")
		if ds == "zoo" {
			cart.Accuracy -= 0.05
		}
		for m, acc := range map[string]float64{"fgrt": fgrt.Accuracy, "cart": cart.Accuracy, "c45": 0.5} {
			recs = append(recs, results.Record{Protocol: "paper", Dataset: ds, Method: m, Selection: "fixed", Selected: true,
				Seed: 42, NTrain: 80, NTest: 20, Accuracy: acc, BalancedAccuracy: acc, Rules: 3, Leaves: 3, Key: "paper/" + ds + "/" + m})
		}
	}
	pres := results.PresentationOf([]results.Method{
		{Label: "fgrt", Method: "fgrt", DisplayName: "FGRT", Order: 0},
		{Label: "cart", Method: "cart", DisplayName: "CART", Order: 1},
		{Label: "c45", Method: "c45", DisplayName: "C4.5 (J48)", Order: 2},
	})
	a, err := analysis.Compute(recs, analysis.Options{Name: name, Methods: pres, Samples: 2000})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestReproductionVerdictFirst: the paper study's page opens with the
// verdict (the analysis's summary, each method's counts and causes, the
// failure marked), then the paper's tables as package reports rendered
// them, escaped; a study of the user's own shows neither, even when
// handed tables.
func TestReproductionVerdictFirst(t *testing.T) {
	tables := []Table{{Name: "paper-paper", Title: "Our accuracy against the paper's printed value", Header: []string{"Dataset", "Ours (%)"}, Align: "lr",
		Rows: [][]TableCell{{{Text: "zoo <b>"}, {Text: "90.05", Bold: true}}}}}
	for _, c := range []struct {
		study string
		shown bool
	}{{"paper", true}, {"mine", false}} {
		a := verdictAnalysis(t, c.study)
		page, err := Render(Input{Analysis: a, PaperTables: tables})
		if err != nil {
			t.Fatal(err)
		}
		s := string(page)
		verdict, tablesAt, first := strings.Index(s, `<section id="reproduction"`), strings.Index(s, `<section id="paper-tables">`), strings.Index(s, `<section id="proto-0"`)
		if !c.shown {
			if verdict >= 0 || tablesAt >= 0 || strings.Contains(s, "zoo &lt;b&gt;") {
				t.Errorf("%s: a user's study shows the reproduction verdict or the paper's tables", c.study)
			}
			continue
		}
		if verdict < 0 || tablesAt < verdict || first < tablesAt {
			t.Fatalf("%s: verdict at %d, paper tables at %d, first protocol at %d: want them in this order", c.study, verdict, tablesAt, first)
		}
		for _, want := range []string{
			template.HTMLEscapeString(a.Reproduction.Summary),
			`<tr><td>CART</td><td class="n">1 of 2</td><td class="n">1 of 2</td><td><span class="fail">zoo: ours 90.05, the authors&#39; 95.05 (not reproduced)</span>`,
			`<tr><td>C4.5 (J48)</td><td class="n">—</td><td class="n">0 of 2</td><td><span>2: the paper&#39;s column was computed by another algorithm, c45-entropy</span>`,
			`<section id="reproduction" class="verdict failed">`,
			`<td>zoo &lt;b&gt;</td><td class="n"><b>90.05</b></td>`,
		} {
			if !strings.Contains(s, want) {
				t.Errorf("%s: the page lacks %s", c.study, want)
			}
		}
	}
}
