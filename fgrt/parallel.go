package fgrt

import (
	"math"

	"github.com/fgrtbench/fgrtbench/internal/par"
)

// parallelRows is the number of training rows from which a fit spreads
// its loops over the free threads of its budget. Below it a fit takes a
// few milliseconds (10 features: about 1.3 ms of CPU at 1,024 rows, 10 ms
// at 8,192), its loop bodies (a feature's column, a candidate's class sums)
// tens of microseconds, and the spread path's CPU time, measured with a
// budget of 2 threads against the serial path (cpu-ns/op, the threshold
// at 0, n = 1,024 to 16,384 × 10, 40 fits each, twice), was up to a tenth
// above the serial one: little to win on a study of small folds, whose
// units keep every thread busy anyway. Wall times could not decide it: the
// 2-core machine ran at a load of 20 to 30. Re-measure on a quiet machine
// with BenchmarkFitThreads and BenchmarkFitThreadsSmall.
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

// encodeStrengths is encodeColumn(m): serially for small data, else chunk
// by chunk on the budget's free threads. A chunk's codes fill whole bytes
// (productChunk is a multiple of four), and its fractional values go to
// the place their count before the chunk gives, gathered in scratch of
// their own (gatherFrac writes one value past the chunk's); the column
// is encodeColumn's, byte for byte.
func (g *grower) encodeStrengths(m []float64) packedColumn {
	if g.threads == nil || g.n < parallelRows {
		return encodeColumn(m)
	}
	n := g.n
	chunks := (n + productChunk - 1) / productChunk
	c := packedColumn{codes: make([]uint8, (n+3)/4, codeBytes(n))}
	counts := make([]int, chunks+1)
	g.threads.For(chunks, func(chunk int) {
		lo := chunk * productChunk
		hi := min(lo+productChunk, n)
		counts[chunk+1] = encodeCodes(c.codes[lo/4:], m[lo:hi])
	})
	for i := 0; i < chunks; i++ {
		counts[i+1] += counts[i]
	}
	c.frac = make([]float64, counts[chunks]+1)
	scratch := par.NewPool(func() []float64 { return make([]float64, productChunk+1) })
	g.threads.For(chunks, func(chunk int) {
		lo := chunk * productChunk
		hi := min(lo+productChunk, n)
		buf := scratch.Get()
		defer scratch.Put(buf)
		var codeBuf [membershipBlock]uint8
		j := 0
		for b := lo; b < hi; b += membershipBlock {
			e := min(b+membershipBlock, hi)
			codes := codeBuf[:e-b]
			classify(codes, m[b:e])
			j += gatherFrac(buf[j:], codes, m[b:e])
		}
		copy(c.frac[counts[chunk]:], buf[:j])
	})
	return c
}

// encodeCodes writes the packed codes of v to dst (from its first byte)
// and returns the number of fractional values, as encodeColumn's first
// pass does.
func encodeCodes(dst []uint8, v []float64) int {
	var codeBuf [membershipBlock]uint8
	count := 0
	for lo := 0; lo < len(v); lo += membershipBlock {
		hi := min(lo+membershipBlock, len(v))
		codes := codeBuf[:hi-lo]
		classify(codes, v[lo:hi])
		pack(dst[lo/4:], codes)
		for _, code := range codes {
			count += int(code >> 1)
		}
	}
	return count
}

// childClassOf is childClass of the node's strengths and candidate k's
// memberships; for large data the class sums come from classDots.
func (g *grower) childClassOf(nd *node, k int) int {
	m := g.mOf(nd)
	if g.threads == nil || g.n < parallelRows {
		return g.childClass(m, g.muOf(k))
	}
	best, bestW := 0, math.Inf(-1)
	for cls, s := range g.classDots(m, k) {
		if s > bestW {
			best, bestW = cls, s
		}
	}
	return best
}

// classDots returns childClass's per-class sums of m times candidate k's
// memberships, each sequential over its class's rows, with each class on
// a thread of its own and an encoded candidate decoded class by class
// into the store's buffer (which then holds k, as after muOf).
func (g *grower) classDots(m []float64, k int) []float64 {
	c := &g.mu.cands[k]
	sums := make([]float64, g.nClasses)
	g.mu.bufK = -1 // rewritten below
	g.threads.For(g.nClasses, func(cls int) {
		lo, hi := g.start[cls], g.start[cls+1]
		mu := c.dense
		if mu == nil {
			mu = g.mu.buf
			decode(mu[lo:hi], c.codes, lo, c.frac[c.fracAt[cls]:])
		}
		s := 0.0
		for i := lo; i < hi; i++ {
			s += float64(m[i] * mu[i])
		}
		sums[cls] = s
	})
	if c.dense == nil {
		g.mu.bufK = k
	}
	return sums
}
