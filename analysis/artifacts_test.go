package analysis

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/results"
	"github.com/fgrtbench/fgrtbench/results/artifacts"
)

// artifactsFixture is three folds of one cell, with a second
// configuration per fold that is not selected, and their artifacts.
func artifactsFixture() ([]results.Record, Artifacts) {
	sel := func(fold int, key string, acc float64, ci int, selected bool) results.Record {
		return results.Record{Protocol: "clean", Dataset: "d", Method: "m", Key: key, ConfigIndex: ci, Selected: selected,
			Fold: fold, Accuracy: acc, NTest: 2, Config: fmt.Sprintf("c=%d", ci)}
	}
	recs := []results.Record{
		sel(0, "k0", 1, 0, true), sel(0, "k0", 0.5, 1, false),
		sel(1, "k1", 0.5, 1, true), sel(1, "k1", 1, 0, false),
		sel(2, "k2", 0, 0, true),
	}
	row := func(key string, ci, r int, yt, yp string, s0, s1 float64) artifacts.PredictionRow {
		return artifacts.PredictionRow{Key: key, ConfigIndex: ci, Row: r, YTrue: yt, YPred: yp, Scores: []float64{s0, s1}}
	}
	p := artifacts.Predictions{ScoreClasses: []string{"a", "b"}, Rows: []artifacts.PredictionRow{
		row("k0", 0, 0, "a", "a", 0.9, 0.1), row("k0", 0, 1, "b", "b", 0.2, 0.8),
		row("k0", 1, 0, "a", "b", 0, 1), row("k0", 1, 1, "b", "b", 0, 1), // not selected: ignored
		row("k1", 1, 2, "a", "a", 0.6, 0.4), row("k1", 1, 3, "b", "a", 0.7, 0.3),
		row("k2", 0, 4, "a", "b", 0.4, 0.6), row("k2", 0, 5, "b", "a", 0.5, 0.5),
	}}
	model := func(key string, ci int, rules ...string) artifacts.ModelRecord {
		return artifacts.ModelRecord{Key: key, ConfigIndex: ci, ModelHead: learn.ModelHead{Classes: []string{"a", "b"}, Rules: rules}}
	}
	m := artifacts.Models{Records: []artifacts.ModelRecord{
		model("k0", 0, "IF x IS Low THEN class a  [coverage 0.5, confidence 0.9]", "IF x IS High THEN class b  [coverage 0.5, confidence 0.8]"),
		model("k0", 1, "IF y IS Low THEN class a"),
		model("k1", 1, "IF x IS Low THEN class a  [coverage 0.4, confidence 1.0]", "IF y IS High THEN class b  [coverage 0.6, confidence 0.7]"),
		model("k1", 0, "IF z IS Low THEN class a"),
		model("k2", 0, "IF x IS Low THEN class a  [coverage 0.3, confidence 0.9]"),
	}}
	return recs, Artifacts{Predictions: p, Models: m}
}

// TestComputeArtifacts: confusion matrix summed over folds of the selected
// configuration only, AUC and log-loss from the pooled scores, rule
// stability (recurrence, Jaccard) and the representative fold.
func TestComputeArtifacts(t *testing.T) {
	recs, art := artifactsFixture()
	preds, stab := computeArtifacts(recs, art, []Cell{{Protocol: "clean", Dataset: "d", Method: "m"}})
	if len(preds) != 1 || len(stab) != 1 {
		t.Fatalf("got %d predictive, %d stability cells", len(preds), len(stab))
	}
	pr := preds[0]
	if want := [][]int{{2, 1}, {2, 1}}; !reflect.DeepEqual(pr.Confusion, want) || pr.Rows != 6 {
		t.Errorf("confusion %v over %d rows, want %v over 6", pr.Confusion, pr.Rows, want)
	}
	scores := [][]float64{{0.9, 0.1}, {0.2, 0.8}, {0.6, 0.4}, {0.7, 0.3}, {0.4, 0.6}, {0.5, 0.5}}
	truth := []int{0, 1, 0, 1, 0, 1}
	if pr.AUC == nil || *pr.AUC != MacroAUC(scores, truth, 2) || pr.LogLoss == nil || *pr.LogLoss != LogLoss(scores, truth) {
		t.Errorf("AUC %v, log-loss %v", pr.AUC, pr.LogLoss)
	}
	// Class a: positives 0.9, 0.6, 0.4 against 0.2, 0.7, 0.5: 6 of 9 pairs
	// ordered; class b: 0.8, 0.3, 0.5 against 0.1, 0.4, 0.6: 6 of 9.
	if math.Abs(*pr.AUC-2.0/3) > 1e-15 {
		t.Errorf("AUC %v, want 2/3", *pr.AUC)
	}
	s := stab[0]
	// Sets: {xL, xH}, {xL, yH}, {xL}: Jaccard 1/3, 1/2, 1/2.
	if s.Models != 3 || s.Distinct != 3 || math.Abs(s.MeanRules-5.0/3) > 1e-15 || s.Jaccard == nil || math.Abs(*s.Jaccard-4.0/9) > 1e-15 {
		t.Errorf("stability %+v (Jaccard %v)", s, *s.Jaccard)
	}
	if want := []RuleCount{{"IF x IS Low THEN class a", 3}}; !reflect.DeepEqual(s.Recurring, want) {
		t.Errorf("recurring %v, want %v", s.Recurring, want)
	}
	// "x IS Low" in all three models, "x IS High" and "y IS High" in one.
	if want := []RuleCount{{"x IS Low", 3}}; !reflect.DeepEqual(s.RecurringAntecedents, want) {
		t.Errorf("recurring antecedents %v, want %v", s.RecurringAntecedents, want)
	}
	// Accuracies 1, 0.5, 0: the median is fold 1 (config 1).
	if s.Representative.Fold != 1 || len(s.Representative.Rules) != 2 {
		t.Errorf("representative %+v, want fold 1", s.Representative)
	}
}

func TestRuleText(t *testing.T) {
	for in, want := range map[string]string{
		"IF a IS Low THEN class 1  [coverage 0.3, confidence 0.9]": "IF a IS Low THEN class 1",
		"IF a <= 2 THEN class 1":                                   "IF a <= 2 THEN class 1",
		"IF a IS [x] THEN class 1 ":                                "IF a IS [x] THEN class 1",
		"IF a IS [x] THEN class 1]":                                "IF a IS",
		"IF a IS b THEN class 1]":                                  "IF a IS b THEN class 1]",
		"[only]":                                                   "[only]",
	} {
		if got := RuleText(in); got != want {
			t.Errorf("RuleText(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAntecedents(t *testing.T) {
	for in, want := range map[string]string{
		"IF a IS Low AND b <= 2 THEN class 1  [coverage 0.3, confidence 0.9]": "a IS Low|b <= 2",
		"IF TRUE THEN class 1":   "",
		"a rule of another form": "",
		"IF a <= 1 THEN class 1": "a <= 1",
		"IF  THEN class 1":       "",
		"IF a AND  AND b THEN 2": "a||b",
	} {
		if got := strings.Join(Antecedents(in), "|"); got != want {
			t.Errorf("Antecedents(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestLoadArtifacts: artifacts read by Compute while it computes the rest
// give the analysis that artifacts passed in give; the reader's error is
// Compute's, before the analysis's own; a reader that finds none leaves the
// artifacts' tables empty.
func TestLoadArtifacts(t *testing.T) {
	recs, art := artifactsFixture()
	want, err := Compute(recs, Options{Artifacts: &art, Samples: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Predictive) != 1 || len(want.Stability) != 1 {
		t.Fatalf("the fixture gives %d predictive and %d stability cells", len(want.Predictive), len(want.Stability))
	}
	calls := 0
	got, err := Compute(recs, Options{Samples: 1000, LoadArtifacts: func() (*Artifacts, error) { calls++; return &art, nil }})
	if err != nil || calls != 1 {
		t.Fatalf("%v (%d calls)", err, calls)
	}
	// Compared as analysis.json (reflect.DeepEqual would call two NaN
	// statistics different).
	wantJSON, err := want.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if gotJSON, err := got.JSON(); err != nil || string(gotJSON) != string(wantJSON) {
		t.Errorf("the analysis with artifacts loaded alongside differs from the one with artifacts given (%v)", err)
	}
	unreadable := errors.New("predictions.csv.gz is damaged at byte 12")
	for _, rope := range []float64{0, 2} { // a valid analysis, and one that fails too
		if _, err := Compute(recs, Options{Rope: rope, LoadArtifacts: func() (*Artifacts, error) { return nil, unreadable }}); err != unreadable {
			t.Errorf("rope %v: error %v, want the reader's", rope, err)
		}
	}
	none, err := Compute(recs, Options{Samples: 1000, LoadArtifacts: func() (*Artifacts, error) { return nil, nil }})
	if err != nil || none.Predictive != nil || none.Stability != nil {
		t.Errorf("no artifacts: %v, %d predictive, %d stability cells", err, len(none.Predictive), len(none.Stability))
	}
}

// TestRepresentativeRulesCapped: a representative model of more than
// MaxRepresentativeRules rules keeps its first ones and counts the rest,
// while rule stability still counts every rule; one at the cap is whole.
func TestRepresentativeRulesCapped(t *testing.T) {
	for _, n := range []int{MaxRepresentativeRules, MaxRepresentativeRules + 7} {
		recs, art := artifactsFixture()
		var rules []string
		for i := range n {
			rules = append(rules, fmt.Sprintf("IF x <= %d THEN class a", i))
		}
		for i, m := range art.Models.Records {
			if m.Key == "k1" && m.ConfigIndex == 1 { // the representative fold's model
				art.Models.Records[i].Rules = rules
			}
		}
		_, stab := computeArtifacts(recs, art, []Cell{{Protocol: "clean", Dataset: "d", Method: "m"}})
		r := stab[0].Representative
		shown := min(n, MaxRepresentativeRules)
		if len(r.Rules) != shown || r.RulesOmitted != n-shown || !reflect.DeepEqual(r.Rules, rules[:shown]) {
			t.Errorf("%d rules: representative keeps %d and omits %d, want the first %d and %d", n, len(r.Rules), r.RulesOmitted, shown, n-shown)
		}
		if want := float64(2+n+1) / 3; math.Abs(stab[0].MeanRules-want) > 1e-12 || stab[0].Distinct != n+2 {
			t.Errorf("%d rules: stability over %v rules per model and %d distinct, want %v and %d", n, stab[0].MeanRules, stab[0].Distinct, want, n+2)
		}
	}
}

// TestStabilityReadableRules: where every model records readable rules,
// those are compared and shown (the same split in data units, found by
// two folds with their own scalers, is one rule); where a threshold
// learner's model lacks them (an older study), every model's own rules
// are, and the cell says so; never a mix.
func TestStabilityReadableRules(t *testing.T) {
	recs, art := artifactsFixture()
	tree := func(key string, ci int, scaled, readable string) artifacts.ModelRecord {
		m := artifacts.ModelRecord{Key: key, ConfigIndex: ci, ModelHead: learn.ModelHead{Kind: "cart.tree/1", Classes: []string{"a", "b"},
			Rules: []string{"IF p <= " + scaled + " THEN class a", "IF p > " + scaled + " THEN class b"}}}
		if readable != "" {
			m.ReadableRules = []string{"IF p <= " + readable + " THEN class a", "IF p > " + readable + " THEN class b"}
		}
		return m
	}
	cell := []Cell{{Protocol: "clean", Dataset: "d", Method: "m"}}
	for _, c := range []struct {
		name                    string
		readable                [3]string
		wantDistinct            int
		wantRep                 string
		wantLearner, wantData   bool
		wantRecurringAntecedent string
	}{
		{"all readable", [3]string{"757.0", "757.0", "757.0"}, 2, "IF p <= 757.0 THEN class a", false, true, "p <= 757.0"},
		{"one older model", [3]string{"757.0", "", "757.0"}, 6, "IF p <= 0.0181 THEN class a", true, false, ""},
	} {
		art.Models.Records = []artifacts.ModelRecord{
			tree("k0", 0, "0.0180732", c.readable[0]), tree("k1", 1, "0.0181", c.readable[1]), tree("k2", 0, "0.01799", c.readable[2]),
		}
		_, stab := computeArtifacts(recs, art, cell)
		s := stab[0]
		rec := ""
		if len(s.RecurringAntecedents) > 0 {
			rec = s.RecurringAntecedents[0].Rule
		}
		if s.Distinct != c.wantDistinct || s.Representative.Rules[0] != c.wantRep || s.LearnerUnits != c.wantLearner ||
			s.DataUnits != c.wantData || rec != c.wantRecurringAntecedent {
			t.Errorf("%s: %d distinct, representative %q, learner units %v, data units %v, recurring %q; want %d, %q, %v, %v, %q",
				c.name, s.Distinct, s.Representative.Rules[0], s.LearnerUnits, s.DataUnits, rec,
				c.wantDistinct, c.wantRep, c.wantLearner, c.wantData, c.wantRecurringAntecedent)
		}
	}
	// Rules without thresholds (the fixture's FGRT-like terms): neither flag.
	recs, art = artifactsFixture()
	if _, stab := computeArtifacts(recs, art, cell); stab[0].LearnerUnits || stab[0].DataUnits {
		t.Errorf("terms flagged: learner units %v, data units %v", stab[0].LearnerUnits, stab[0].DataUnits)
	}
}
