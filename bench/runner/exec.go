package runner

import (
	"context"
	"fmt"
	"time"

	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/internal/par"
	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/results"
	"github.com/fgrtbench/fgrtbench/results/artifacts"
)

// outcome is the evaluation of one configuration on one fold.
type outcome struct {
	correct     int
	acc, balAcc float64
	cx          learn.Complexity
	fitS, predS float64
	// model and pred are kept for the unit's artifacts.
	model learn.Model
	pred  []int
}

type executor struct {
	// cache shares learn.Preparer results between the folds of a plan:
	// the paper protocol fits partitions (and FGRT*'s optimisation) once
	// per dataset and configuration, as the authors' code does.
	cache memo[learn.Trainer]
	// ctx is the run's context, handed to cancellable trainers.
	ctx context.Context
	// stages receives the time spent preparing, fitting and predicting.
	stages *Stages
	// artifacts, when not nil, asks run for each unit's predictions and
	// models, encoded under this predictions header.
	artifacts []string
	// budget is the run's CPU budget: every trainer gets it (learn.
	// WithThreads), and inner cross-validation spreads its fits over it.
	// It changes no result. Nil runs everything serially.
	budget *par.Budget
	// folds shares a fold's scaled rows between the units on it (foldcache.go).
	folds foldCache
}

// matrices builds a fold's training rows, and returns a function that
// builds its test rows on first use (protocol.Fold.LazyMatrices), both
// timed as the prepare stage. The rows are fresh memory, not a worker's
// scratch: once the fit has read them (CART converts them to its own
// columns, FGRT to its memberships) nothing else holds them, and the
// collector frees them while the fit runs on.
func (e *executor) matrices(f *protocol.Fold) (xtr [][]float64, xte func() [][]float64) {
	defer e.stages.since(StagePrepare, time.Now())
	xtr, test := f.LazyMatrices(nil)
	return xtr, e.timedRows(test)
}

// timedRows times test, a protocol's deferred test rows, as the prepare
// stage.
func (e *executor) timedRows(test func() [][]float64) func() [][]float64 {
	return func() [][]float64 {
		defer e.stages.since(StagePrepare, time.Now())
		return test()
	}
}

// timed records an evaluation's fit and predict seconds in the stages.
func (e *executor) timed(o outcome) {
	e.stages.add(StageFit, time.Duration(o.fitS*float64(time.Second)))
	e.stages.add(StagePredict, time.Duration(o.predS*float64(time.Second)))
}

// cancellable is a trainer whose work can outlast an interrupted run unless
// it is tied to the run's context (the external kind runs a process).
type cancellable interface {
	WithContext(context.Context) learn.Trainer
}

// newTrainer builds the trainer of a configuration, tied to the run's
// context when it can be, and holding the run's budget for the loops of
// its fits.
func (e *executor) newTrainer(m study.ResolvedMethod, cfg learn.Values, seed int64) (learn.Trainer, error) {
	t, err := m.Method.New(cfg, seed)
	if err != nil {
		return nil, err
	}
	if c, ok := t.(cancellable); ok && e.ctx != nil {
		t = c.WithContext(e.ctx)
	}
	return learn.WithThreads(t, e.budget), nil
}

// trainer builds the trainer of a configuration for a unit, prepared on the
// plan's preparation rows when the protocol asks for it.
func (e *executor) trainer(plan *protocol.Plan, m study.ResolvedMethod, cfg learn.Values, seed int64) (learn.Trainer, error) {
	t, err := e.newTrainer(m, cfg, seed)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", m.Label, cfg, err)
	}
	p, ok := t.(learn.Preparer)
	if !ok || plan.PrepareX == nil {
		return t, nil
	}
	key := preparationKey(fmt.Sprintf("%s|%s|%s", plan.Protocol, plan.Dataset, m.Method.Name), t, cfg)
	if m.Method.Stochastic {
		key += fmt.Sprintf("|%d", seed)
	}
	prepared, err := e.cache.get(key, func() (learn.Trainer, error) {
		pt, err := p.Prepare(plan.PrepareX, plan.PrepareY, plan.Schema)
		if err != nil {
			return nil, fmt.Errorf("%s %s: preparing on all rows: %w", m.Label, cfg, err)
		}
		return pt, nil
	})
	if err != nil {
		return nil, err
	}
	return withPreparation(t, prepared)
}

// evaluate fits t and scores it on the test rows, which xte builds after
// the fit (the fit's working memory is free by then).
func evaluate(t learn.Trainer, s learn.Schema, xtr [][]float64, ytr []int, xte func() [][]float64, yte []int) (outcome, error) {
	t0 := time.Now()
	model, err := t.Fit(xtr, ytr, s)
	fit := time.Since(t0).Seconds()
	if err != nil {
		return outcome{}, err
	}
	return score(model, fit, s, xte(), yte)
}

// score predicts the test rows with a fitted model (fit seconds given).
func score(model learn.Model, fit float64, s learn.Schema, xte [][]float64, yte []int) (outcome, error) {
	t1 := time.Now()
	pred, ownFit, err := learn.PredictChecked(model, xte, len(s.Classes))
	predS := time.Since(t1).Seconds()
	if err != nil {
		return outcome{}, err
	}
	if ownFit >= 0 { // a method that fits at prediction time (external) times itself
		fit, predS = ownFit, max(0, predS-ownFit)
	}
	return scored(model, fit, predS, pred, s, yte), nil
}

// scored is the outcome of a model's checked predictions pred of the test
// rows.
func scored(model learn.Model, fit, predS float64, pred []int, s learn.Schema, yte []int) outcome {
	o := outcome{cx: model.Complexity(), fitS: fit, predS: predS, model: model, pred: pred}
	for i, y := range yte {
		if pred[i] == y {
			o.correct++
		}
	}
	o.acc = float64(o.correct) / float64(len(yte))
	o.balAcc = learn.BalancedAccuracy(yte, pred, len(s.Classes))
	return o
}

// run evaluates one unit and returns its rows, and its artifacts when the
// executor keeps them (one prediction set and model per row). A worker
// holds at most one fold's scaled rows at a time, whatever the number of
// units: each split's training rows are built for its fits and dropped,
// its test rows after the fits (matrices).
func (e *executor) run(u study.Unit, plan *protocol.Plan, m study.ResolvedMethod, nFolds int) ([]results.Record, *unitArtifacts, error) {
	fi := foldIndex(u, nFolds)
	if fi >= len(plan.Folds) {
		return nil, nil, fmt.Errorf("%s: plan has %d folds, unit wants %d", u.Key, len(plan.Folds), fi)
	}
	plan = plan.ForFold(fi) // the fold's schema when its codes are its own
	uf := unitFold{u: u, plan: plan, fi: fi, f: plan.Folds[fi], m: m, sel: m.SelectionFor(plan), seed: study.LearnerSeed(u)}
	var arts *unitArtifacts
	if e.artifacts != nil {
		arts = &unitArtifacts{enc: artifacts.NewUnitEncoder(e.artifacts)}
	}
	var out []results.Record
	var err error
	if uf.sel == protocol.SelectInnerCV {
		out, err = e.runSelected(uf, arts)
	} else {
		out, err = e.runEach(uf, arts)
	}
	if err != nil {
		return nil, nil, err
	}
	return out, arts, nil
}

// unitFold is a unit with its fold, method, selection and learner seed.
type unitFold struct {
	u    study.Unit
	plan *protocol.Plan
	fi   int // the fold's index in plan.Folds
	f    protocol.Fold
	m    study.ResolvedMethod
	sel  string
	seed int64
}

// record is the results row of configuration ci's outcome o.
func (uf *unitFold) record(ci int, o outcome, selected bool) results.Record {
	u, f := uf.u, &uf.f
	return results.Record{
		Protocol: u.Protocol, Dataset: u.Dataset, Method: u.Label,
		Config: uf.m.Method.Canonical(uf.m.Configs[ci]), ConfigIndex: ci, Selected: selected, Selection: uf.sel,
		Repeat: u.Repeat, Fold: u.Fold, Seed: u.Seed,
		NTrain: f.NTrain(), NTest: f.NTest(), Correct: o.correct,
		Accuracy: o.acc, BalancedAccuracy: o.balAcc,
		Rules: o.cx.Rules, Antecedents: o.cx.Antecedents, RulebaseSize: o.cx.RulebaseSize(),
		Leaves: o.cx.Leaves, InternalNodes: o.cx.InternalNodes,
		FitSeconds: o.fitS, PredictSeconds: o.predS, Key: u.Key,
	}
}

// runSelected selects the unit's configuration by inner cross-validation,
// then fits and scores it alone: one row, selected.
func (e *executor) runSelected(uf unitFold, arts *unitArtifacts) ([]results.Record, error) {
	u, plan, f, m := uf.u, uf.plan, &uf.f, uf.m
	ci, err := e.innerSelect(plan, *f, m, uf.seed)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", u.Key, err)
	}
	t, err := e.newTrainer(m, m.Configs[ci], uf.seed)
	if err != nil {
		return nil, err
	}
	// The inner folds' rows are dead: the fold's rows take their memory.
	shared := e.sharedMatrices(plan, uf.fi)
	defer shared.dropTest()
	xtr, xte := shared.xtr, shared.xte
	shared.dropTrain() // the fit is their last reader here (handoff)
	o, err := evaluate(t, plan.Schema, xtr, f.YTrain, xte, f.YTest)
	e.timed(o)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", u.Key, m.Configs[ci], err)
	}
	if err := arts.add(u.Key, ci, plan.Schema, *f, xte(), o); err != nil {
		return nil, err
	}
	return []results.Record{uf.record(ci, o, true)}, nil
}

// runEach fits and scores every configuration of the unit, one after the
// other (their fit times are recorded, so they do not compete for
// threads), and marks the best on the test rows unless the selection is a
// sweep.
func (e *executor) runEach(uf unitFold, arts *unitArtifacts) ([]results.Record, error) {
	u, plan, f, m := uf.u, uf.plan, &uf.f, uf.m
	shared := e.sharedMatrices(plan, uf.fi)
	defer shared.dropTest()
	defer shared.dropTrain()
	xte := shared.xte
	rows := &handoff{rows: shared.xtr, last: shared.dropTrain}
	out := make([]results.Record, 0, len(m.Configs))
	best, bestAcc := -1, -1.0
	for ci, cfg := range m.Configs {
		t, err := e.trainer(plan, m, cfg, uf.seed)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", u.Key, err)
		}
		o, err := evaluate(t, plan.Schema, rows.take(ci == len(m.Configs)-1), f.YTrain, xte, f.YTest)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", u.Key, cfg, err)
		}
		if err := arts.add(u.Key, ci, plan.Schema, *f, xte(), o); err != nil {
			return nil, err
		}
		e.timed(o)
		// Strict '>' keeps the first configuration in list order on ties,
		// as the authors' selection loop does.
		if o.acc > bestAcc {
			best, bestAcc = ci, o.acc
		}
		out = append(out, uf.record(ci, o, false))
	}
	if uf.sel != protocol.SelectSweep {
		out[best].Selected = true
	}
	return out, nil
}

func pickRows(X [][]float64, idx []int) [][]float64 {
	out := make([][]float64, len(idx))
	for i, r := range idx {
		out[i] = X[r]
	}
	return out
}

func pickLabels(y []int, idx []int) []int {
	out := make([]int, len(idx))
	for i, r := range idx {
		out[i] = y[r]
	}
	return out
}

// handoff holds a fold's rows for the fits of a loop and gives them away
// to the last one, so that nothing but that fit refers to them: they can
// then be freed as soon as it has read them (matrices). A local variable
// set to nil before the last call did not do it: the compiled loop kept
// the slice reachable from its frame, so a CART unit on 10^6 rows held its
// 147 MB of scaled rows through its whole fit (TestFitOwnsItsRows).
type handoff struct {
	rows [][]float64
	last func() // called on the last take: the unit's hold on shared rows ends (foldCache)
}

// take returns the rows, keeping them unless last.
func (h *handoff) take(last bool) [][]float64 {
	x := h.rows
	if last {
		h.rows = nil
		if h.last != nil {
			h.last()
		}
	}
	return x
}
