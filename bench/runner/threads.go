package runner

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/internal/par"
	"github.com/fgrtbench/fgrtbench/learn"
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
	// time is its place in the schedule; its cells are set whether or not
	// it ran, its start and wall time once ran says it started (it was
	// admitted and ran, whether or not it failed).
	time UnitTime
	ran  bool
}

// UnitTime is one unit's place in a run's schedule (Runner.UnitTimes).
type UnitTime struct {
	Unit study.Unit
	// Canonical is the unit's position among the run's pending units in
	// canonical order, Started its position in the order units started
	// (order.go); both count from 0.
	Canonical, Started int
	// Cells is its training cells, what the start order ranks it by.
	Cells int64
	// Start is when it started, after the run's units began to start;
	// Wall how long it ran: its fold's rows, fits, predictions and
	// artifacts, not its plan (made before any unit) nor the wait for a
	// thread or for memory.
	Start, Wall time.Duration
	Failed      bool
}

// unitPool runs a run's units on workers that share one budget.
type unitPool struct {
	ctx    context.Context
	budget *par.Budget
	admit  *admission // nil: no memory budget
	ex     *executor
	s      study.Study
	ms     []study.ResolvedMethod
	plans  *planCache
	// t0 is when the units began to start: UnitTime.Start counts from it;
	// started counts the units that started.
	t0      time.Time
	started atomic.Int64
	// threaded[m] says whether method m's trainers spread their fits
	// (threadedMethods).
	threaded []bool
}

// start runs pending on one worker per thread of the budget, but never
// more workers than units: a worker more than the units pending would only
// wait, and each costs a goroutine and its buffers, so -j 200000 on three
// units must cost three. The returned channel carries one result per unit
// handed out and is closed once every worker has returned; cancelling the
// pool's context stops handing units out.
func (p *unitPool) start(pending []ordered) <-chan unitResult {
	work := make(chan ordered)
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

// unit runs one unit while holding a thread of the budget, once the
// memory budget admits it (memory.go). The worker may wait for that thread
// (the loops of running units hold the free ones); it waits for admission
// holding none, so that a unit waiting for memory leaves its thread to the
// loops of the units running, and it gives its thread back before the
// writer receives the result, so a worker blocked on the writer holds
// none.
func (p *unitPool) unit(o ordered) unitResult {
	u := o.Unit
	res := unitResult{u: u, time: UnitTime{Unit: u, Canonical: o.canonical, Cells: o.cells}}
	if res.err = p.ctx.Err(); res.err != nil {
		return res
	}
	var plan *protocol.Plan
	p.budget.Do(func() { plan, res.err = p.plans.get(p.ctx, u.Protocol, u.Dataset) })
	if res.err != nil {
		return res
	}
	folds := p.s.Layout(u.Protocol).Folds
	done, err := p.admit.admitUnit(p.ctx, u, plan, p.ms[u.Method], folds, p.threaded[u.Method])
	if err != nil {
		res.err = err
		return res
	}
	defer done()
	p.budget.Do(func() {
		t := time.Now()
		res.time.Started, res.time.Start = int(p.started.Add(1)-1), t.Sub(p.t0)
		res.rows, res.arts, res.err = p.ex.run(u, plan, p.ms[u.Method], folds)
		res.ran, res.time.Wall, res.time.Failed = true, time.Since(t), res.err != nil
	})
	return res
}

// trainingCells is unit u's training cells (order.go); 0 when its plan
// cannot be made, an error the unit reports itself when it runs (describe
// made every plan before any unit, so none is expected).
func (p *unitPool) trainingCells(u study.Unit) int64 {
	plan, err := p.plans.get(p.ctx, u.Protocol, u.Dataset)
	if err != nil {
		return 0
	}
	return trainingCells(plan, foldIndex(u, p.s.Layout(u.Protocol).Folds))
}

// threadedMethods says, for each method, whether its trainers spread a fit
// over free threads (learn.Threaded), judged on a trainer of its first
// configuration; a method whose trainer cannot be built here is taken as
// serial (its units then fail on their own, with their own error).
func threadedMethods(ms []study.ResolvedMethod) []bool {
	threaded := make([]bool, len(ms))
	for i, m := range ms {
		if len(m.Configs) == 0 {
			continue
		}
		if t, err := m.Method.New(m.Configs[0], 0); err == nil {
			_, threaded[i] = t.(learn.Threaded)
		}
	}
	return threaded
}
