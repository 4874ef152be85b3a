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
// first entry of class c's rows; mu is scratch for one candidate's
// memberships at those rows.
type support struct {
	nd      *node
	ok      bool // false: too dense, use the dense dot
	rows    []int32
	vals    []float64
	classAt []int
	mu      []float64
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
	return true
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
	s.gather(k, sp)
	total := 0.0
	for cls := range w {
		a, b := sp.classAt[cls], sp.classAt[cls+1]
		w[cls] = supportDot(sp.rows[a:b], sp.vals[a:b], sp.mu[a:b], s.starts[cls], s.starts[cls+1])
		total += w[cls]
	}
	return total
}

// supportDot is npsum.Dot over rows lo..hi-1 of m and mu, given only the
// rows where m is not zero (ascending) with m's and mu's values there:
// the same reduction chunks and the same pairwise blocks.
func supportDot(rows []int32, m, mu []float64, lo, hi int) float64 {
	acc := 0.0
	for base := lo; base < hi; base += npsum.Chunk {
		n := min(npsum.Chunk, hi-base)
		t := entriesBefore(rows, base+n)
		acc += supportPairwise(rows[:t], m[:t], mu[:t], base, n)
		rows, m, mu = rows[t:], m[t:], mu[t:]
	}
	return acc
}

// entriesBefore is the number of leading rows below end.
func entriesBefore(rows []int32, end int) int {
	return sort.Search(len(rows), func(t int) bool { return int(rows[t]) >= end })
}

// supportPairwise mirrors npsum's pairwise block [base, base+n) (blocks
// below 8 values, eight accumulators up to 128, halves at a multiple of 8
// above) over the block's nonzero rows; an empty block is a zero, as a
// block of zero products is, and sums start at +0 (numpy's -0 start of
// short blocks only ever decides the sign of a zero).
func supportPairwise(rows []int32, m, mu []float64, base, n int) float64 {
	if len(rows) == 0 {
		return 0
	}
	if n < 8 {
		res := 0.0
		for t := range rows {
			res += float64(m[t] * mu[t])
		}
		return res
	}
	if n <= 128 {
		var r [8]float64
		full := base + n - n%8 // rows from here on are the serial tail
		t := 0
		mu = mu[:len(rows)]
		m = m[:len(rows)]
		for ; t < len(rows) && int(rows[t]) < full; t++ {
			r[(int(rows[t])-base)&7] += float64(m[t] * mu[t])
		}
		res := ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
		for ; t < len(rows); t++ {
			res += float64(m[t] * mu[t])
		}
		return res
	}
	n2 := n / 2
	n2 -= n2 % 8
	t := entriesBefore(rows, base+n2)
	return supportPairwise(rows[:t], m[:t], mu[:t], base, n2) +
		supportPairwise(rows[t:], m[t:], mu[t:], base+n2, n-n2)
}
