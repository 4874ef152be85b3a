package analysis

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/results"
)

// TestComputeArtifacts: confusion matrix summed over folds of the selected
// configuration only, AUC and log-loss from the pooled scores, rule
// stability (recurrence, Jaccard) and the representative fold.
func TestComputeArtifacts(t *testing.T) {
	sel := func(fold int, key string, acc float64, ci int, selected bool) results.Record {
		return results.Record{Protocol: "clean", Dataset: "d", Method: "m", Key: key, ConfigIndex: ci, Selected: selected,
			Fold: fold, Accuracy: acc, NTest: 2}
	}
	recs := []results.Record{
		sel(0, "k0", 1, 0, true), sel(0, "k0", 0.5, 1, false),
		sel(1, "k1", 0.5, 1, true), sel(1, "k1", 1, 0, false),
		sel(2, "k2", 0, 0, true),
	}
	row := func(key string, ci, r int, yt, yp string, s0, s1 float64) results.PredictionRow {
		return results.PredictionRow{Key: key, ConfigIndex: ci, Row: r, YTrue: yt, YPred: yp, Scores: []float64{s0, s1}}
	}
	p := results.Predictions{ScoreClasses: []string{"a", "b"}, Rows: []results.PredictionRow{
		row("k0", 0, 0, "a", "a", 0.9, 0.1), row("k0", 0, 1, "b", "b", 0.2, 0.8),
		row("k0", 1, 0, "a", "b", 0, 1), row("k0", 1, 1, "b", "b", 0, 1), // not selected: ignored
		row("k1", 1, 2, "a", "a", 0.6, 0.4), row("k1", 1, 3, "b", "a", 0.7, 0.3),
		row("k2", 0, 4, "a", "b", 0.4, 0.6), row("k2", 0, 5, "b", "a", 0.5, 0.5),
	}}
	model := func(key string, ci int, rules ...string) results.ModelRecord {
		return results.ModelRecord{Key: key, ConfigIndex: ci, Classes: []string{"a", "b"}, Rules: rules}
	}
	m := results.Models{Records: []results.ModelRecord{
		model("k0", 0, "IF x IS Low THEN class a  [coverage 0.5, confidence 0.9]", "IF x IS High THEN class b  [coverage 0.5, confidence 0.8]"),
		model("k0", 1, "IF y IS Low THEN class a"),
		model("k1", 1, "IF x IS Low THEN class a  [coverage 0.4, confidence 1.0]", "IF y IS High THEN class b  [coverage 0.6, confidence 0.7]"),
		model("k1", 0, "IF z IS Low THEN class a"),
		model("k2", 0, "IF x IS Low THEN class a  [coverage 0.3, confidence 0.9]"),
	}}
	preds, stab := computeArtifacts(recs, Artifacts{Predictions: p, Models: m}, []Cell{{Protocol: "clean", Dataset: "d", Method: "m"}})
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
	} {
		if got := strings.Join(Antecedents(in), "|"); got != want {
			t.Errorf("Antecedents(%q) = %q, want %q", in, got, want)
		}
	}
}
