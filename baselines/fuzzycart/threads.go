package fuzzycart

import (
	"github.com/fgrtbench/fgrtbench/internal/par"
	"github.com/fgrtbench/fgrtbench/learn"
)

var _ learn.Threaded = (*Trainer)(nil)

// WithThreads returns the trainer with the CPU budget b: a large fit
// computes its candidates' memberships, and a node's candidate children's
// statistics, on the threads of b that are free. The budget is not a
// setting: the model is the serial fit's for every budget.
func (t *Trainer) WithThreads(b *par.Budget) learn.Trainer {
	u := *t
	u.threads = b
	return &u
}

// parallelRows is the number of rows a split search sees from which the
// fit spreads its per-candidate loops over the budget's free threads: one
// candidate's statistics are about five passes over those rows (product,
// sums, class sums, signature), some ten microseconds on 2,000 rows, which
// is long next to handing an index to another thread (about a
// microsecond) but below 4,096 rows the gain stays within the noise of
// BenchmarkFitThreads while a worker's scratch is one more column per
// thread. It matches the other learners' order of magnitude.
const parallelRows = 4096

// spread calls body(w, i) for i in [0, n), with w a grower whose scratch
// belongs to the call: g itself serially (small views or no budget), else
// a copy with scratch of its own from g's pool, on the budget's free
// threads. body(w, i) writes only what belongs to index i.
func (g *grower) spread(rows, n int, body func(w *grower, i int)) {
	if g.threads == nil || rows < parallelRows {
		for i := 0; i < n; i++ {
			body(g, i)
		}
		return
	}
	g.makeWorkers()
	g.threads.For(n, func(i int) {
		w := g.workers.Get()
		defer g.workers.Put(w)
		body(w, i)
	})
}

// spreadRows calls body(i) for i in [0, n) on the budget's free threads
// when rows reach parallelRows, else serially; for loops that need no
// scratch.
func (g *grower) spreadRows(rows, n int, body func(i int)) {
	if g.threads == nil || rows < parallelRows {
		for i := 0; i < n; i++ {
			body(i)
		}
		return
	}
	g.threads.For(n, body)
}

// makeWorkers makes the pool of g's copies with scratch of their own.
func (g *grower) makeWorkers() {
	if g.workers == nil {
		g.workers = par.NewPool(func() *grower {
			w := *g
			w.workers = nil
			w.buf, w.prod = make([]float64, g.n), make([]float64, g.n)
			w.cs, w.sq = make([]float64, g.nClasses), make([]float64, g.nClasses)
			return &w
		})
	}
}
