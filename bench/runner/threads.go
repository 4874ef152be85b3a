package runner

import (
	"context"
	"runtime"
	"sync"

	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/internal/par"
	"github.com/fgrtbench/fgrtbench/results"
)

// The run's one CPU budget (issue 33). -j is the number of busy threads,
// not of units: a run makes one par.Budget of -j threads, each unit worker
// holds one thread for the unit it runs, and the loops inside the fits (a
// group's inner cross-validation, a learner's split search) take the
// threads that are free at that moment. While units are many their workers
// hold every thread and the loops run serially; when they run out (the
// long tail of a study, one large dataset) the threads the idle workers
// gave back go to the loops of the units still running. Nothing waits for
// a thread but a worker about to start its next unit, so the number of
// busy threads never exceeds -j, and results do not depend on it
// (par.Budget.For reduces in index order).

// threads is the size of the run's budget: -j, or the number of CPUs when
// it is not set.
func (r *Runner) threads() int {
	if r.Jobs <= 0 {
		return runtime.NumCPU()
	}
	return r.Jobs
}

// unitResult is what a worker hands the writer for one unit.
type unitResult struct {
	u    study.Unit
	rows []results.Record
	arts *unitArtifacts
	err  error
}

// unitPool runs a run's units on workers that share one budget.
type unitPool struct {
	ctx    context.Context
	budget *par.Budget
	ex     *executor
	s      study.Study
	ms     []study.ResolvedMethod
	plans  *planCache
}

// start runs pending on one worker per thread of the budget, but never
// more workers than units: a worker more than the units pending would only
// wait, and each costs a goroutine and its buffers, so -j 200000 on three
// units must cost three. The returned channel carries one result per unit
// handed out and is closed once every worker has returned; cancelling the
// pool's context stops handing units out.
func (p *unitPool) start(pending []study.Unit) <-chan unitResult {
	work := make(chan study.Unit)
	out := make(chan unitResult)
	var wg sync.WaitGroup
	for w := 0; w < min(p.budget.Threads(), len(pending)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for u := range work {
				out <- p.unit(u)
			}
		}()
	}
	go func() {
		defer close(work)
		for _, u := range pending {
			select {
			case work <- u:
			case <-p.ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(out) }()
	return out
}

// unit runs one unit while holding a thread of the budget. The worker may
// wait for that thread (the loops of running units hold the free ones);
// it gives it back before the writer receives the result, so a worker
// blocked on the writer holds none.
func (p *unitPool) unit(u study.Unit) unitResult {
	res := unitResult{u: u}
	p.budget.Do(func() {
		if res.err = p.ctx.Err(); res.err != nil {
			return
		}
		plan, err := p.plans.get(p.ctx, u.Protocol, u.Dataset)
		if err == nil {
			res.rows, res.arts, err = p.ex.run(u, plan, p.ms[u.Method], p.s.Layout(u.Protocol).Folds)
		}
		res.err = err
	})
	return res
}
