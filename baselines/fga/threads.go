package fga

import (
	"sync/atomic"

	"github.com/fgrtbench/fgrtbench/internal/par"
	"github.com/fgrtbench/fgrtbench/learn"
)

var _ learn.Threaded = (*Trainer)(nil)

// WithThreads returns the trainer with the CPU budget b: its fits evaluate
// the population (and prepare the columns) on the threads of b that are
// free, instead of on Workers goroutines of their own, so that a study's
// FGA units stay within the study's threads. Like Workers, the budget
// never changes a result: every loop writes only its index's slots and
// the random draws are made serially, before the loops.
func (t *Trainer) WithThreads(b *par.Budget) learn.Trainer {
	u := *t
	u.threads = b
	return &u
}

// spreader runs a fit's parallel loops: on the free threads of the
// trainer's budget when it has one, else on Workers goroutines. Each body
// gets a worker slot, held by one body at a time, for its scratch.
type spreader struct {
	workers int
	budget  *par.Budget
	slotIDs *par.Pool[int]
}

func newSpreader(workers int, b *par.Budget) *spreader {
	var made atomic.Int64
	return &spreader{workers: workers, budget: b,
		slotIDs: par.NewPool(func() int { return int(made.Add(1) - 1) })}
}

// slots is the number of worker slots a loop may use: the budget's threads
// (a loop never runs on more), or Workers.
func (s *spreader) slots() int {
	if s.budget != nil {
		return s.budget.Threads()
	}
	return max(s.workers, 1)
}

// run calls fn(slot, i) for every i in [0, n).
func (s *spreader) run(n int, fn func(slot, i int)) {
	if s.budget == nil {
		parallelFor(n, s.workers, fn)
		return
	}
	s.budget.For(n, func(i int) {
		slot := s.slotIDs.Get()
		defer s.slotIDs.Put(slot)
		fn(slot, i)
	})
}
