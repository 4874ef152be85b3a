package runner

import (
	"fmt"
	"time"

	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/learn"
)

// innerSelect returns the index of the configuration with the best mean
// accuracy over the inner folds of the training rows (first on ties).
//
// The inner folds run in parallel on the free threads of the run's budget
// (par.Budget.For; serially while units hold every thread), and within a
// fold so do the configurations' fits (fitAll). Each fold writes only its
// own slot of accs; the sums are then added fold by fold in order, so the
// selected configuration is the serial one to the last bit. The fits of
// inner cross-validation are not timed, so nothing recorded depends on
// how many threads took part.
//
// No size threshold keeps small groups serial: what For spreads is a
// whole inner fold (a grid of fits; on a 150-row dataset an FGRT unit of
// 16 configurations and 5 inner folds takes about 100 ms,
// BenchmarkInnerCVSmallJ1), while For's cost is a goroutine (about a
// microsecond) and only on a thread that is idle: while units hold every
// thread it is one failed non-blocking receive per fold.
//
// Memory: each inner fold builds its own rows (fresh memory for a
// rescaling protocol, views of the fold's rows otherwise) and drops them
// when it ends, so at most one inner fold per thread taking part is live.
// For a small unit those threads are ones no other unit's worker holds,
// and so is the memory of the fold each would have held. A large unit
// (at least cellsPerThread training cells, demand.go) may hold threads in
// place of other units, and its copies are what the memory budget is
// about, so under a rescaling protocol its inner folds run one after the
// other, each rescaled copy dropped before the next is made, as its
// footprint (memory.go) counts them, and the threads go to the fits of
// each fold instead: its memory stays that of one unit whatever the
// threads. This holds for a method whose fits are serial too: its tail
// loses the spread inner folds, not its admitted memory.
func (e *executor) innerSelect(plan *protocol.Plan, f protocol.Fold, m study.ResolvedMethod, seed int64) (int, error) {
	k := plan.InnerK
	var xfold [][]float64 // the fold's training rows, for a protocol without rescaling
	if f.Rescale == nil {
		xfold, _ = e.matrices(&f)
	}
	accs := make([][]float64, k) // accs[j][ci]; nil for an empty inner fold
	errs := make([]error, k)
	fold := func(j int) { accs[j], errs[j] = e.innerFold(plan, &f, xfold, m, seed, j) }
	if f.Rescale != nil && int64(f.NTrain())*int64(len(plan.Schema.Features)) >= cellsPerThread {
		for j := range k { // a large unit: one rescaled copy at a time (see above)
			fold(j)
		}
	} else {
		e.budget.For(k, fold)
	}
	sums := make([]float64, len(m.Configs))
	for j := 0; j < k; j++ {
		if errs[j] != nil { // the first failing fold's error, as a serial loop would stop at
			return 0, errs[j]
		}
		for ci, acc := range accs[j] {
			sums[ci] += acc
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

// innerFold fits every configuration on inner fold j's training rows and
// returns each one's accuracy on its test rows (nil when the split leaves
// either side empty). Configurations share preparations on the inner
// training set (foldPreparations).
func (e *executor) innerFold(plan *protocol.Plan, f *protocol.Fold, xfold [][]float64, m study.ResolvedMethod, seed int64, j int) ([]float64, error) {
	var tr, te []int
	for i, g := range f.InnerFold {
		if g == j {
			te = append(te, i)
		} else {
			tr = append(tr, i)
		}
	}
	if len(te) == 0 || len(tr) == 0 {
		return nil, nil
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
			return nil, err
		}
		if ts[ci], err = prep.trainer(t); err != nil {
			return nil, fmt.Errorf("inner fold %d, %s: %w", j, cfg, err)
		}
	}
	t0 = time.Now()
	models, err := fitAll(e.budget, ts, m.Configs, xtr, ytr, plan.Schema)
	e.stages.since(StageFit, t0)
	if err != nil {
		return nil, fmt.Errorf("inner fold %d: %w", j, err)
	}
	return e.innerScores(plan, m, j, models, xte(), yte)
}

// innerScores predicts an inner fold's test rows with its configurations'
// models, at once where their method shares the work
// (learn.GroupPredictor), else one by one (the shared time is split evenly
// among them), and returns each one's accuracy.
func (e *executor) innerScores(plan *protocol.Plan, m study.ResolvedMethod, j int, models []learn.Model, rows [][]float64, yte []int) ([]float64, error) {
	t1 := time.Now()
	preds, err := learn.PredictGroup(models, rows)
	if err != nil {
		return nil, fmt.Errorf("inner fold %d: %w", j, err)
	}
	groupS := time.Since(t1).Seconds() / float64(len(models))
	accs := make([]float64, len(models))
	for ci, model := range models {
		var o outcome
		if preds != nil {
			if err = learn.CheckPredictions(preds[ci], len(rows), len(plan.Schema.Classes)); err == nil {
				o = scored(model, 0, groupS, preds[ci], plan.Schema, yte)
			}
		} else {
			o, err = score(model, 0, plan.Schema, rows, yte)
		}
		if err != nil {
			return nil, fmt.Errorf("inner fold %d, %s: %w", j, m.Configs[ci], err)
		}
		e.timed(o)
		accs[ci] = o.acc
	}
	return accs, nil
}
