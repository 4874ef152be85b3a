package learntest

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/learn"
)

// CheckOptional checks the equivalence promise of every optional interface
// of package learn that the subject's trainer implements, as testing/fstest
// checks each optional interface a file system implements, on one data set:
//
//   - learn.Preparer: preparing on the training rows and then fitting on
//     the same rows gives the model an unprepared Fit gives (the clean
//     protocol never prepares, the paper protocol does: the difference must
//     come from the rows, not from the path);
//   - learn.SharedPreparer: the same for every trainer of the group whose
//     PrepareKey equals the preparer's, given the preparation through
//     WithPreparation;
//   - learn.GroupFitter: FitGroup on the group (unprepared and, for a
//     SharedPreparer, sharing one preparation) returns, in order, the models
//     each trainer's own Fit returns;
//   - learn.GroupPredictor, on the models FitGroup returns: a group it
//     accepts is predicted, model by model, as each model's Predict
//     predicts the test rows.
//
// "The same model" is judged as the harness sees a model: the same
// predictions on the test rows, the same printed rules and the same
// complexity. A trainer implementing none of the interfaces passes.
func CheckOptional(s Subject, d Data) []error {
	const seed = 7
	var errs []error
	fail := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s on %s: %s", s.Name, d.Name, fmt.Sprintf(format, args...)))
	}
	tr, err := s.New(seed)
	if err != nil {
		fail("new trainer: %v", err)
		return errs
	}
	_, isPreparer := tr.(learn.Preparer)
	_, isShared := tr.(learn.SharedPreparer)
	_, isGroup := tr.(learn.GroupFitter)
	if !isPreparer && !isGroup {
		return nil
	}
	group, err := s.group(seed)
	if err != nil {
		fail("group: %v", err)
		return errs
	}
	if isPreparer {
		for i, u := range group {
			p, ok := u.(learn.Preparer)
			if !ok {
				continue
			}
			prepared, err := fitOn(func() (learn.Trainer, error) { return p.Prepare(d.XTrain, d.YTrain, d.Schema) }, d)
			if err != nil {
				fail("trainer %d: prepare and fit: %v", i, err)
				continue
			}
			if diff := differ(prepared, mustFit(u, d)); diff != "" {
				fail("trainer %d: Prepare on the training rows, then Fit, differs from Fit alone: %s", i, diff)
			}
		}
	}
	if isShared {
		errs = append(errs, checkShared(s, d, group)...)
	}
	if isGroup {
		errs = append(errs, checkGroup(s, d, tr.(learn.GroupFitter), "unprepared", group)...)
		if isShared {
			if shared, err := shareOne(group, d); err != nil {
				fail("sharing a preparation: %v", err)
			} else {
				errs = append(errs, checkGroup(s, d, tr.(learn.GroupFitter), "sharing one preparation", shared)...)
			}
		}
	}
	return errs
}

// checkShared gives the preparation of the group's first trainer to every
// trainer with an equal PrepareKey and compares each fit with its own.
func checkShared(s Subject, d Data, group []learn.Trainer) []error {
	var errs []error
	first := group[0].(learn.SharedPreparer)
	p, err := first.Prepare(d.XTrain, d.YTrain, d.Schema)
	if err != nil {
		return []error{fmt.Errorf("%s on %s: prepare: %v", s.Name, d.Name, err)}
	}
	for i, u := range group {
		sp, ok := u.(learn.SharedPreparer)
		if !ok || sp.PrepareKey() != first.PrepareKey() {
			continue
		}
		got, err := fitOn(func() (learn.Trainer, error) { return sp.WithPreparation(p) }, d)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s on %s: trainer %d: WithPreparation for an equal key: %v", s.Name, d.Name, i, err))
			continue
		}
		if diff := differ(got, mustFit(u, d)); diff != "" {
			errs = append(errs, fmt.Errorf("%s on %s: trainer %d with a shared preparation differs from its own Fit: %s", s.Name, d.Name, i, diff))
		}
	}
	return errs
}

// shareOne returns the group with the first trainer's preparation given to
// every trainer of an equal PrepareKey (the others as they are), as the
// runner does.
func shareOne(group []learn.Trainer, d Data) ([]learn.Trainer, error) {
	first := group[0].(learn.SharedPreparer)
	p, err := first.Prepare(d.XTrain, d.YTrain, d.Schema)
	if err != nil {
		return nil, err
	}
	out := make([]learn.Trainer, len(group))
	for i, u := range group {
		out[i] = u
		if sp, ok := u.(learn.SharedPreparer); ok && sp.PrepareKey() == first.PrepareKey() {
			if out[i], err = sp.WithPreparation(p); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

func checkGroup(s Subject, d Data, gf learn.GroupFitter, how string, group []learn.Trainer) []error {
	var errs []error
	var models []learn.Model
	err := safely(func() error {
		var err error
		models, err = gf.FitGroup(group, d.XTrain, d.YTrain, d.Schema)
		return err
	})
	if err != nil {
		return []error{fmt.Errorf("%s on %s: FitGroup (%s): %v", s.Name, d.Name, how, err)}
	}
	if len(models) != len(group) {
		return []error{fmt.Errorf("%s on %s: FitGroup (%s) returned %d models for %d trainers", s.Name, d.Name, how, len(models), len(group))}
	}
	for i, u := range group {
		got := describe(models[i], d)
		if diff := differ(got, mustFit(u, d)); diff != "" {
			errs = append(errs, fmt.Errorf("%s on %s: FitGroup (%s): model %d differs from its trainer's own Fit: %s", s.Name, d.Name, how, i, diff))
		}
	}
	return append(errs, checkGroupPredict(s, d, how, models)...)
}

// checkGroupPredict checks a GroupPredictor's predictions of a group it
// accepts against each model's own Predict.
func checkGroupPredict(s Subject, d Data, how string, models []learn.Model) []error {
	if _, ok := models[0].(learn.GroupPredictor); !ok || len(models) < 2 {
		return nil
	}
	var preds [][]int
	err := safely(func() error {
		var err error
		preds, err = learn.PredictGroup(models, d.XTest)
		return err
	})
	if err != nil {
		return []error{fmt.Errorf("%s on %s: PredictGroup (%s): %v", s.Name, d.Name, how, err)}
	}
	var errs []error
	for i, pred := range preds { // nil: the group was refused
		if want := describe(models[i], d).pred; !reflect.DeepEqual(pred, want) {
			errs = append(errs, fmt.Errorf("%s on %s: PredictGroup (%s): model %d predicts %v, its Predict %v", s.Name, d.Name, how, i, pred, want))
		}
	}
	return errs
}

// group returns the subject's group of trainers: Group's, or two trainers
// from New.
func (s Subject) group(seed int64) ([]learn.Trainer, error) {
	if s.Group != nil {
		g, err := s.Group(seed)
		if err == nil && len(g) == 0 {
			err = fmt.Errorf("empty group")
		}
		return g, err
	}
	var g []learn.Trainer
	for range 2 {
		tr, err := s.New(seed)
		if err != nil {
			return nil, err
		}
		g = append(g, tr)
	}
	return g, nil
}

// outcome is a model as the harness sees it; err is set when the fit failed.
type outcome struct {
	pred  []int
	rules string
	cx    learn.Complexity
	err   error
}

func describe(m learn.Model, d Data) outcome {
	var o outcome
	o.err = safely(func() error {
		o.pred = m.Predict(d.XTest)
		o.rules = m.Rules(d.Schema)
		o.cx = m.Complexity()
		return nil
	})
	return o
}

func mustFit(tr learn.Trainer, d Data) outcome {
	o, err := fitOn(func() (learn.Trainer, error) { return tr, nil }, d)
	if err != nil {
		return outcome{err: err}
	}
	return o
}

func fitOn(newTrainer func() (learn.Trainer, error), d Data) (outcome, error) {
	var m learn.Model
	err := safely(func() error {
		tr, err := newTrainer()
		if err != nil {
			return err
		}
		m, err = tr.Fit(d.XTrain, d.YTrain, d.Schema)
		return err
	})
	if err != nil {
		return outcome{}, err
	}
	return describe(m, d), nil
}

// differ describes how two outcomes differ ("" when they do not). Two
// failed fits agree: the promise is about results, and a fit that fails
// alone must fail in the group too.
func differ(got, want outcome) string {
	switch {
	case (got.err != nil) != (want.err != nil):
		return fmt.Sprintf("error %v vs %v", got.err, want.err)
	case got.err != nil:
		return ""
	case !reflect.DeepEqual(got.pred, want.pred):
		return "predictions: " + firstDifference(got.pred, want.pred)
	case got.rules != want.rules:
		return fmt.Sprintf("rules:\n%s\nvs\n%s", got.rules, want.rules)
	case got.cx != want.cx:
		return fmt.Sprintf("complexity %+v vs %+v", got.cx, want.cx)
	}
	return ""
}

// RunSpec runs the whole suite (Run) on a declared learner: once per
// configuration of spec.Conformance (the defaults when there is none),
// with the points of all its grids, under the same overrides, as the group
// the optional interfaces are checked on. A learner package calls it from
// its own tests, so that `go test ./<learner>` holds it to the contract.
func RunSpec(t *testing.T, spec *learn.Spec) {
	t.Helper()
	confs := spec.Conformance
	if len(confs) == 0 {
		confs = []map[string]string{nil}
	}
	for _, over := range confs {
		cfg, err := spec.Resolve(over)
		if err != nil {
			t.Fatalf("%s: conformance configuration %v: %v", spec.Name, over, err)
		}
		name := spec.Name
		if over != nil {
			name += "/" + learn.Values(over).String()
		}
		var points []learn.Values
		seen := map[string]bool{}
		for _, g := range spec.GridNames() {
			cfgs, err := spec.Expand(g, over)
			if err != nil {
				t.Fatalf("%s: grid %s: %v", spec.Name, g, err)
			}
			for _, c := range cfgs {
				if key := c.String(); !seen[key] {
					seen[key] = true
					points = append(points, c)
				}
			}
		}
		if len(points) == 0 {
			points = []learn.Values{cfg}
		}
		sub := Subject{
			Name: name,
			New:  func(seed int64) (learn.Trainer, error) { return spec.New(cfg, seed) },
			Group: func(seed int64) ([]learn.Trainer, error) {
				out := make([]learn.Trainer, len(points))
				for i, c := range points {
					tr, err := spec.New(c, seed)
					if err != nil {
						return nil, fmt.Errorf("grid point %s: %v", c, err)
					}
					out[i] = tr
				}
				return out, nil
			},
		}
		t.Run(name, func(t *testing.T) { Run(t, sub) })
	}
	t.Run(spec.Name+"/declared-bounds", func(t *testing.T) {
		for _, err := range CheckDeclaredBounds(spec) {
			t.Error(err)
		}
	})
}

// CheckDeclaredBounds checks that the learner itself enforces every bound
// its spec declares: a value just outside a declared Min or Max, handed to
// the spec's constructor without the harness's string check (as a library
// caller's Config would reach New), is refused. A learner whose Validate
// reads its declaration (learn.CheckBounds) passes; one that forgot a
// bound, or wrote another, does not.
func CheckDeclaredBounds(spec *learn.Spec) []error {
	var errs []error
	for _, p := range spec.Params {
		if p.Kind != learn.Int && p.Kind != learn.Float {
			continue
		}
		var outside []float64
		if p.HasMin {
			outside = append(outside, p.Min-1)
		}
		if p.HasMax {
			outside = append(outside, p.Max+1)
		}
		for _, v := range outside {
			cfg := spec.Defaults()
			cfg[p.Name] = strconv.FormatFloat(v, 'f', -1, 64)
			err := safely(func() error { _, err := spec.New(cfg, 1); return err })
			switch {
			case err == nil:
				errs = append(errs, fmt.Errorf("%s: %s=%s is outside the declared bounds, but the learner accepted it", spec.Name, p.Name, cfg[p.Name]))
			case strings.HasPrefix(err.Error(), "panic"):
				errs = append(errs, fmt.Errorf("%s: %s=%s: %v", spec.Name, p.Name, cfg[p.Name], err))
			}
		}
	}
	return errs
}
