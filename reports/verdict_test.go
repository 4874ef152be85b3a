package reports

import (
	"bytes"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/paper"
	"github.com/fgrtbench/fgrtbench/results"
)

// verdictRecords is a paper-protocol study of wine and zoo: FGRT equal to
// the authors' committed means, CART equal on wine and off on zoo (a
// failure to reproduce), J48 and RIPPER off the paper by construction.
func verdictRecords() []results.Record {
	var recs []results.Record
	add := func(ds, method string, acc float64) {
		recs = append(recs, results.Record{Protocol: "paper", Dataset: ds, Method: method, Selection: "fixed", Selected: true,
			Seed: 42, NTrain: 80, NTest: 20, Accuracy: acc, BalancedAccuracy: acc, Rules: 3, Leaves: 3, InternalNodes: 2,
			Key: "paper/" + ds + "/" + method})
	}
	for _, ds := range []string{"wine", "zoo"} {
		fgrt, _ := paper.Authors(ds, "fgrt")
		cart, _ := paper.Authors(ds, "cart")
		if ds == "zoo" {
			cart.Accuracy -= 0.05
		}
		add(ds, "fgrt", fgrt.Accuracy)
		add(ds, "cart", cart.Accuracy)
		add(ds, "c45", 0.5)
		add(ds, "ripper", 0.5)
	}
	return recs
}

// TestVerdictViews: the paper study's REPORT.md opens with the verdict
// (before the headline), the terminal prints it before the rankings, the
// paper table gives each differing cell its cause, and the failure to
// reproduce is said as such; a study of the user's own shows none of it.
func TestVerdictViews(t *testing.T) {
	for _, c := range []struct {
		name    string
		study   string
		verdict bool
	}{
		{"the paper study", "paper", true},
		{"a user's study of the paper's datasets", "mine", false},
	} {
		a := analysisOf(t, verdictRecords(), analysis.Options{Name: c.study, Methods: paperMethods})
		rep, err := Build(Options{Dir: t.TempDir(), Analysis: a})
		if err != nil {
			t.Fatal(err)
		}
		md := string(rep.Markdown)
		var term bytes.Buffer
		WriteHeadline(&term, a, "")
		verdictAt, headlineAt := strings.Index(md, "## Reproduction verdict"), strings.Index(md, "## Headline")
		if !c.verdict {
			if a.Reproduction != nil || verdictAt >= 0 || strings.Contains(term.String(), "reproduction") {
				t.Errorf("%s: shows a reproduction verdict", c.name)
			}
			continue
		}
		want := "3 of the 4 cells the authors' code produced reproduce and 1 DOES NOT"
		if verdictAt < 0 || headlineAt < verdictAt || !strings.Contains(md, want) {
			t.Errorf("%s: REPORT.md's verdict (at %d, headline at %d) lacks %q:\n%s", c.name, verdictAt, headlineAt, want, md)
		}
		for _, w := range []string{
			"| CART | 1 of 2 | 1 of 2 | zoo: ours 90.05, the authors' 95.05 (NOT REPRODUCED); 1: unexplained",
			"| C4.5 (J48) | — | 0 of 2 | 2: the paper's column was computed by another algorithm, C4.5 (entropy, paper) |",
			"| RIPPER | — | 0 of 2 | 2: the authors' code never ran this method |",
		} {
			if !strings.Contains(md, w) {
				t.Errorf("%s: REPORT.md lacks the row %q", c.name, w)
			}
		}
		if !strings.HasPrefix(term.String(), "reproduction (paper protocol): "+a.Reproduction.Summary+"\n") {
			t.Errorf("%s: the terminal does not open with the verdict:\n%s", c.name, term.String())
		}
		var table Table
		for _, tb := range rep.Tables {
			if tb.Name == "paper-paper" {
				table = tb
			}
		}
		causes := map[string]string{}
		for _, row := range table.CSVRows {
			causes[csvField(t, table, row, "dataset")+"/"+csvField(t, table, row, "method")] = csvField(t, table, row, "cause")
		}
		for key, cause := range map[string]string{
			"wine/fgrt": "", "zoo/cart": "unexplained", "wine/c45": "other-algorithm", "zoo/ripper": "not-run-by-authors",
		} {
			if got, ok := causes[key]; !ok || got != cause {
				t.Errorf("%s: the paper table's cause of %s is %q, want %q", c.name, key, got, cause)
			}
		}
	}
}
