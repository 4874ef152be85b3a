package runner

import (
	"fmt"

	"github.com/fgrtbench/fgrtbench/internal/par"
	"github.com/fgrtbench/fgrtbench/learn"
)

// Work shared between the configurations of one method fitted on the same
// rows. A learn.SharedPreparer's preparation (FGRT's partitions, FGRT*'s
// partition optimisation) depends only on some of its settings, so one
// preparation serves every configuration with the same PrepareKey: per
// dataset under the paper protocol, per inner training set during inner
// cross-validation. Results are those of separate fits (the interface's
// contract); only the repeated preparation goes. Inner cross-validation,
// whose fits are not timed, also lets a learn.GroupFitter fit the whole
// grid at once (FGRT shares memberships and growth between grid points).

// preparationKey extends a cache key by what a shared preparation depends
// on, or by the whole configuration for other trainers.
func preparationKey(base string, t learn.Trainer, cfg fmt.Stringer) string {
	if sp, ok := t.(learn.SharedPreparer); ok {
		return base + "|prepare:" + sp.PrepareKey()
	}
	return base + "|" + cfg.String()
}

// withPreparation hands t the cached preparation when it shares one.
func withPreparation(t, prepared learn.Trainer) (learn.Trainer, error) {
	if sp, ok := t.(learn.SharedPreparer); ok {
		return sp.WithPreparation(prepared)
	}
	return prepared, nil
}

// foldPreparations prepares shared preparers once per key on one training
// set (an inner fold's training rows) and leaves other trainers alone.
type foldPreparations struct {
	X        [][]float64
	y        []int
	s        learn.Schema
	prepared map[string]learn.Trainer
}

func (f *foldPreparations) trainer(t learn.Trainer) (learn.Trainer, error) {
	sp, ok := t.(learn.SharedPreparer)
	if !ok {
		return t, nil
	}
	key := sp.PrepareKey()
	p, ok := f.prepared[key]
	if !ok {
		var err error
		if p, err = sp.Prepare(f.X, f.y, f.s); err != nil {
			return nil, err
		}
		if f.prepared == nil {
			f.prepared = map[string]learn.Trainer{}
		}
		f.prepared[key] = p
	}
	return sp.WithPreparation(p)
}

// fitAll fits every trainer on the same rows, all at once when the first
// one is a learn.GroupFitter, else each on the free threads of the budget
// (serially with a nil one). An error names the failing configuration
// when the fits ran one by one: the first in list order, the one a serial
// loop stops at.
func fitAll(b *par.Budget, ts []learn.Trainer, cfgs []learn.Values, X [][]float64, y []int, s learn.Schema) ([]learn.Model, error) {
	if len(ts) > 1 {
		if gf, ok := ts[0].(learn.GroupFitter); ok {
			return gf.FitGroup(ts, X, y, s)
		}
	}
	models := make([]learn.Model, len(ts))
	errs := make([]error, len(ts))
	b.For(len(ts), func(i int) { models[i], errs[i] = ts[i].Fit(X, y, s) })
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("%s: %w", cfgs[i], err)
		}
	}
	return models, nil
}
