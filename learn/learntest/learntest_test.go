package learntest

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/fgrtbench/fgrtbench/learn"
)

// majority is a minimal conforming learner: it predicts the training
// set's most frequent class. Its fault field injects one violation.
type majority struct {
	fault string
	calls *atomic.Int64
}

type majorityModel struct {
	class int
	fault string
	calls *atomic.Int64
}

func (t majority) Fit(X [][]float64, y []int, s learn.Schema) (learn.Model, error) {
	if err := learn.CheckXY(X, y, s, false); err != nil {
		if t.fault == "panic-on-empty" {
			panic("no rows")
		}
		return nil, err
	}
	count := make([]int, s.NumClasses())
	for _, c := range y {
		count[c]++
	}
	best := 0
	for k, n := range count {
		if n > count[best] {
			best = k
		}
	}
	if t.fault == "mutate" && t.calls.Add(1) == 1 { // only the first, sequential fit: no data race
		X[0][0]++
	}
	if t.fault == "seed" {
		best = int(t.calls.Add(1)) % s.NumClasses()
	}
	return &majorityModel{class: best, fault: t.fault, calls: t.calls}, nil
}

func (m *majorityModel) Predict(X [][]float64) []int {
	out := make([]int, len(X))
	for i := range out {
		out[i] = m.class
	}
	switch m.fault {
	case "short":
		return out[:len(out)-1]
	case "range":
		out[0] = 99
	case "seed-predict": // same rules, predictions that vary from call to call
		out[len(out)-1] = int(m.calls.Add(1)) % 2
		if len(out) > 1 {
			out[1] = int(m.calls.Load()) % 2
		}
	}
	return out
}

func (m *majorityModel) Complexity() learn.Complexity {
	switch m.fault {
	case "complexity":
		return learn.Complexity{Rules: 2, Leaves: 2}
	case "leaves":
		return learn.Complexity{Rules: 1, Leaves: 3}
	}
	return learn.Complexity{Rules: 1, Leaves: 1}
}

func (m *majorityModel) Rules(s learn.Schema) string {
	return fmt.Sprintf("IF TRUE THEN class %s\n", s.ClassName(m.class))
}

func subject(fault string) Subject {
	calls := &atomic.Int64{}
	return Subject{Name: "majority-" + fault, New: func(int64) (learn.Trainer, error) { return majority{fault: fault, calls: calls}, nil }}
}

func allErrors(s Subject) []error {
	var errs []error
	for _, d := range Problems() {
		errs = append(errs, CheckData(s, d)...)
	}
	if err := CheckEmpty(s); err != nil {
		errs = append(errs, err)
	}
	return errs
}

func TestConformingLearnerPasses(t *testing.T) {
	Run(t, subject(""))
}

// TestSuiteCatchesFaults injects one contract violation per case and
// checks that the suite reports it.
func TestSuiteCatchesFaults(t *testing.T) {
	cases := []struct{ fault, want string }{
		{"mutate", "modified its input"},
		{"seed", "same seed, different predictions (row 0: class"},
		{"seed-predict", "same seed, different predictions (row 1: class"},
		{"short", "predictions for"},
		{"range", "predicted class 99"},
		{"complexity", "printed rules show 1 rules"},
		{"leaves", "says 3 leaves but 1 rules"},
		{"panic-on-empty", "panic"},
	}
	for _, tc := range cases {
		t.Run(tc.fault, func(t *testing.T) {
			errs := allErrors(subject(tc.fault))
			if len(errs) == 0 {
				t.Fatal("suite found no violation")
			}
			if !strings.Contains(errors.Join(errs...).Error(), tc.want) {
				t.Errorf("errors do not mention %q:\n%v", tc.want, errors.Join(errs...))
			}
		})
	}
}

func TestCheckRulesText(t *testing.T) {
	cases := []struct {
		text string
		cx   learn.Complexity
		ok   bool
	}{
		{"IF a <= 1 AND b > 2 THEN class x\nIF TRUE THEN class y\n", learn.Complexity{Rules: 2, Antecedents: 2}, true},
		{"# comment\nfallback: IF a IS Low THEN class x\nIF a IS High THEN class y\n", learn.Complexity{Rules: 1, Antecedents: 1}, true},
		{"IF a <= 1 AND b > 2 THEN class x\n", learn.Complexity{Rules: 1, Antecedents: 1}, false},
		{"IF a <= 1 class x\n", learn.Complexity{Rules: 1, Antecedents: 1}, false},
		{"", learn.Complexity{}, true},
	}
	for i, tc := range cases {
		if err := CheckRulesText(tc.text, tc.cx); (err == nil) != tc.ok {
			t.Errorf("case %d: err = %v, want ok %v", i, err, tc.ok)
		}
	}
}

// optional is the majority learner with every optional interface of
// package learn; its fault field breaks one interface's promise.
type optional struct {
	majority
	fault string
	// off shifts the predicted class: what a broken preparation or group
	// fit returns.
	off int
}

func (t optional) Fit(X [][]float64, y []int, s learn.Schema) (learn.Model, error) {
	m, err := t.majority.Fit(X, y, s)
	if err != nil {
		return nil, err
	}
	mm := m.(*majorityModel)
	mm.class = (mm.class + t.off) % s.NumClasses()
	return mm, nil
}

func (t optional) Prepare([][]float64, []int, learn.Schema) (learn.Trainer, error) {
	if t.fault == "prepare" {
		t.off = 1
	}
	return t, nil
}

func (t optional) PrepareKey() string { return "all" }

func (t optional) WithPreparation(p learn.Trainer) (learn.Trainer, error) {
	if t.fault == "shared" {
		return optional{majority: t.majority, off: 1}, nil
	}
	return t, nil
}

func (t optional) FitGroup(ts []learn.Trainer, X [][]float64, y []int, s learn.Schema) ([]learn.Model, error) {
	out := make([]learn.Model, len(ts))
	for i, u := range ts {
		m, err := u.Fit(X, y, s)
		if err != nil {
			return nil, err
		}
		if t.fault == "group" && i == len(ts)-1 {
			mm := *m.(*majorityModel)
			mm.class = (mm.class + 1) % s.NumClasses()
			m = &mm
		}
		out[i] = m
	}
	if t.fault == "group-short" {
		out = out[:len(out)-1]
	}
	if strings.HasPrefix(t.fault, "predict-group") {
		for i, m := range out {
			out[i] = groupModel{majorityModel: m.(*majorityModel), fault: t.fault}
		}
	}
	return out, nil
}

// groupModel is a majority model that predicts groups, wrongly for the
// faults "predict-group" (the last model's classes shifted) and
// "predict-group-short" (one set fewer).
type groupModel struct {
	*majorityModel
	fault string
}

func (g groupModel) PredictGroup(ms []learn.Model, X [][]float64) ([][]int, bool) {
	out := make([][]int, len(ms))
	for i, m := range ms {
		out[i] = m.Predict(X)
		if g.fault == "predict-group" && i == len(ms)-1 {
			for r := range out[i] {
				out[i][r] = (out[i][r] + 1) % 3
			}
		}
	}
	if g.fault == "predict-group-short" {
		out = out[:len(out)-1]
	}
	return out, true
}

var (
	_ learn.SharedPreparer = optional{}
	_ learn.GroupFitter    = optional{}
)

// TestOptionalInterfaces: a learner keeping every optional promise passes,
// and each broken promise is reported, as testing/fstest reports a file
// system whose optional interfaces disagree with its plain ones.
func TestOptionalInterfaces(t *testing.T) {
	optionalSubject := func(fault string) Subject {
		calls := &atomic.Int64{}
		return Subject{Name: "optional-" + fault, New: func(int64) (learn.Trainer, error) {
			return optional{majority: majority{calls: calls}, fault: fault}, nil
		}}
	}
	Run(t, optionalSubject(""))
	cases := []struct{ fault, want string }{
		{"prepare", "Prepare on the training rows, then Fit, differs from Fit alone"},
		{"shared", "with a shared preparation differs from its own Fit"},
		{"group", "FitGroup (unprepared): model 1 differs"},
		{"group-short", "returned 1 models for 2 trainers"},
		{"predict-group", "PredictGroup (unprepared): model 1 predicts"},
		{"predict-group-short", "returned 1 prediction sets for 2 models"},
	}
	for _, tc := range cases {
		t.Run(tc.fault, func(t *testing.T) {
			var errs []error
			for _, d := range Problems() {
				errs = append(errs, CheckOptional(optionalSubject(tc.fault), d)...)
			}
			if len(errs) == 0 {
				t.Fatal("suite found no violation")
			}
			if !strings.Contains(errors.Join(errs...).Error(), tc.want) {
				t.Errorf("errors do not mention %q:\n%v", tc.want, errors.Join(errs...))
			}
		})
	}
}

// TestCheckDeclaredBounds: a learner that validates with its declaration
// passes; one whose own validation forgot a declared bound is reported,
// once per bound it does not enforce.
func TestCheckDeclaredBounds(t *testing.T) {
	params := []learn.Param{
		{Name: "n", Kind: learn.Int, Default: "2", Min: 1, Max: 5, HasMin: true, HasMax: true},
		{Name: "mode", Kind: learn.Enum, Default: "a", Values: []string{"a"}},
	}
	spec := func(enforce bool) *learn.Spec {
		return &learn.Spec{Name: "toy", Version: 1, Params: params,
			New: func(v learn.Values, _ int64) (learn.Trainer, error) {
				if enforce {
					if err := learn.CheckBounds(params, learn.Number{Name: "n", Value: float64(v.Int("n"))}); err != nil {
						return nil, err
					}
				}
				return majority{}, nil
			}}
	}
	if errs := CheckDeclaredBounds(spec(true)); len(errs) != 0 {
		t.Errorf("enforcing learner reported: %v", errs)
	}
	errs := CheckDeclaredBounds(spec(false))
	if len(errs) != 2 || !strings.Contains(errs[0].Error(), "n=0 is outside the declared bounds") || !strings.Contains(errs[1].Error(), "n=6") {
		t.Errorf("forgetful learner: %v", errs)
	}
}

// LargeProblem is the same rows on every call, of the shape asked for,
// with every class present and values of four decimals.
func TestLargeProblem(t *testing.T) {
	X, y, s := LargeProblem(2000, 5)
	X2, y2, _ := LargeProblem(2000, 5)
	if len(X) != 2000 || len(y) != 2000 || s.NumFeatures() != 5 || s.NumClasses() != 3 {
		t.Fatalf("shape %d×%d, %d labels, schema %d features %d classes", len(X), len(X[0]), len(y), s.NumFeatures(), s.NumClasses())
	}
	seen := map[int]bool{}
	for i := range X {
		seen[y[i]] = true
		if y[i] != y2[i] {
			t.Fatalf("row %d: label %d then %d", i, y[i], y2[i])
		}
		for j, v := range X[i] {
			if v != X2[i][j] || math.Abs(v*1e4-math.Round(v*1e4)) > 1e-6 {
				t.Fatalf("row %d col %d: %v then %v", i, j, v, X2[i][j])
			}
		}
	}
	if len(seen) != 3 {
		t.Fatalf("classes %v", seen)
	}
}
