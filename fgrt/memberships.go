package fgrt

import (
	"math"

	"github.com/fgrtbench/fgrtbench/fuzzy"
	"github.com/fgrtbench/fgrtbench/internal/npsum"
)

// denseLimit is the size in bytes up to which the memberships of all
// candidates are stored as dense float64 columns (a variable so that tests
// can force the encoded store). Above it they are encoded: on quantile
// partitions most memberships are exactly 0 or 1 (each term has a plateau
// and is 0 beyond its ramps), so one byte per value plus the fractional
// values alone take about a third of the dense size, which keeps a fit on
// 10^6 rows within twice its input's memory. Small data stays dense: its
// columns fit in cache, where reading beats decoding.
var denseLimit = 16 << 20

// Membership codes of the encoded store.
const (
	codeZero = 0 // membership +0
	codeOne  = 1 // membership 1
	codeFrac = 2 // the next value of the candidate's fractional list
)

// memberships holds every candidate's membership of every training row
// (class-grouped row order), exactly as fuzzy.Term.MembershipInto computes
// them, densely or encoded.
type memberships struct {
	n       int
	starts  []int // class c's rows are [starts[c], starts[c+1])
	encoded bool
	cands   []candMemberships
	chunk   []float64 // decoding buffer of dot and sumWhere
	// One decoded candidate: of returns buf, valid until the next call.
	// While the store is built, buf is the scratch column of addFeature.
	buf     []float64
	bufK    int
	scratch []float64
}

// candMemberships is one candidate's column: dense, or codes plus the
// fractional values in row order (and one padding value), with fracAt[c]
// indexing the first fractional value at or after class c's first row.
type candMemberships struct {
	dense  []float64
	codes  []uint8
	frac   []float64
	fracAt []int
}

func newMemberships(n int, starts []int, encoded bool) *memberships {
	s := &memberships{n: n, starts: starts, encoded: encoded, bufK: -1}
	if encoded {
		s.chunk = make([]float64, npsum.Chunk)
		s.buf = make([]float64, n+1)
		s.scratch = s.buf
	}
	return s
}

// scratchColumn returns a column of scratch space, free until the next
// addFeature (which uses it too).
func (s *memberships) scratchColumn() []float64 {
	if s.scratch == nil {
		s.scratch = make([]float64, s.n+1)
	}
	return s.scratch[:s.n]
}

// membershipBlock is the number of values whose memberships are computed
// at a time while encoding (they stay in cache for the second use).
const membershipBlock = 1024

// addFeature appends a candidate for every term of p, evaluated on the
// feature's column col (class-grouped order).
func (s *memberships) addFeature(col []float64, p fuzzy.Partition) {
	n := s.n
	for _, term := range p.Terms {
		var c candMemberships
		if !s.encoded {
			c.dense = make([]float64, n)
			term.MembershipInto(c.dense, col)
			s.cands = append(s.cands, c)
			continue
		}
		// The fractional values go to a scratch column first, so that
		// their list is allocated at its exact size.
		var muBuf [membershipBlock]float64
		c.codes = make([]uint8, n)
		count := 0
		for lo := 0; lo < n; lo += membershipBlock {
			hi := min(lo+membershipBlock, n)
			mu := muBuf[:hi-lo]
			term.MembershipInto(mu, col[lo:hi])
			classify(c.codes[lo:hi], mu)
			count += gatherFrac(s.scratch[count:], c.codes[lo:hi], mu)
		}
		c.frac = make([]float64, count+1)
		copy(c.frac, s.scratch[:count])
		classes := len(s.starts) - 1
		c.fracAt = make([]int, classes)
		count = 0
		for k := 0; k < classes; k++ {
			c.fracAt[k] = count
			for _, code := range c.codes[s.starts[k]:s.starts[k+1]] {
				count += int(code >> 1)
			}
		}
		s.cands = append(s.cands, c)
	}
}

// classify writes the code of every membership value.
func classify(codes []uint8, mu []float64) {
	codes = codes[:len(mu)]
	for i, v := range mu {
		// Branch-free: +0 (bits 0) -> 0, 1 -> 1, anything else -> 2 (-0
		// stays a fractional value, so decoding restores it).
		isZero := b2u(math.Float64bits(v) == 0)
		isOne := b2u(v == 1)
		codes[i] = codeFrac - 2*isZero - isOne
	}
}

func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// gatherFrac copies the fractional values of mu (per codes) to the front
// of dst, which has room for them plus one, and returns their number.
func gatherFrac(dst []float64, codes []uint8, mu []float64) int {
	codes = codes[:len(mu)]
	j := 0
	for i, v := range mu {
		dst[j] = v
		j += int(codes[i] >> 1)
	}
	return j
}

// decode expands codes, and the fractional values they consume from the
// front of frac (which holds at least one value more), into dst; it
// returns the number of fractional values consumed. Branch-free: the codes
// of real columns follow no pattern a predictor could learn.
func decode(dst []float64, codes []uint8, frac []float64) int {
	dst = dst[:len(codes)]
	j := 0
	for i, c := range codes {
		isFrac := uint64(c >> 1)
		one := uint64(c&1) * 0x3FF0000000000000 // the bits of 1.0
		dst[i] = math.Float64frombits(one | math.Float64bits(frac[j])&-isFrac)
		j += int(isFrac)
	}
	return j
}

// of returns candidate k's memberships; with the encoded store the slice
// is a buffer that the next call overwrites.
func (s *memberships) of(k int) []float64 {
	c := &s.cands[k]
	if c.dense != nil {
		return c.dense
	}
	if s.bufK != k {
		decode(s.buf, c.codes, c.frac)
		s.bufK = k
	}
	return s.buf[:s.n]
}

// dot is np.sum(m*mu) over class cls's rows for candidate k's memberships
// mu; the encoded store is decoded one reduction chunk at a time.
func (s *memberships) dot(k int, m []float64, cls int) float64 {
	c := &s.cands[k]
	lo, hi := s.starts[cls], s.starts[cls+1]
	if c.dense != nil {
		return npsum.Dot(m[lo:hi], c.dense[lo:hi])
	}
	codes, frac := c.codes[lo:hi], c.frac[c.fracAt[cls]:]
	return npsum.DotFill(m[lo:hi], s.chunk, func(dst []float64) {
		j := decode(dst, codes[:len(dst)], frac)
		codes, frac = codes[len(dst):], frac[j:]
	})
}

// sumWhere is the sequential sum, in row order, of candidate k's
// memberships over the rows where m exceeds floor, and the number of those
// rows.
func (s *memberships) sumWhere(k int, m []float64, floor float64) (sum float64, rows int) {
	c := &s.cands[k]
	add := func(lo int, mu []float64) {
		for i, v := range mu {
			if m[lo+i] > floor {
				sum += v
				rows++
			}
		}
	}
	if c.dense != nil {
		add(0, c.dense)
		return sum, rows
	}
	codes, frac := c.codes, c.frac
	for lo := 0; lo < s.n; lo += len(s.chunk) {
		dst := s.chunk[:min(len(s.chunk), s.n-lo)]
		j := decode(dst, codes[lo:lo+len(dst)], frac)
		frac = frac[j:]
		add(lo, dst)
	}
	return sum, rows
}
