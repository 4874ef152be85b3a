package learntest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"

	"github.com/fgrtbench/fgrtbench/internal/par"
	"github.com/fgrtbench/fgrtbench/learn"
)

// ThreadsRows is the size of the training set of CheckThreads: above the
// row counts from which the learners spread a fit over the free threads
// of a budget (fgrt and partopt's parallelRows, the split searches of
// cart and c45), so that their parallel loops run.
const ThreadsRows = 9000

// threadBudget is the budget of CheckThreads' parallel fit: more threads
// than the machines the tests run on may have cores, so that loops spread
// even where only some threads are free.
const threadBudget = 4

// ThreadsData is CheckThreads' problem: ThreadsRows training rows of
// three classes with ties everywhere a learner breaks them — a noisy
// informative column, one rounded to quarters, one of five integer
// values, a nominal column, a constant column, and every fifth row a
// duplicate of the one before (every tenth with the other label).
func ThreadsData() Data {
	r := rand.New(rand.NewPCG(33, 1))
	rows := func(n int, labels bool) ([][]float64, []int) {
		X := make([][]float64, n)
		y := make([]int, n)
		for i := range X {
			c := r.IntN(3)
			X[i] = []float64{float64(c) + r.NormFloat64(), math.Round(4*(float64(c%2)+r.NormFloat64())) / 4,
				float64(r.IntN(5)), float64((c + r.IntN(2)) % 3), 1.5, r.NormFloat64()}
			y[i] = c
			if i%5 == 4 && labels {
				copy(X[i], X[i-1])
				y[i] = y[i-1]
				if i%10 == 9 {
					y[i] = (y[i] + 1) % 3
				}
			}
		}
		return X, y
	}
	schema := learn.Schema{
		Features: []learn.Feature{{Name: "signal"}, {Name: "quarters"}, {Name: "levels"},
			{Name: "kind", Nominal: true, Categories: []string{"p", "q", "r"}}, {Name: "constant"}, {Name: "noise"}},
		Classes: []string{"low", "mid", "high"},
	}
	xtr, ytr := rows(ThreadsRows, true)
	xte, _ := rows(500, false)
	return Data{Name: "threads", Schema: schema, XTrain: xtr, YTrain: ytr, XTest: xte}
}

// CheckThreads checks the promise of learn.Threaded: a trainer fitted with
// a CPU budget of several threads (inside Do, as the runner's workers fit)
// gives the model it gives serially — the same JSON description, byte for
// byte, the same rules and the same predictions — and keeps its type, so
// that every optional interface it implements still holds; a group fit
// (learn.GroupFitter) is checked the same way. A trainer that is not
// Threaded is exempt: the runner hands it no budget, so it fits serially
// whatever the budget.
func CheckThreads(s Subject, d Data) []error {
	var errs []error
	fail := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s with threads on %s: %s", s.Name, d.Name, fmt.Sprintf(format, args...)))
	}
	tr, err := s.New(7)
	if err != nil {
		fail("new trainer: %v", err)
		return errs
	}
	if _, ok := tr.(learn.Threaded); !ok {
		return nil
	}
	if u := learn.WithThreads(tr, par.NewBudget(threadBudget)); reflect.TypeOf(u) != reflect.TypeOf(tr) {
		fail("WithThreads turned a %T into a %T", tr, u)
	}
	serial, err := fitThreaded(s, d, nil)
	if err != nil {
		fail("serial fit: %v", err)
		return errs
	}
	parallel, err := fitThreaded(s, d, par.NewBudget(threadBudget))
	if err != nil {
		fail("fit with %d threads: %v", threadBudget, err)
		return errs
	}
	for i := range serial {
		if msg := serial[i].differ(parallel[i]); msg != "" {
			fail("%s: %d threads and serial give different models: %s", serial[i].how, threadBudget, msg)
		}
	}
	return errs
}

// threadedFit is one model fitted by fitThreaded, as bytes to compare.
type threadedFit struct {
	how   string
	json  []byte
	rules string
	pred  []int
}

func (a threadedFit) differ(b threadedFit) string {
	switch {
	case !bytes.Equal(a.json, b.json):
		return fmt.Sprintf("descriptions\n%s\nvs\n%s", a.json, b.json)
	case a.rules != b.rules:
		return fmt.Sprintf("rules\n%s\nvs\n%s", a.rules, b.rules)
	case !reflect.DeepEqual(a.pred, b.pred):
		return "predictions: " + firstDifference(a.pred, b.pred)
	}
	return ""
}

// fitThreaded fits the subject's trainer, and its group when the trainer
// is a learn.GroupFitter, with the budget b (nil: serially).
func fitThreaded(s Subject, d Data, b *par.Budget) ([]threadedFit, error) {
	var out []threadedFit
	err := safely(func() error {
		tr, err := s.New(7)
		if err != nil {
			return err
		}
		tr = learn.WithThreads(tr, b)
		var m learn.Model
		if b.Do(func() { m, err = tr.Fit(d.XTrain, d.YTrain, d.Schema) }); err != nil {
			return err
		}
		f, err := threadedOutcome("fit", m, d)
		if err != nil {
			return err
		}
		out = append(out, f)
		gf, ok := tr.(learn.GroupFitter)
		if !ok {
			return nil
		}
		group, err := s.group(7)
		if err != nil {
			return err
		}
		for i := range group {
			group[i] = learn.WithThreads(group[i], b)
		}
		var ms []learn.Model
		if b.Do(func() { ms, err = gf.FitGroup(group, d.XTrain, d.YTrain, d.Schema) }); err != nil {
			return err
		}
		for i, m := range ms {
			f, err := threadedOutcome(fmt.Sprintf("group fit %d", i), m, d)
			if err != nil {
				return err
			}
			out = append(out, f)
		}
		return nil
	})
	return out, err
}

// threadedOutcome renders a model: its JSON description when it is a
// learn.Describer, its rules and its predictions on the test rows.
func threadedOutcome(how string, m learn.Model, d Data) (threadedFit, error) {
	f := threadedFit{how: how, rules: m.Rules(d.Schema), pred: m.Predict(d.XTest)}
	if desc, ok := m.(learn.Describer); ok {
		dsc, err := desc.Describe(d.Schema)
		if err != nil {
			return f, fmt.Errorf("%s: describe: %w", how, err)
		}
		if f.json, err = json.Marshal(dsc); err != nil {
			return f, fmt.Errorf("%s: marshal: %w", how, err)
		}
	}
	return f, nil
}
