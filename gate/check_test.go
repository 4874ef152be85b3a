package gate

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/bench/runner"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/results"
)

func synthetic(name string) *datasets.Dataset {
	rng := rand.New(rand.NewPCG(3, 4))
	d := &datasets.Dataset{Name: name, Classes: []string{"no", "yes"}}
	for j := 0; j < 5; j++ {
		d.Inputs = append(d.Inputs, datasets.Attribute{Name: fmt.Sprintf("x%d", j), Type: "real", Min: math.NaN(), Max: math.NaN()})
	}
	for i := 0; i < 150; i++ {
		row := make([]float64, 5)
		for j := range row {
			row[j] = rng.NormFloat64()
		}
		c := 0
		if row[0]*row[0]+row[1] > 0.8+0.3*rng.NormFloat64() {
			c = 1
		}
		d.X = append(d.X, row)
		d.Y = append(d.Y, c)
	}
	return d
}

// run executes a small study of real learners and returns its records.
func run(t *testing.T, ms []study.MethodSpec) []results.Record {
	t.Helper()
	dir := t.TempDir()
	study := study.Study{Protocols: []string{"clean"}, Datasets: []string{"synth"}, Methods: ms, Options: protocol.DefaultOptions()}
	r := &runner.Runner{Load: func(context.Context, string) (*datasets.Dataset, error) { return synthetic("synth"), nil }, OutDir: dir, Jobs: 2}
	if _, err := r.Run(context.Background(), study); err != nil {
		t.Fatal(err)
	}
	recs, err := results.ReadFile(filepath.Join(dir, results.FileName))
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func baselineOf(recs []results.Record) *Baseline[study.Study] {
	b := &Baseline[study.Study]{}
	if err := b.Update(recs); err != nil {
		panic(err)
	}
	return b
}

func TestIdenticalRunPasses(t *testing.T) {
	ms := []study.MethodSpec{{Name: "cart"}, {Name: "fgrt", Grid: "fixed"}}
	b := baselineOf(run(t, ms))
	diffs := Compare(b, run(t, ms), Options{})
	if n := Regressions(diffs); n != 0 {
		var buf bytes.Buffer
		WriteTable(&buf, diffs, 0)
		t.Fatalf("identical runs differ:\n%s", buf.String())
	}
	if !strings.HasPrefix(Summary(b, diffs), "ok:") {
		t.Fatal(Summary(b, diffs))
	}
}

// TestPerturbedLearnerFails changes one learner parameter behind the same
// method label, as a code change to a learner would, and requires the gate
// to report it.
func TestPerturbedLearnerFails(t *testing.T) {
	cases := []struct {
		name      string
		base, alt study.MethodSpec
	}{
		{"cart min_samples_leaf", study.MethodSpec{Name: "cart"}, study.MethodSpec{Name: "cart", Label: "cart", Params: map[string]string{"min_samples_leaf": "9"}}},
		{"fgrt max_rules", study.MethodSpec{Name: "fgrt", Grid: "fixed", Label: "fgrt"}, study.MethodSpec{Name: "fgrt", Grid: "fixed", Label: "fgrt", Params: map[string]string{"max_rules": "4"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := baselineOf(run(t, []study.MethodSpec{c.base}))
			diffs := Compare(b, run(t, []study.MethodSpec{c.alt}), Options{})
			if Regressions(diffs) == 0 {
				t.Fatal("a changed learner passed the gate")
			}
			var buf bytes.Buffer
			WriteTable(&buf, diffs, 5)
			if !containsVerdict(buf.String()) {
				t.Fatalf("table does not flag the change:\n%s", buf.String())
			}
		})
	}
}

func TestTolerance(t *testing.T) {
	base := []results.Record{{Protocol: "clean", Dataset: "d", Method: "fga", Fold: 0, NTest: 50, Correct: 40, Accuracy: 0.8, Rules: 10, Config: "a=1"}}
	moved := []results.Record{base[0]}
	moved[0].Correct, moved[0].Accuracy, moved[0].Rules = 41, 0.82, 11
	b := baselineOf(base)
	if Regressions(Compare(b, moved, Options{})) == 0 {
		t.Fatal("without a tolerance any move is a regression")
	}
	b.Tolerances = map[string]Tolerance{"fga": {Accuracy: 0.02, Rules: 1}}
	diffs := Compare(b, moved, Options{})
	if len(diffs) != 3 || Regressions(diffs) != 0 {
		t.Fatalf("within tolerance: %+v", diffs)
	}
	moved[0].Accuracy, moved[0].Correct = 0.9, 45
	if Regressions(Compare(b, moved, Options{})) != 2 {
		t.Fatal("beyond tolerance must regress (correct and accuracy)")
	}
}

// TestEveryFieldIsCompared tampers with one stored field of a deterministic
// method's baseline row at a time (the case: correct 157 of n_test
// 60, accuracy unchanged) and requires a regression naming that field.
func TestEveryFieldIsCompared(t *testing.T) {
	base := results.Record{Protocol: "clean", Dataset: "d", Method: "cart", Config: "a=1", Selection: "fixed", Selected: true, Seed: 42,
		NTrain: 200, NTest: 60, Correct: 53, Accuracy: 53.0 / 60, BalancedAccuracy: 0.8, Rules: 9, Antecedents: 30, RulebaseSize: 30, Leaves: 9, InternalNodes: 8}
	tamper := map[string]func(*Row){
		"correct":           func(r *Row) { r.Correct = 157 },
		"n_test":            func(r *Row) { r.NTest = 61 },
		"n_train":           func(r *Row) { r.NTrain = 199 },
		"accuracy":          func(r *Row) { r.Accuracy = 0.9 },
		"balanced_accuracy": func(r *Row) { r.BalancedAccuracy = 0.81 },
		"rules":             func(r *Row) { r.Rules++ },
		"antecedents":       func(r *Row) { r.Antecedents-- },
		"rulebase_size":     func(r *Row) { r.RulebaseSize++ },
		"leaves":            func(r *Row) { r.Leaves++ },
		"internal_nodes":    func(r *Row) { r.InternalNodes++ },
		"config":            func(r *Row) { r.Config = "a=2" },
		"selected":          func(r *Row) { r.Selected = false },
		"selection":         func(r *Row) { r.Selection = "test" },
		"seed":              func(r *Row) { r.Seed = 7 },
	}
	if len(tamper) != len(results.Header)-len(results.TimingColumns)-7 {
		// protocol, dataset, method, config_index, repeat, fold identify
		// the row; key is checked by resume and merge.
		t.Fatalf("%d fields tampered, but results.csv has %d value columns: a new column must be compared", len(tamper), len(results.Header)-len(results.TimingColumns)-7)
	}
	for field, f := range tamper {
		b := baselineOf([]results.Record{base})
		f(&b.Rows[0])
		diffs := Compare(b, []results.Record{base}, Options{})
		if len(diffs) != 1 || diffs[0].Field != field || !diffs[0].Regression {
			t.Errorf("%s tampered: %+v", field, diffs)
			continue
		}
		// The baseline was tampered, so the result's direction is the
		// reverse of the tampering: a baseline accuracy raised reads as a
		// result that got worse.
		want := "CHANGED"
		switch field {
		case "correct", "accuracy", "balanced_accuracy":
			want = "WORSE"
		}
		if got := diffs[0].Verdict(); got != want {
			t.Errorf("%s tampered: verdict %s, want %s", field, got, want)
		}
		var buf bytes.Buffer
		WriteTable(&buf, diffs, 0)
		if !strings.Contains(buf.String(), want) || !strings.Contains(buf.String(), field) {
			t.Errorf("%s: table does not name the field and its verdict:\n%s", field, buf.String())
		}
	}
}

func TestToleranceOnlyForStochasticMethods(t *testing.T) {
	b := &Baseline[study.Study]{Study: study.Study{Methods: []study.MethodSpec{{Name: "cart"}, {Name: "fga"}}},
		Tolerances: map[string]Tolerance{"fga": {Accuracy: 0.03}}}
	if err := b.Validate(); err != nil {
		t.Fatal(err)
	}
	b.Tolerances["cart"] = Tolerance{Accuracy: 0.01}
	if err := b.Validate(); err == nil || !strings.Contains(err.Error(), "cart is deterministic") {
		t.Fatalf("a tolerance on deterministic cart: %v", err)
	}
}

func TestMissingAndNewRowsAndTiming(t *testing.T) {
	a := results.Record{Protocol: "paper", Dataset: "d", Method: "m", NTest: 10, Correct: 5, Accuracy: 0.5, FitSeconds: 1}
	b := baselineOf([]results.Record{a})
	other := a
	other.Fold = 1
	diffs := Compare(b, []results.Record{other}, Options{})
	if Regressions(diffs) != 2 {
		t.Fatalf("want a missing and a new row: %+v", diffs)
	}
	slow := a
	slow.FitSeconds = 5
	if Regressions(Compare(b, []results.Record{slow}, Options{})) != 0 {
		t.Fatal("timing is ignored unless asked")
	}
	if Regressions(Compare(b, []results.Record{slow}, Options{TimingRatio: 3})) != 1 {
		t.Fatal("5x slower must fail a 3x timing ratio")
	}
}

// TestRowsOfTwoRunsAreRefused injects results files put together from two
// runs: one row id twice, with equal or different values. Neither a check
// nor an update may keep only the last row and pass.
func TestRowsOfTwoRunsAreRefused(t *testing.T) {
	a := results.Record{Protocol: "paper", Dataset: "d", Method: "m", NTest: 10, Correct: 5, Accuracy: 0.5}
	moved := a
	moved.Correct, moved.Accuracy = 6, 0.6
	b := baselineOf([]results.Record{a})
	for _, tc := range []struct {
		name string
		recs []results.Record
	}{
		{"same values", []results.Record{a, a}},
		{"moved then pinned", []results.Record{moved, a}},
		{"pinned then moved", []results.Record{a, moved}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			diffs := Compare(b, tc.recs, Options{})
			dup := false
			for _, d := range diffs {
				dup = dup || (d.Field == "row" && d.Result == "more than once" && d.Regression)
			}
			if !dup {
				t.Fatalf("a row present twice must be a regression: %+v", diffs)
			}
			err := (&Baseline[study.Study]{}).Update(tc.recs)
			if err == nil || !strings.Contains(err.Error(), "more than once") {
				t.Fatalf("Update of a row present twice: got %v", err)
			}
		})
	}
}

func TestSaveLoadRoundTrip(t *testing.T) {
	b := baselineOf([]results.Record{{Protocol: "paper", Dataset: "d", Method: "m", NTest: 10, Correct: 5, Accuracy: 0.5}})
	b.Description = "x"
	b.Tolerances = map[string]Tolerance{"m": {Accuracy: 0.1, Why: "test"}}
	path := filepath.Join(t.TempDir(), "b.json")
	if err := b.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := Load[study.Study](path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Description != "x" || len(got.Rows) != 1 || got.Tolerances["m"].Accuracy != 0.1 || got.Rows[0] != b.Rows[0] {
		t.Fatalf("round trip: %+v", got)
	}
}

// containsVerdict reports whether a table names a difference beyond
// tolerance by one of its verdicts.
func containsVerdict(table string) bool {
	for _, v := range []string{"IMPROVED", "WORSE", "CHANGED"} {
		if strings.Contains(table, v) {
			return true
		}
	}
	return false
}

// TestVerdict: a difference beyond tolerance says which way it went where
// the field has a direction (the issue: an improvement printed as
// REGRESSION), CHANGED where it has none (fewer rules at an equal accuracy
// is not better by itself), and within-tol inside a declared tolerance.
func TestVerdict(t *testing.T) {
	cases := []struct {
		name string
		d    Diff
		want string
	}{
		{"accuracy up", Diff{Field: "accuracy", Baseline: "0.8", Result: "0.85", Regression: true}, "IMPROVED"},
		{"accuracy down", Diff{Field: "accuracy", Baseline: "0.8", Result: "0.75", Regression: true}, "WORSE"},
		{"balanced accuracy up", Diff{Field: "balanced_accuracy", Baseline: "0.5", Result: "0.6", Regression: true}, "IMPROVED"},
		{"correct down", Diff{Field: "correct", Baseline: "40", Result: "39", Regression: true}, "WORSE"},
		{"slower fit", Diff{Field: "fit_seconds", Baseline: "0.1", Result: "0.5", Regression: true}, "WORSE"},
		{"fewer rules", Diff{Field: "rules", Baseline: "9", Result: "5", Regression: true}, "CHANGED"},
		{"more rules", Diff{Field: "rules", Baseline: "5", Result: "9", Regression: true}, "CHANGED"},
		{"config", Diff{Field: "config", Baseline: "a=1", Result: "a=2", Regression: true}, "CHANGED"},
		{"missing row", Diff{Field: "row", Baseline: "present", Result: "missing", Regression: true}, "CHANGED"},
		{"new row", Diff{Field: "row", Baseline: "absent", Result: "new", Regression: true}, "CHANGED"},
		{"within tolerance", Diff{Field: "accuracy", Baseline: "0.8", Result: "0.82"}, "within-tol"},
	}
	for _, c := range cases {
		if got := c.d.Verdict(); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
	// The table prints the verdict of every row, and an improvement is
	// never called a regression.
	var buf bytes.Buffer
	WriteTable(&buf, []Diff{cases[0].d}, 0)
	if !strings.Contains(buf.String(), "IMPROVED") || strings.Contains(buf.String(), "REGRESSION") {
		t.Errorf("table:\n%s", buf.String())
	}
}
