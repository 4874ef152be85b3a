// Package learntest is the conformance suite of the learner contract in
// package learn. Every learner the harness knows — each registered Go
// learner and the external kind alike — runs the same checks, the way
// scikit-learn's check_estimator, gonum's shared distribution tests and
// testing/fstest hold every implementation to one contract:
//
//   - the same seed gives the same model (predictions, rules, complexity);
//   - one prediction per row, each a class index (or -1, the contract's
//     abstention);
//   - neither Fit nor Predict modifies its inputs;
//   - a training set with a single class, with a constant column, with only
//     constant columns, and with nominal columns (including a test category
//     never seen in training) is handled without error or panic;
//   - the complexity agrees with the printed rules (see CheckRulesText);
//   - a model that describes itself as data (learn.Describer) is rebuilt
//     from its decoded JSON alone with the same predictions, and its
//     scores (learn.Scorer) agree with its predictions (CheckDescription);
//   - a fitted model may be used from several goroutines at once, and one
//     trainer may fit several training sets at once;
//   - an empty training set is an error, not a panic;
//   - each optional interface of package learn the trainer implements
//     keeps its promise (CheckOptional): a prepared, a shared-preparation
//     and a group fit give the models plain fits give;
//   - the learner itself refuses a value outside a bound its spec declares
//     (CheckDeclaredBounds), so its validation and the harness's agree;
//   - a learn.Threaded trainer fitted with a CPU budget of several threads
//     gives the model and predictions of its serial fit, byte for byte,
//     on data with ties large enough for its parallel loops (CheckThreads);
//   - last, it logs each optional interface the learner lacks with what
//     its users lose (Lacks): not a failure, a list for its author.
//
// A learner package runs the suite from its own tests with RunSpec on its
// learn.Spec; the registry's test runs it once more on every registered
// method.
//
// The suite builds its own data sets, small but for CheckThreads', so it
// runs in about a second per learner.
package learntest

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/fgrtbench/fgrtbench/learn"
)

// Subject is a learner under test.
type Subject struct {
	Name string
	// New returns a fresh trainer whose stochastic choices (if any) are
	// driven by seed.
	New func(seed int64) (learn.Trainer, error)
	// Group, when set, returns trainers of the method that differ in
	// configuration (its grid's points), on which CheckOptional checks the
	// promises of GroupFitter and SharedPreparer; nil means two trainers
	// from New.
	Group func(seed int64) ([]learn.Trainer, error)
}

// Data is a small classification problem with a train/test split.
type Data struct {
	Name   string
	Schema learn.Schema
	XTrain [][]float64
	YTrain []int
	XTest  [][]float64
}

// Problems returns the suite's data sets: numeric three-class data, mixed
// numeric/nominal data whose test part holds a category unseen in training,
// a training set with a single class, one with a constant column, and one
// where every column is constant.
func Problems() []Data {
	r := rand.New(rand.NewPCG(17, 42))
	numSchema := learn.Schema{
		Features: []learn.Feature{{Name: "a"}, {Name: "b"}, {Name: "c"}},
		Classes:  []string{"red", "green", "blue"},
	}
	var out []Data

	xtr, ytr := numericRows(r, 60)
	xte, _ := numericRows(r, 21)
	xte = append(xte, []float64{9, -9, 9}, []float64{-9, 9, -9}) // outside the training range
	out = append(out, Data{Name: "numeric", Schema: numSchema, XTrain: xtr, YTrain: ytr, XTest: xte})

	xtr, ytr = mixedRows(r, 48, false)
	xte, _ = mixedRows(r, 20, true)
	out = append(out, Data{Name: "nominal", Schema: mixedSchema(), XTrain: xtr, YTrain: ytr, XTest: xte})

	xtr, _ = numericRows(r, 30)
	one := make([]int, len(xtr))
	for i := range one {
		one[i] = 1
	}
	xte, _ = numericRows(r, 10)
	out = append(out, Data{Name: "one-class", Schema: numSchema, XTrain: xtr, YTrain: one, XTest: xte})

	xtr, ytr = numericRows(r, 45)
	xte, _ = numericRows(r, 12)
	for _, row := range append(append([][]float64{}, xtr...), xte...) {
		row[1] = 2.5
	}
	out = append(out, Data{Name: "constant-column", Schema: numSchema, XTrain: xtr, YTrain: ytr, XTest: xte})

	xtr, ytr = numericRows(r, 30)
	xte, _ = numericRows(r, 9)
	for _, row := range append(append([][]float64{}, xtr...), xte...) {
		row[0], row[1], row[2] = 1, -1, 0
	}
	out = append(out, Data{Name: "all-constant", Schema: numSchema, XTrain: xtr, YTrain: ytr, XTest: xte})
	return out
}

// numericRows draws n rows of three classes in turn over three numeric
// features: the first separates the classes, the second is noise, the
// third separates the middle class.
func numericRows(r *rand.Rand, n int) ([][]float64, []int) {
	X := make([][]float64, n)
	y := make([]int, n)
	for i := range X {
		c := i % 3
		y[i] = c
		X[i] = []float64{float64(c) + float64(0.6*r.NormFloat64()), r.NormFloat64(), float64(float64(c%2)*1.5) + float64(0.5*r.NormFloat64())}
	}
	return X, y
}

// mixedRows draws n rows of two classes in turn over mixedSchema's
// features; unseen puts a category the training part never shows in
// every fifth row.
func mixedRows(r *rand.Rand, n int, unseen bool) ([][]float64, []int) {
	X := make([][]float64, n)
	y := make([]int, n)
	for i := range X {
		c := i % 2
		y[i] = c
		colour := float64((i / 2) % 3) // categories 0..2, class-independent
		shape := float64(c)            // category = class, mostly
		if i%7 == 0 {
			shape = float64(1 - c)
		}
		X[i] = []float64{colour, r.NormFloat64() + float64(c), shape}
		if unseen && i%5 == 0 {
			X[i][0] = 3 // a category the training part never shows
		}
	}
	return X, y
}

// mixedSchema is the schema of mixedRows: two nominal features around a
// numeric one.
func mixedSchema() learn.Schema {
	return learn.Schema{
		Features: []learn.Feature{
			{Name: "colour", Nominal: true, Categories: []string{"r", "g", "b", "w"}},
			{Name: "size"},
			{Name: "shape", Nominal: true, Categories: []string{"round", "square"}},
		},
		Classes: []string{"no", "yes"},
	}
}

// Run runs the whole suite on a subject, one subtest per data set.
func Run(t *testing.T, s Subject) {
	t.Helper()
	for _, d := range Problems() {
		d := d
		t.Run(d.Name, func(t *testing.T) {
			for _, err := range CheckData(s, d) {
				t.Error(err)
			}
			for _, err := range CheckOptional(s, d) {
				t.Error(err)
			}
		})
	}
	t.Run("empty-training-set", func(t *testing.T) {
		if err := CheckEmpty(s); err != nil {
			t.Error(err)
		}
	})
	t.Run("threads", func(t *testing.T) {
		for _, err := range CheckThreads(s, ThreadsData()) {
			t.Error(err)
		}
	})
	t.Run("optional-interfaces", func(t *testing.T) { logLacks(t, s) })
}

// CheckEmpty checks that fitting no rows is an error, not a panic.
func CheckEmpty(s Subject) error {
	tr, err := s.New(1)
	if err != nil {
		return err
	}
	schema := Problems()[0].Schema
	err = safely(func() error { _, err := tr.Fit(nil, nil, schema); return err })
	if err == nil {
		return fmt.Errorf("%s: Fit on no rows returned no error", s.Name)
	}
	if strings.HasPrefix(err.Error(), "panic") {
		return fmt.Errorf("%s: Fit on no rows: %v", s.Name, err)
	}
	return nil
}

// safely turns a panic into an error.
func safely(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return f()
}

type fitted struct {
	model learn.Model
	pred  []int
	rules string
	cx    learn.Complexity
}

func fitPredict(s Subject, d Data, seed int64) (fitted, error) {
	var f fitted
	err := safely(func() error {
		tr, err := s.New(seed)
		if err != nil {
			return fmt.Errorf("new trainer: %w", err)
		}
		m, err := tr.Fit(d.XTrain, d.YTrain, d.Schema)
		if err != nil {
			return fmt.Errorf("fit: %w", err)
		}
		f.model = m
		f.pred = m.Predict(d.XTest)
		f.cx = m.Complexity()
		f.rules = m.Rules(d.Schema)
		return nil
	})
	return f, err
}

// CheckData runs every property of the contract on one data set and
// returns the violations found (none for a conforming learner).
func CheckData(s Subject, d Data) []error {
	const seed = 7
	var errs []error
	fail := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s on %s: %s", s.Name, d.Name, fmt.Sprintf(format, args...)))
	}
	xtr, ytr, xte, schema := copyMatrix(d.XTrain), append([]int(nil), d.YTrain...), copyMatrix(d.XTest), copySchema(d.Schema)
	a, err := fitPredict(s, d, seed)
	if err != nil {
		fail("%v", err)
		return errs
	}
	if !reflect.DeepEqual(xtr, d.XTrain) || !reflect.DeepEqual(ytr, d.YTrain) || !reflect.DeepEqual(xte, d.XTest) {
		fail("Fit or Predict modified its input rows or labels")
	}
	if !reflect.DeepEqual(schema, d.Schema) {
		fail("Fit or Rules modified the schema")
	}
	if err := learn.CheckPredictions(a.pred, len(d.XTest), d.Schema.NumClasses()); err != nil {
		fail("%v", err)
	}
	if d.Name == "one-class" {
		for i, p := range a.pred {
			if p != d.YTrain[0] && p != -1 {
				fail("row %d: predicted class %d, but training held only class %d", i, p, d.YTrain[0])
				break
			}
		}
	}
	if err := CheckRulesText(a.rules, a.cx); err != nil {
		fail("%v\nrules:\n%s", err, a.rules)
	}
	// One rule per leaf, and Leaves = Rules for a rule list: the readers
	// of a results directory re-derive the leaves column from the stored
	// rules on this contract (artifacts.Derive).
	if a.cx.Leaves != a.cx.Rules {
		fail("Complexity says %d leaves but %d rules; a tree has one rule per leaf and a rule list reports Leaves = Rules", a.cx.Leaves, a.cx.Rules)
	}
	for _, err := range CheckDescription(a.model, d) {
		fail("description: %v", err)
	}
	if err := CheckReadableRules(a.model, d.Schema); err != nil {
		fail("readable rules: %v", err)
	}
	b, err := fitPredict(s, d, seed)
	switch {
	case err != nil:
		fail("second fit with the same seed: %v", err)
	case !reflect.DeepEqual(a.pred, b.pred):
		fail("same seed, different predictions (%s)", firstDifference(a.pred, b.pred))
	case a.rules != b.rules:
		fail("same seed, different rules:\n%s\nvs\n%s", a.rules, b.rules)
	case a.cx != b.cx:
		fail("same seed, different complexity: %+v vs %+v", a.cx, b.cx)
	}
	for _, err := range concurrentModel(a, d) {
		fail("%v", err)
	}
	for _, err := range concurrentTrainer(s, d, seed, a) {
		fail("%v", err)
	}
	return errs
}

// firstDifference describes where two prediction slices first differ.
func firstDifference(a, b []int) string {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return fmt.Sprintf("row %d: class %d, then %d", i, a[i], b[i])
		}
	}
	return fmt.Sprintf("%d predictions, then %d", len(a), len(b))
}

// CheckRulesText checks the printing convention of learn.Model.Rules: each
// rule counted by Complexity.Rules is one line starting with "IF ", whose
// antecedents are joined by " AND " ("IF TRUE" for a rule without any);
// no other line starts with "IF ". The antecedents of the printed rules
// must add up to Complexity.Antecedents.
func CheckRulesText(rules string, cx learn.Complexity) error {
	n, ants := 0, 0
	for _, line := range strings.Split(rules, "\n") {
		if !strings.HasPrefix(line, "IF ") {
			continue
		}
		n++
		body, _, ok := strings.Cut(line[len("IF "):], " THEN ")
		if !ok {
			return fmt.Errorf("rule line %q has no THEN", line)
		}
		if body != "TRUE" {
			ants += strings.Count(body, " AND ") + 1
		}
	}
	if n != cx.Rules || ants != cx.Antecedents {
		return fmt.Errorf("printed rules show %d rules with %d antecedents, Complexity says %d rules with %d antecedents", n, ants, cx.Rules, cx.Antecedents)
	}
	if cx.Rules < 0 || cx.Antecedents < 0 || cx.Leaves < 0 || cx.InternalNodes < 0 {
		return fmt.Errorf("negative complexity %+v", cx)
	}
	return nil
}

// concurrentModel uses one fitted model from several goroutines.
func concurrentModel(a fitted, d Data) []error {
	return parallel(3, func() error {
		for rep := 0; rep < 2; rep++ {
			if p := a.model.Predict(d.XTest); !reflect.DeepEqual(p, a.pred) {
				return fmt.Errorf("concurrent Predict gave %v, sequential %v", p, a.pred)
			}
			if cx := a.model.Complexity(); cx != a.cx {
				return fmt.Errorf("concurrent Complexity gave %+v, sequential %+v", cx, a.cx)
			}
			if r := a.model.Rules(d.Schema); r != a.rules {
				return fmt.Errorf("concurrent Rules differ")
			}
		}
		return nil
	})
}

// concurrentTrainer fits one trainer from several goroutines at once.
func concurrentTrainer(s Subject, d Data, seed int64, want fitted) []error {
	tr, err := s.New(seed)
	if err != nil {
		return []error{err}
	}
	return parallel(2, func() error {
		m, err := tr.Fit(d.XTrain, d.YTrain, d.Schema)
		if err != nil {
			return err
		}
		if p := m.Predict(d.XTest); !reflect.DeepEqual(p, want.pred) {
			return fmt.Errorf("trainer used from several goroutines: predictions differ from a sequential fit")
		}
		return nil
	})
}

// parallel runs f on n goroutines at once and collects their errors
// (panics included).
func parallel(n int, f func() error) []error {
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for w := 0; w < n; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := safely(f); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	var out []error
	for e := range errs {
		out = append(out, e)
	}
	return out
}

func copyMatrix(X [][]float64) [][]float64 {
	out := make([][]float64, len(X))
	for i, row := range X {
		out[i] = append([]float64(nil), row...)
	}
	return out
}

func copySchema(s learn.Schema) learn.Schema {
	c := s
	c.Features = make([]learn.Feature, len(s.Features))
	for j, f := range s.Features {
		f.Categories = append([]string(nil), f.Categories...)
		c.Features[j] = f
	}
	c.Classes = append([]string(nil), s.Classes...)
	return c
}

// Safely runs f and turns a panic into an error, for checks built on this
// suite elsewhere (results/modeltest).
func Safely(f func() error) error { return safely(f) }

// FirstDifference says where two prediction lists first differ.
func FirstDifference(a, b []int) string { return firstDifference(a, b) }
