package runner

import (
	"context"
	"fmt"
	"time"

	"github.com/fgrtbench/fgrtbench/bench/methods"
	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/results"
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
// context when it can be.
func (e *executor) newTrainer(m study.ResolvedMethod, cfg methods.Config, seed int64) (learn.Trainer, error) {
	t, err := m.Method.New(cfg, seed)
	if err != nil {
		return nil, err
	}
	if c, ok := t.(cancellable); ok && e.ctx != nil {
		t = c.WithContext(e.ctx)
	}
	return t, nil
}

// trainer builds the trainer of a configuration for a unit, prepared on the
// plan's preparation rows when the protocol asks for it.
func (e *executor) trainer(plan *protocol.Plan, m study.ResolvedMethod, cfg methods.Config, seed int64) (learn.Trainer, error) {
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
	fi := u.Repeat*nFolds + u.Fold
	if fi >= len(plan.Folds) {
		return nil, nil, fmt.Errorf("%s: plan has %d folds, unit wants %d", u.Key, len(plan.Folds), fi)
	}
	f := plan.Folds[fi]
	var arts *unitArtifacts
	if e.artifacts != nil {
		arts = &unitArtifacts{enc: results.NewUnitEncoder(e.artifacts)}
	}
	seed := study.LearnerSeed(u)
	sel := m.SelectionFor(plan)
	row := func(ci int, o outcome, selected bool) results.Record {
		return results.Record{
			Protocol: u.Protocol, Dataset: u.Dataset, Method: u.Label,
			Config: m.Method.Canonical(m.Configs[ci]), ConfigIndex: ci, Selected: selected, Selection: sel,
			Repeat: u.Repeat, Fold: u.Fold, Seed: u.Seed,
			NTrain: f.NTrain(), NTest: f.NTest(), Correct: o.correct,
			Accuracy: o.acc, BalancedAccuracy: o.balAcc,
			Rules: o.cx.Rules, Antecedents: o.cx.Antecedents, RulebaseSize: o.cx.RulebaseSize(),
			Leaves: o.cx.Leaves, InternalNodes: o.cx.InternalNodes,
			FitSeconds: o.fitS, PredictSeconds: o.predS, Key: u.Key,
		}
	}
	if sel == protocol.SelectInnerCV {
		ci, err := e.innerSelect(plan, f, m, seed)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", u.Key, err)
		}
		t, err := e.newTrainer(m, m.Configs[ci], seed)
		if err != nil {
			return nil, nil, err
		}
		// The inner folds' rows are dead: the fold's rows take their memory.
		shared := e.sharedMatrices(plan, fi)
		defer shared.dropTest()
		xtr, xte := shared.xtr, shared.xte
		shared.dropTrain() // the fit is their last reader here (handoff)
		o, err := evaluate(t, plan.Schema, xtr, f.YTrain, xte, f.YTest)
		e.timed(o)
		if err != nil {
			return nil, nil, fmt.Errorf("%s %s: %w", u.Key, m.Configs[ci], err)
		}
		if err := arts.add(u.Key, ci, plan.Schema, f, xte(), o); err != nil {
			return nil, nil, err
		}
		return []results.Record{row(ci, o, true)}, arts, nil
	}
	shared := e.sharedMatrices(plan, fi)
	defer shared.dropTest()
	defer shared.dropTrain()
	xte := shared.xte
	rows := &handoff{rows: shared.xtr, last: shared.dropTrain}
	out := make([]results.Record, 0, len(m.Configs))
	best, bestAcc := -1, -1.0
	for ci, cfg := range m.Configs {
		t, err := e.trainer(plan, m, cfg, seed)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", u.Key, err)
		}
		o, err := evaluate(t, plan.Schema, rows.take(ci == len(m.Configs)-1), f.YTrain, xte, f.YTest)
		if err != nil {
			return nil, nil, fmt.Errorf("%s %s: %w", u.Key, cfg, err)
		}
		if err := arts.add(u.Key, ci, plan.Schema, f, xte(), o); err != nil {
			return nil, nil, err
		}
		e.timed(o)
		// Strict '>' keeps the first configuration in list order on ties,
		// as the authors' selection loop does.
		if o.acc > bestAcc {
			best, bestAcc = ci, o.acc
		}
		out = append(out, row(ci, o, false))
	}
	if sel != protocol.SelectSweep {
		out[best].Selected = true
	}
	return out, arts, nil
}

// innerSelect returns the index of the configuration with the best mean
// accuracy over the inner folds of the training rows (first on ties).
// Inner folds are built one at a time, in fresh memory (a rescaling protocol's
// rows) or as views of the fold's rows, and dropped before the next one.
func (e *executor) innerSelect(plan *protocol.Plan, f protocol.Fold, m study.ResolvedMethod, seed int64) (int, error) {
	k := plan.InnerK
	var xfold [][]float64 // the fold's training rows, for a protocol without rescaling
	if f.Rescale == nil {
		xfold, _ = e.matrices(&f)
	}
	// Split by split, so that configurations share preparations on each
	// inner training set; every sum still adds the folds in order.
	sums := make([]float64, len(m.Configs))
	for j := 0; j < k; j++ {
		var tr, te []int
		for i, g := range f.InnerFold {
			if g == j {
				te = append(te, i)
			} else {
				tr = append(tr, i)
			}
		}
		if len(te) == 0 || len(tr) == 0 {
			continue
		}
		t0 := time.Now()
		var xtr [][]float64
		var xte func() [][]float64 // built after the fits, in the memory they freed
		if f.Rescale != nil {
			xtr, xte = f.Rescale(tr, te, nil)
			xte = e.timedRows(xte)
		} else {
			xtr = pickRows(xfold, tr)
			xte = func() [][]float64 { return pickRows(xfold, te) }
		}
		ytr, yte := pickLabels(f.YTrain, tr), pickLabels(f.YTrain, te)
		e.stages.since(StagePrepare, t0)
		prep := foldPreparations{X: xtr, y: ytr, s: plan.Schema}
		ts := make([]learn.Trainer, len(m.Configs))
		for ci, cfg := range m.Configs {
			t, err := e.newTrainer(m, cfg, seed+int64(j)+1)
			if err != nil {
				return 0, err
			}
			if ts[ci], err = prep.trainer(t); err != nil {
				return 0, fmt.Errorf("inner fold %d, %s: %w", j, cfg, err)
			}
		}
		t0 = time.Now()
		models, err := fitAll(ts, m.Configs, xtr, ytr, plan.Schema)
		e.stages.since(StageFit, t0)
		if err != nil {
			return 0, fmt.Errorf("inner fold %d: %w", j, err)
		}
		rows := xte()
		// The configurations' models predict the rows at once where their
		// method shares the work (learn.GroupPredictor), else one by one;
		// the shared time is split evenly among them.
		t1 := time.Now()
		preds, err := learn.PredictGroup(models, rows)
		if err != nil {
			return 0, fmt.Errorf("inner fold %d: %w", j, err)
		}
		groupS := time.Since(t1).Seconds() / float64(len(models))
		for ci, model := range models {
			var o outcome
			if preds != nil {
				err = learn.CheckPredictions(preds[ci], len(rows), len(plan.Schema.Classes))
				o = scored(model, 0, groupS, preds[ci], plan.Schema, yte)
			} else {
				o, err = score(model, 0, plan.Schema, rows, yte)
			}
			if err != nil {
				return 0, fmt.Errorf("inner fold %d, %s: %w", j, m.Configs[ci], err)
			}
			e.timed(o)
			sums[ci] += o.acc
		}
	}
	best, bestScore := 0, -1.0
	for ci, sum := range sums {
		if score := sum / float64(k); score > bestScore {
			best, bestScore = ci, score
		}
	}
	return best, nil
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
