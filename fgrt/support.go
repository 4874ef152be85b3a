package fgrt

import (
	"encoding/binary"
	"math"
	"math/bits"
	"sort"

	"github.com/fgrtbench/fgrtbench/internal/npsum"
)

// Below the root a node's firing strengths are mostly 0 (on the large-data
// study three quarters of the rows of an average candidate dot are), and a
// dot product of numpy's pairwise summation need not visit them. A zero
// strength times a finite membership is a zero, and adding a zero to a
// nonzero sum leaves it exactly as it is, so every accumulator, block and
// chunk of the reduction that is not zero has the value it has when the
// zero strengths are left out; one that is zero is zero either way (its
// sign may differ), and the reduction's +0 start turns a zero total into
// +0 in both. The one requirement is finite memberships: 0 times NaN or
// an infinity is NaN, which the sum must keep. A store holding one (no
// partition of ex-fuzzy's or the paper's produces one) keeps the dense dot;
// fuzzy.Term.MembershipInto reports one as the store is built.

// sparseShare is the share of nonzero strengths up to which a node's class
// sums are taken over its support (a variable so that tests can force
// either path): above it, the dense dot's sequential reading wins.
var sparseShare = 0.35

// support is a node's firing strengths where they are not zero: the rows
// (class-grouped order, ascending) and their values, with classAt[c] the
// first entry of class c's rows; mu is scratch for one encoded
// candidate's memberships at those rows (a dense one is read in place).
type support struct {
	nd      *node
	ok      bool // false: too dense, use the dense dot
	rows    []int32
	vals    []float64
	classAt []int
	mu      []float64
	// The leaf blocks of numpy's reduction of each class's rows (see
	// plan), in order, class c's from classLeaf[c]: where a block's
	// entries are depends on the node alone, so it is found once per node,
	// not once per candidate.
	leaves    []supportLeaf
	classLeaf []int
}

// supportLeaf is one leaf block of the pairwise reduction, rows [base,
// base+n) with n <= 128: its entries are those before end (from the
// previous leaf's end, or the class's first entry); those before full
// (its rows below base + n - n%8) go to its eight accumulators, by row
// modulo 8 from base, and the rest are added in order. A block of fewer
// than 8 rows has no entry before full: its eight +0 accumulators add up
// to numpy's +0 start.
type supportLeaf struct {
	base, full, end int32
}

// build collects the nonzero values of m, unless they are more than
// sparseShare of its rows, and reports whether it did.
func (sp *support) build(m []float64, starts []int) bool {
	limit := int(sparseShare * float64(len(m)))
	if cap(sp.rows) < limit {
		// At their largest from the start: grown by appends, the buffers
		// left their smaller copies behind as garbage at every node.
		sp.rows, sp.vals = make([]int32, 0, limit), make([]float64, 0, limit)
		sp.mu = make([]float64, 0, limit)
	}
	sp.rows, sp.vals = sp.rows[:0], sp.vals[:0]
	for i, v := range m {
		if v != 0 {
			if len(sp.rows) == limit {
				return false
			}
			sp.rows = append(sp.rows, int32(i))
			sp.vals = append(sp.vals, v)
		}
	}
	sp.classAt = sp.classAt[:0]
	for _, s := range starts {
		sp.classAt = append(sp.classAt, sort.Search(len(sp.rows), func(t int) bool { return int(sp.rows[t]) >= s }))
	}
	sp.mu = sp.mu[:len(sp.rows)]
	sp.leaves, sp.classLeaf = sp.leaves[:0], sp.classLeaf[:0]
	for c := 0; c+1 < len(starts); c++ {
		sp.classLeaf = append(sp.classLeaf, len(sp.leaves))
		t := sp.classAt[c]
		for base := starts[c]; base < starts[c+1]; base += npsum.Chunk {
			t = sp.plan(base, min(npsum.Chunk, starts[c+1]-base), t)
		}
	}
	sp.classLeaf = append(sp.classLeaf, len(sp.leaves))
	return true
}

// plan appends the leaves of npsum's pairwise block [base, base+n) (up to
// 128 values one leaf, above that the halves at a multiple of 8), their
// entries starting at entry t, and returns the entry after them.
func (sp *support) plan(base, n, t int) int {
	if n > 128 {
		n2 := n / 2
		n2 -= n2 % 8
		t = sp.plan(base, n2, t)
		return sp.plan(base+n2, n-n2, t)
	}
	full := base + n - n%8 // rows from here on are the serial tail
	for t < len(sp.rows) && int(sp.rows[t]) < full {
		t++
	}
	lf := supportLeaf{base: int32(base), full: int32(t)}
	for t < len(sp.rows) && int(sp.rows[t]) < base+n {
		t++
	}
	lf.end = int32(t)
	sp.leaves = append(sp.leaves, lf)
	return t
}

// gather writes candidate k's membership of every support row to sp.mu.
func (s *memberships) gather(k int, sp *support) {
	c := &s.cands[k]
	mu := sp.mu[:len(sp.rows)]
	if c.dense != nil {
		col := c.dense
		for t, p := range sp.rows {
			mu[t] = col[p]
		}
		return
	}
	gatherCoded(mu, sp.rows, c.codes[:cap(c.codes)], c.rank, c.frac)
}

// gatherCoded decodes the packed memberships at rows into mu.
func gatherCoded(mu []float64, rows []int32, codes []uint8, rank []int32, frac []float64) {
	mu = mu[:len(rows)]
	for t, p := range rows {
		wi := uint(p) >> 5
		w := binary.LittleEndian.Uint64(codes[wi*8 : wi*8+8])
		sh := uint(p&31) * 2
		code := w >> sh & 3
		// Row p's fractional value is the next after those of the rows
		// before it: rank counts them to the word, the high code bits of
		// the word's lower rows count the rest.
		j := uint(rank[wi]) + uint(bits.OnesCount64(w&(1<<sh-1)&fracBits))
		isFrac := code >> 1
		one := (code & 1) * 0x3FF0000000000000 // the bits of 1.0
		mu[t] = math.Float64frombits(one | math.Float64bits(frac[j])&-isFrac)
	}
}

// fracBits selects the high bit of each two-bit code of a 64-bit word:
// set for codeFrac alone.
const fracBits = 0xAAAAAAAAAAAAAAAA

// codeWordRows is the number of rows whose codes one uint64 holds; rank
// has an entry per such word.
const codeWordRows = 32

// rankCodes returns, for each 32-row word of packed codes, the number of
// fractional codes before it.
func rankCodes(codes []uint8, n int) []int32 {
	words := (n + codeWordRows - 1) / codeWordRows
	rank := make([]int32, words)
	codes = codes[:cap(codes)]
	count := 0
	for w := range rank {
		rank[w] = int32(count)
		count += bits.OnesCount64(binary.LittleEndian.Uint64(codes[w<<3:]) & fracBits)
	}
	return rank
}

// codeBytes is the allocation of n rows' packed codes: whole 64-bit
// words, so gather can read any row's word (the padding codes are 0).
func codeBytes(n int) int {
	return (n + codeWordRows - 1) / codeWordRows * 8
}

// dotSupport fills w with the class sums np.sum(m*mu) of candidate k's
// memberships mu times the node's strengths m, bit for bit as dot computes
// them, from the support alone, and returns their total as classSums does.
func (s *memberships) dotSupport(k int, sp *support, w []float64) float64 {
	// A dense column is read at the support's rows as the leaves are
	// summed; an encoded one is decoded into sp.mu first.
	col := s.cands[k].dense
	if col == nil {
		s.gather(k, sp)
	}
	total := 0.0
	for cls := range w {
		w[cls] = sp.classDot(cls, s.starts[cls+1]-s.starts[cls], col)
		total += w[cls]
	}
	return total
}

// classDot is npsum.Dot over class cls's n rows of m and the candidate's
// memberships (the dense column col, or nil for those gathered in sp.mu):
// numpy's sums of the chunks of its pairwise blocks, over the leaves.
func (sp *support) classDot(cls, n int, col []float64) float64 {
	cur := leafCursor{sp: sp, col: col, leaf: sp.classLeaf[cls], t: sp.classAt[cls]}
	acc := 0.0
	for base := 0; base < n; base += npsum.Chunk {
		acc += cur.block(min(npsum.Chunk, n-base))
	}
	return acc
}

// leafCursor walks a class's leaves in order: the next leaf and its first
// entry, with the memberships' dense column (nil: sp.mu).
type leafCursor struct {
	sp      *support
	col     []float64
	leaf, t int
}

// block is the pairwise sum of the next block of n values: the halves'
// sums added as npsum's recursion adds them, a leaf's from its entries.
// The sum of a leaf without entries is +0, as numpy's sum of zero
// products is (its -0 start of short blocks only ever decides the sign of
// a zero).
func (cur *leafCursor) block(n int) float64 {
	if n > 128 {
		n2 := n / 2
		n2 -= n2 % 8
		left := cur.block(n2)
		return left + cur.block(n-n2)
	}
	sp := cur.sp
	lf := sp.leaves[cur.leaf]
	cur.leaf++
	t, full, end := cur.t, int(lf.full), int(lf.end)
	cur.t = end
	rows, vals := sp.rows[:end], sp.vals[:end]
	if cur.col != nil {
		return leafDense(rows, vals, cur.col, t, full, lf)
	}
	mu := sp.mu[:end]
	var r [8]float64
	base := int(lf.base)
	for ; t < full; t++ {
		r[(int(rows[t])-base)&7] += float64(vals[t] * mu[t])
	}
	res := ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
	for ; t < len(rows); t++ {
		res += float64(vals[t] * mu[t])
	}
	return res
}

// leafDense is block's leaf sum with the memberships read from their
// dense column at the entries' rows: the same products, in the same order.
func leafDense(rows []int32, vals, col []float64, t, full int, lf supportLeaf) float64 {
	var r [8]float64
	base := int(lf.base)
	for ; t < full; t++ {
		p := int(rows[t])
		r[(p-base)&7] += float64(vals[t] * col[p])
	}
	res := ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
	for ; t < len(rows); t++ {
		res += float64(vals[t] * col[rows[t]])
	}
	return res
}
