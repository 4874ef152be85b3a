package runner

import (
	"context"
	"fmt"
	"time"

	"github.com/fgrtbench/fgrtbench/bench/methods"
	"github.com/fgrtbench/fgrtbench/bench/protocol"
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
	// artifacts asks run for each unit's predictions and models.
	artifacts bool
}

// cancellable is a trainer whose work can outlast an interrupted run unless
// it is tied to the run's context (the external kind runs a process).
type cancellable interface {
	WithContext(context.Context) learn.Trainer
}

// newTrainer builds the trainer of a configuration, tied to the run's
// context when it can be.
func (e *executor) newTrainer(m resolvedMethod, cfg methods.Config, seed int64) (learn.Trainer, error) {
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
func (e *executor) trainer(plan *protocol.Plan, m resolvedMethod, cfg methods.Config, seed int64) (learn.Trainer, error) {
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

func evaluate(t learn.Trainer, s learn.Schema, xtr [][]float64, ytr []int, xte [][]float64, yte []int) (outcome, error) {
	t0 := time.Now()
	model, err := t.Fit(xtr, ytr, s)
	fit := time.Since(t0).Seconds()
	if err != nil {
		return outcome{}, err
	}
	return score(model, fit, s, xte, yte)
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
	o := outcome{cx: model.Complexity(), fitS: fit, predS: predS, model: model, pred: pred}
	for i, y := range yte {
		if pred[i] == y {
			o.correct++
		}
	}
	o.acc = float64(o.correct) / float64(len(yte))
	o.balAcc = learn.BalancedAccuracy(yte, pred, len(s.Classes))
	return o, nil
}

// run evaluates one unit and returns its rows, and its artifacts when the
// executor keeps them (one prediction set and model per row).
func (e *executor) run(u Unit, plan *protocol.Plan, m resolvedMethod, nFolds int) ([]results.Record, *unitArtifacts, error) {
	fi := u.Repeat*nFolds + u.Fold
	if fi >= len(plan.Folds) {
		return nil, nil, fmt.Errorf("%s: plan has %d folds, unit wants %d", u.Key, len(plan.Folds), fi)
	}
	f := plan.Folds[fi]
	var arts *unitArtifacts
	if e.artifacts {
		arts = &unitArtifacts{}
	}
	seed := learnerSeed(u)
	sel := m.selectionFor(plan)
	row := func(ci int, o outcome, selected bool) results.Record {
		return results.Record{
			Protocol: u.Protocol, Dataset: u.Dataset, Method: u.Label,
			Config: m.Method.Canonical(m.Configs[ci]), ConfigIndex: ci, Selected: selected, Selection: sel,
			Repeat: u.Repeat, Fold: u.Fold, Seed: u.Seed,
			NTrain: len(f.XTrain), NTest: len(f.XTest), Correct: o.correct,
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
		o, err := evaluate(t, plan.Schema, f.XTrain, f.YTrain, f.XTest, f.YTest)
		if err != nil {
			return nil, nil, fmt.Errorf("%s %s: %w", u.Key, m.Configs[ci], err)
		}
		if err := arts.add(u.Key, ci, plan.Schema, f, o); err != nil {
			return nil, nil, err
		}
		return []results.Record{row(ci, o, true)}, arts, nil
	}
	out := make([]results.Record, 0, len(m.Configs))
	best, bestAcc := -1, -1.0
	for ci, cfg := range m.Configs {
		t, err := e.trainer(plan, m, cfg, seed)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", u.Key, err)
		}
		o, err := evaluate(t, plan.Schema, f.XTrain, f.YTrain, f.XTest, f.YTest)
		if err != nil {
			return nil, nil, fmt.Errorf("%s %s: %w", u.Key, cfg, err)
		}
		if err := arts.add(u.Key, ci, plan.Schema, f, o); err != nil {
			return nil, nil, err
		}
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
func (e *executor) innerSelect(plan *protocol.Plan, f protocol.Fold, m resolvedMethod, seed int64) (int, error) {
	k := plan.InnerK
	type split struct {
		xtr, xte [][]float64
		ytr, yte []int
	}
	splits := make([]split, k)
	for j := 0; j < k; j++ {
		var tr, te []int
		for i, g := range f.InnerFold {
			if g == j {
				te = append(te, i)
			} else {
				tr = append(tr, i)
			}
		}
		s := split{}
		if f.Rescale != nil {
			s.xtr, s.xte = f.Rescale(tr, te)
		} else {
			for _, i := range tr {
				s.xtr = append(s.xtr, f.XTrain[i])
			}
			for _, i := range te {
				s.xte = append(s.xte, f.XTrain[i])
			}
		}
		for _, i := range tr {
			s.ytr = append(s.ytr, f.YTrain[i])
		}
		for _, i := range te {
			s.yte = append(s.yte, f.YTrain[i])
		}
		splits[j] = s
	}
	// Split by split, so that configurations share preparations on each
	// inner training set; every sum still adds the folds in order.
	sums := make([]float64, len(m.Configs))
	for j, s := range splits {
		if len(s.yte) == 0 || len(s.ytr) == 0 {
			continue
		}
		prep := foldPreparations{X: s.xtr, y: s.ytr, s: plan.Schema}
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
		models, err := fitAll(ts, m.Configs, s.xtr, s.ytr, plan.Schema)
		if err != nil {
			return 0, fmt.Errorf("inner fold %d: %w", j, err)
		}
		for ci, model := range models {
			o, err := score(model, 0, plan.Schema, s.xte, s.yte)
			if err != nil {
				return 0, fmt.Errorf("inner fold %d, %s: %w", j, m.Configs[ci], err)
			}
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
