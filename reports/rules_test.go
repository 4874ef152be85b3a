package reports

import (
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/analysis"
)

// TestRulesFileNotesOmittedRules: a representative model shown in part
// says how many rules it has and how to print them all; a whole one says
// nothing of the kind.
func TestRulesFileNotesOmittedRules(t *testing.T) {
	for _, omitted := range []int{0, 109112} {
		a := &analysis.Analysis{
			Predictive: []analysis.Predictive{{Protocol: "clean", Dataset: "big.csv", Method: "cart", Classes: []string{"a"}, Confusion: [][]int{{3}}, Rows: 3}},
			Stability: []analysis.Stability{{Protocol: "clean", Dataset: "big.csv", Method: "cart", Models: 5,
				Representative: analysis.RepresentativeModel{Repeat: 0, Fold: 2, Rules: []string{"IF x <= 1 THEN class a"}, RulesOmitted: omitted}}},
		}
		page := string(RulesFiles(a)[rulesFileName("big.csv")])
		note := "The first 1 of its 109113 rules; `fgrtbench rules --results` on this study's directory prints them all (`--dataset` as in results.csv, `--method cart --protocol clean --repeat 0 --fold 2`)."
		if got := strings.Contains(page, note); got != (omitted > 0) {
			t.Errorf("%d rules omitted: the note is there: %v, want %v\n%s", omitted, got, omitted > 0, page)
		}
		if !strings.Contains(page, "IF x <= 1 THEN class a") {
			t.Errorf("%d rules omitted: the shown rule is missing:\n%s", omitted, page)
		}
	}
}

// TestRulesFileShowsDefaultRule: a learner's default rule follows its
// rules on the rules page; a learner without one shows none.
func TestRulesFileShowsDefaultRule(t *testing.T) {
	for _, c := range []struct {
		method, dflt string
	}{
		{"ripper", "ELSE class b  [coverage 0.250, confidence 0.800]"},
		{"cart", ""},
	} {
		a := &analysis.Analysis{
			Predictive: []analysis.Predictive{{Protocol: "clean", Dataset: "d", Method: c.method, Classes: []string{"a", "b"}, Confusion: [][]int{{3, 0}, {0, 1}}, Rows: 4}},
			Stability: []analysis.Stability{{Protocol: "clean", Dataset: "d", Method: c.method, Models: 5,
				Representative: analysis.RepresentativeModel{Rules: []string{"IF x <= 1 THEN class a  [coverage 0.750, confidence 1.000]"}, Default: c.dflt}}},
		}
		page := string(RulesFiles(a)[rulesFileName("d")])
		want := "```\nIF x <= 1 THEN class a  [coverage 0.750, confidence 1.000]\n```"
		if c.dflt != "" {
			want = "```\nIF x <= 1 THEN class a  [coverage 0.750, confidence 1.000]\n" + c.dflt + "\n```"
		}
		if !strings.Contains(page, want) {
			t.Errorf("%s: the page lacks\n%s\nin\n%s", c.method, want, page)
		}
	}
}
