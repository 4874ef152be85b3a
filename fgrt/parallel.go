package fgrt

import "sync"

// parallelRows is the number of training rows from which a fit spreads
// its loops over the free threads of its budget: below it, the work of one
// loop index (a feature's column, a candidate's class sums: a few passes
// over the rows) is too short to pay for handing it to another thread.
// Measured with BenchmarkFitThreads and BenchmarkFit at 1 and 2 threads
// (see bench_test.go): TODO.
const parallelRows = 8192

// spread calls body(i) for i in [0, n): on the free threads of the fit's
// budget when the data is large enough, else serially in order. body(i)
// writes only what belongs to index i; callers combine in index order.
func (g *grower) spread(n int, body func(i int)) {
	if g.threads == nil || g.n < parallelRows {
		for i := 0; i < n; i++ {
			body(i)
		}
		return
	}
	g.threads.For(n, body)
}

// pool hands out working buffers, making one only when none is free, so a
// loop spread over threads makes as many as there are threads at work on
// it at once (one when serial), not one per index.
type pool[T any] struct {
	mu    sync.Mutex
	free  []T
	fresh func() T
}

func newPool[T any](fresh func() T) *pool[T] { return &pool[T]{fresh: fresh} }

func (p *pool[T]) get() T {
	p.mu.Lock()
	defer p.mu.Unlock()
	if k := len(p.free); k > 0 {
		v := p.free[k-1]
		p.free = p.free[:k-1]
		return v
	}
	return p.fresh()
}

func (p *pool[T]) put(v T) {
	p.mu.Lock()
	p.free = append(p.free, v)
	p.mu.Unlock()
}
