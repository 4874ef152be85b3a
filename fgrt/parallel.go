package fgrt

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
