package fgrt

import "github.com/fgrtbench/fgrtbench/internal/par"

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
func (g *grower) spread(n int, body func(i int)) { spreadOn(g.threads, g.n, n, body) }

// spreadOn is spread for a fit on rows training rows under the budget b.
func spreadOn(b *par.Budget, rows, n int, body func(i int)) {
	if b == nil || rows < parallelRows {
		for i := 0; i < n; i++ {
			body(i)
		}
		return
	}
	b.For(n, body)
}

// productChunk is the number of rows of one loop index of childStrengths:
// a multiple of the 32 rows of a word of packed codes, where the encoded
// store knows the rank of the first fractional value (rankCodes).
const productChunk = 1 << 14

// childStrengths writes the firing strengths pm of a node times candidate
// k's memberships into m (not pm), as split does: serially for small data,
// else chunk by chunk on the budget's free threads, each chunk decoding
// its own rows of an encoded candidate. Every value is the product of the
// same two numbers, so the bits do not depend on the chunks.
func (g *grower) childStrengths(m, pm []float64, k int) {
	if g.threads == nil || g.n < parallelRows {
		mu := g.muOf(k)
		for i := range m {
			m[i] = pm[i] * mu[i]
		}
		return
	}
	c := &g.mu.cands[k]
	g.threads.For((g.n+productChunk-1)/productChunk, func(chunk int) {
		lo := chunk * productChunk
		hi := min(lo+productChunk, g.n)
		mu := c.dense
		if mu == nil {
			decode(m[lo:hi], c.codes, lo, c.frac[c.rank[lo/codeWordRows]:])
			mu = m
		}
		for i := lo; i < hi; i++ {
			m[i] = pm[i] * mu[i]
		}
	})
}
