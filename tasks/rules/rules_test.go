package rules

import (
	"maps"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/results"
	"github.com/fgrtbench/fgrtbench/results/artifacts"
)

// TestQueryRows: a query takes the rows of its dataset, method and
// protocol, and a query that matches none names what the directory holds.
func TestQueryRows(t *testing.T) {
	recs := []results.Record{
		{Protocol: "clean", Dataset: "wine", Method: "cart", Fold: 0},
		{Protocol: "clean", Dataset: "wine", Method: "cart", Fold: 1},
		{Protocol: "paper", Dataset: "wine", Method: "cart", Fold: 0},
		{Protocol: "clean", Dataset: "wine", Method: "fgrt", Fold: 0},
		{Protocol: "clean", Dataset: "zoo", Method: "cart", Fold: 0},
	}
	cases := []struct {
		q    Query
		rows int
		err  string
	}{
		{Query{Dataset: "wine", Method: "cart", Protocol: "clean"}, 2, ""},
		{Query{Dataset: "wine", Method: "fgrt"}, 1, ""},
		{Query{Dataset: "iris", Method: "cart"}, 0, `holds no results of dataset "iris" (it has wine, zoo)`},
		{Query{Dataset: "wine", Method: "c45"}, 0, `holds no results of method "c45" on wine (it has cart, fgrt)`},
		{Query{Dataset: "wine", Method: "cart"}, 0, "holds cart under several protocols (clean, paper): give --protocol"},
		{Query{Dataset: "wine", Method: "cart", Protocol: "holdout"}, 0, `holds no results of cart on wine under protocol "holdout" (it has clean, paper)`},
	}
	for _, c := range cases {
		rows, err := c.q.rows(recs)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%+v: %v, want %q", c.q, err, c.err)
			}
			continue
		}
		if err != nil || len(rows) != c.rows {
			t.Errorf("%+v: %d rows, %v; want %d", c.q, len(rows), err, c.rows)
		}
	}
}

// TestQueryPick: a fold names its selected row; the default is the
// representative one, the fold of the median accuracy.
func TestQueryPick(t *testing.T) {
	rows := []results.Record{
		{Repeat: 0, Fold: 0, Selected: true, Accuracy: 0.9},
		{Repeat: 0, Fold: 1, Selected: false, Accuracy: 0.1},
		{Repeat: 0, Fold: 1, Selected: true, Accuracy: 0.5},
		{Repeat: 0, Fold: 2, Selected: true, Accuracy: 0.7},
	}
	for _, c := range []struct {
		fold    int
		wantAcc float64
	}{{1, 0.5}, {2, 0.7}, {-1, 0.7}} {
		row, err := Query{Fold: c.fold}.pick(rows)
		if err != nil || row.Accuracy != c.wantAcc {
			t.Errorf("fold %d: %+v %v, want accuracy %g", c.fold, row, err, c.wantAcc)
		}
	}
	if _, err := (Query{Fold: 3, Method: "cart", Dataset: "wine"}).pick(rows); err == nil || !strings.Contains(err.Error(), "no fold 3 of repeat 0 of cart on wine") {
		t.Errorf("fold 3: %v", err)
	}
}

// TestOverrides: the flags' values set FGRT's parameters, and --set wins.
func TestOverrides(t *testing.T) {
	o := FitOptions{MaxRules: 15, Coverage: 0.01, MinImprovement: 1e-7, Set: map[string]string{"max_rules": "3", "patience": "2"}}
	want := map[string]string{"max_rules": "3", "coverage_threshold": "0.01", "min_improvement": "1e-07", "patience": "2"}
	if got := o.overrides(); !maps.Equal(got, want) {
		t.Errorf("overrides %v, want %v", got, want)
	}
}

// TestReadable: a stored model's rules read in the data's units where it
// records readable ones, in the learner's for an older threshold model,
// and with no units where they compare no threshold.
func TestReadable(t *testing.T) {
	cases := []struct {
		m         artifacts.ModelRecord
		rule, has string
	}{
		{artifacts.ModelRecord{ModelHead: learn.ModelHead{Kind: "cart.tree/1", Rules: []string{"IF x <= 0.1"}}, ReadableRules: []string{"IF x <= 3"}}, "IF x <= 3", "the data's own units"},
		{artifacts.ModelRecord{ModelHead: learn.ModelHead{Kind: "cart.tree/1", Rules: []string{"IF x <= 0.1"}}}, "IF x <= 0.1", "the units the learner saw"},
		{artifacts.ModelRecord{ModelHead: learn.ModelHead{Kind: "fgrt.rules/1", Rules: []string{"IF x IS low"}}}, "IF x IS low", ""},
	}
	for _, c := range cases {
		rules, units := readable(c.m)
		if len(rules) != 1 || rules[0] != c.rule || (c.has == "") != (units == "") || !strings.Contains(units, c.has) {
			t.Errorf("%s: %q in %q, want %q in units with %q", c.m.Kind, rules, units, c.rule, c.has)
		}
	}
}

// TestFooterClaimsWhatIsShown: the line after stored rules names the
// statistics only when every rule shows them, the default rule only when
// there is one, and the fuzzy meaning of coverage for fuzzy rules.
func TestFooterClaimsWhatIsShown(t *testing.T) {
	units := "the data's own units, to 4 significant digits (full precision in models.jsonl.gz)"
	fuzzyModel := artifacts.ModelRecord{Partitions: []artifacts.Term{{TermRef: learn.TermRef{FeatureName: "x", TermName: "Low"}}}}
	for _, c := range []struct {
		name string
		s    Stored
		want string
	}{
		{"ripper stored before its statistics", Stored{Rules: []string{"IF Proline=>1255 THEN class 1"}, RuleUnits: units},
			"1 rules; numeric thresholds in " + units},
		{"ripper", Stored{Rules: []string{"IF Proline > 1255 THEN class 1  [coverage 0.106, confidence 1.000]"}, RuleUnits: units,
			Default: "ELSE class 2  [coverage 0.035, confidence 1.000]", Stats: "coverage and confidence"},
			"1 rules and a default rule (the class a row no rule covers gets); numeric thresholds in " + units + "; coverage and confidence on the fold's training rows (coverage: the share of them the rule covers; confidence: the share of those of its class)"},
		{"fuzzycart stored before its confidence", Stored{Rules: []string{"IF x IS Low THEN class 2  [coverage 0.296]"}, Stats: "coverage", Model: fuzzyModel},
			"1 rules; coverage on the fold's training rows (coverage: the rule's membership summed over them, divided by their number)"},
		{"fgrt", Stored{Rules: []string{"IF x IS Low THEN class 2  [coverage 0.313, confidence 0.980]"}, Stats: "coverage and confidence", Model: fuzzyModel},
			"1 rules; coverage and confidence on the fold's training rows (coverage: the rule's membership summed over them, divided by their number; confidence: the share of that sum that rows of the rule's class hold)"},
	} {
		if got := c.s.Footer(); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}
