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
// and is 0 beyond its ramps), so two bits per value plus the fractional
// values alone take about a third of the dense size or less, which keeps a fit on
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
	// sparseOK: every membership is finite, so class sums may be taken
	// over a node's support (support.go).
	sparseOK bool
	cands    []candMemberships
	chunk    []float64 // decoding buffer of dot and sumWhere
	// One decoded candidate: of returns buf, valid until the next call.
	// While the store is built, buf is the scratch column of newGrower.
	buf     []float64
	bufK    int
	scratch []float64
}

// candMemberships is one candidate's column: dense, or codes plus the
// fractional values in row order (and one padding value), with fracAt[c]
// indexing the first fractional value at or after class c's first row.
// Codes take two bits each, four to a byte (row i in bits 2*(i%4) of byte
// i/4): on 10^6 rows a byte per code was a fifth of a fit's memory.
type candMemberships struct {
	dense  []float64
	codes  []uint8 // packed, see codeAt; capacity codeBytes(n)
	frac   []float64
	fracAt []int
	rank   []int32 // see rankCodes
}

func newMemberships(n int, starts []int, encoded bool) *memberships {
	s := &memberships{n: n, starts: starts, encoded: encoded, sparseOK: true, bufK: -1}
	if encoded {
		s.chunk = make([]float64, npsum.Chunk)
		s.buf = make([]float64, n+1)
		s.scratch = s.buf
	}
	return s
}

// scratchColumn returns a column of n+1 values of scratch space, free
// until the store decodes a candidate (with the encoded store it is the
// decoding buffer).
func (s *memberships) scratchColumn() []float64 {
	if s.scratch == nil {
		s.scratch = make([]float64, s.n+1)
	}
	return s.scratch[:s.n+1]
}

// membershipBlock is the number of values whose memberships are computed
// at a time while encoding (they stay in cache for the second use).
const membershipBlock = 1024

// featureCandidates returns a candidate for every term of p, evaluated on
// the feature's column col (class-grouped order), and whether all their
// memberships are finite (see sparseSafe). It only reads the store's settings,
// so features may be evaluated at once, each with its own scratch (at
// least n+1 values; it holds the fractional values before their list is
// allocated at its exact size).
func (s *memberships) featureCandidates(col []float64, p fuzzy.Partition, scratch []float64) ([]candMemberships, bool) {
	out := make([]candMemberships, len(p.Terms))
	safe := true
	for t, term := range p.Terms {
		if !s.encoded {
			out[t].dense = make([]float64, s.n)
			finite := term.MembershipInto(out[t].dense, col)
			safe = safe && finite
			continue
		}
		var ok bool
		out[t], ok = s.encodeTerm(col, term, scratch)
		safe = safe && ok
	}
	return out, safe
}

// encodeTerm is the encoded candidate of one term on col, and whether its
// memberships are finite. Blocks start at multiples of membershipBlock,
// hence of four: whole code bytes.
func (s *memberships) encodeTerm(col []float64, term fuzzy.Term, scratch []float64) (candMemberships, bool) {
	n := s.n
	var muBuf [membershipBlock]float64
	var codeBuf [membershipBlock]uint8
	var c candMemberships
	safe := true
	c.codes = make([]uint8, (n+3)/4, codeBytes(n))
	classes := len(s.starts) - 1
	c.fracAt = make([]int, classes)
	next, count := 0, 0 // next: the first class whose fracAt is unset
	for lo := 0; lo < n; lo += membershipBlock {
		hi := min(lo+membershipBlock, n)
		mu, codes := muBuf[:hi-lo], codeBuf[:hi-lo]
		finite := term.MembershipInto(mu, col[lo:hi])
		safe = safe && finite
		classify(codes, mu)
		pack(c.codes[lo/4:], codes)
		for ; next < classes && s.starts[next] < hi; next++ {
			at := count
			for _, code := range codes[:s.starts[next]-lo] {
				at += int(code >> 1)
			}
			c.fracAt[next] = at
		}
		count += gatherFrac(scratch[count:], codes, mu)
	}
	for ; next < classes; next++ { // classes with no rows at the end
		c.fracAt[next] = count
	}
	c.frac = make([]float64, count+1)
	copy(c.frac, scratch[:count])
	c.rank = rankCodes(c.codes, n)
	return c, safe
}

// packedColumn is a column of float64 values encoded as the store's
// candidates are: two-bit codes and the fractional values (plus one).
type packedColumn struct {
	codes []uint8
	frac  []float64
}

// encodeColumn encodes v exactly (decodeInto restores every bit).
func encodeColumn(v []float64) packedColumn {
	n := len(v)
	var codeBuf [membershipBlock]uint8
	c := packedColumn{codes: make([]uint8, (n+3)/4, codeBytes(n))}
	count := 0
	for lo := 0; lo < n; lo += membershipBlock {
		hi := min(lo+membershipBlock, n)
		codes := codeBuf[:hi-lo]
		classify(codes, v[lo:hi])
		pack(c.codes[lo/4:], codes)
		for _, code := range codes {
			count += int(code >> 1)
		}
	}
	// Second pass, branch-free: the codes are classified again (cheaper
	// than unpacking them) and gatherFrac writes every value at the next
	// free place, keeping the fractional ones; the padding value is reset.
	c.frac = make([]float64, count+1)
	j := 0
	for lo := 0; lo < n; lo += membershipBlock {
		hi := min(lo+membershipBlock, n)
		codes := codeBuf[:hi-lo]
		classify(codes, v[lo:hi])
		j += gatherFrac(c.frac[j:], codes, v[lo:hi])
	}
	c.frac[count] = 0
	return c
}

// decodeInto writes the column's values to dst (as long as the column).
func (c packedColumn) decodeInto(dst []float64) {
	decode(dst, c.codes, 0, c.frac)
}

// pack stores codes (one per byte) four to a byte into dst.
func pack(dst []uint8, codes []uint8) {
	for i := 0; i < len(codes); i += 4 {
		var b uint8
		for j, c := range codes[i:min(i+4, len(codes))] {
			b |= c << (2 * j)
		}
		dst[i/4] = b
	}
}

// codeWindow returns the codes of rows i to i+7 of a packed column in its
// low 16 bits (row i+k in bits 2k), as far as the column goes.
func codeWindow(packed []uint8, i int) uint32 {
	b := i >> 2
	w := uint32(packed[b])
	if b+1 < len(packed) {
		w |= uint32(packed[b+1]) << 8
	}
	if b+2 < len(packed) {
		w |= uint32(packed[b+2]) << 16
	}
	return w >> (uint(i&3) * 2)
}

// codeAt is row i's code in a packed column.
func codeAt(packed []uint8, i int) uint8 {
	return packed[i>>2] >> (uint(i&3) * 2) & 3
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

// decode expands the packed codes of rows off.. (as many as dst holds),
// and the fractional values they consume from the front of frac (which
// holds at least one value more), into dst; it
// returns the number of fractional values consumed. Branch-free: the codes
// of real columns follow no pattern a predictor could learn.
func decode(dst []float64, codes []uint8, off int, frac []float64) int {
	j := 0
	for i := range dst {
		c := codeAt(codes, off+i)
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
		decode(s.buf[:s.n], c.codes, 0, c.frac)
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
	return dotCoded(m[lo:hi], c.codes, lo, c.frac[c.fracAt[cls]:])
}

// dotCoded is npsum.Dot(a, mu) where mu is the packed codes of rows
// off.. decoded with frac (as decode does), without materialising mu: the same reduction chunks, the
// same pairwise blocks and the same order of additions, each product
// a[i]*mu[i] of the same two values, so the sum is bit-identical; decoding
// in registers saves a store and a load per value on the fit's hottest
// path. frac holds at least one value more than the codes consume.
func dotCoded(a []float64, codes []uint8, off int, frac []float64) float64 {
	acc := 0.0
	for len(a) > 0 {
		m := min(len(a), npsum.Chunk)
		var s float64
		s, frac = pairwiseDotCoded(a[:m], codes, off, frac)
		acc += s
		a, off = a[m:], off+m
	}
	return acc
}

// codedProduct is x times the membership code c stands for (frac[j] when
// c is codeFrac), and the index of the next fractional value. Branch-free:
// the codes of real columns follow no pattern a predictor could learn.
func codedProduct(x float64, c uint8, frac []float64, j int) (float64, int) {
	isFrac := uint64(c >> 1)
	one := uint64(c&1) * 0x3FF0000000000000 // the bits of 1.0
	v := math.Float64frombits(one | math.Float64bits(frac[j])&-isFrac)
	return float64(x * v), j + int(isFrac)
}

// pairwiseDotCoded mirrors npsum's pairwise dot block by block (blocks
// below 8 values start from -0, blocks up to 128 use eight accumulators,
// larger ones split at half rounded down to a multiple of 8, left half
// first); it returns the sum and the fractional values left.
func pairwiseDotCoded(a []float64, codes []uint8, off int, frac []float64) (float64, []float64) {
	n := len(a)
	if n < 8 {
		res := math.Copysign(0, -1)
		j := 0
		for i := range a {
			var v float64
			v, j = codedProduct(a[i], codeAt(codes, off+i), frac, j)
			res += v
		}
		return res, frac[j:]
	}
	if n <= 128 {
		return blockDotCoded(a, codes, off, frac)
	}
	n2 := n / 2
	n2 -= n2 % 8
	left, frac := pairwiseDotCoded(a[:n2], codes, off, frac)
	right, frac := pairwiseDotCoded(a[n2:], codes, off+n2, frac)
	return left + right, frac
}

// blockDotCoded is pairwiseDotCoded's block of 8 to 128 values: eight
// accumulators, as npsum, fed eight rows at a time from one 16-bit window
// of codes, then the rows left one by one.
func blockDotCoded(a []float64, codes []uint8, off int, frac []float64) (float64, []float64) {
	n := len(a)
	a = a[:n]
	j := 0
	w := codeWindow(codes, off)
	r0, j := codedProduct(a[0], uint8(w&3), frac, j)
	r1, j := codedProduct(a[1], uint8(w>>2&3), frac, j)
	r2, j := codedProduct(a[2], uint8(w>>4&3), frac, j)
	r3, j := codedProduct(a[3], uint8(w>>6&3), frac, j)
	r4, j := codedProduct(a[4], uint8(w>>8&3), frac, j)
	r5, j := codedProduct(a[5], uint8(w>>10&3), frac, j)
	r6, j := codedProduct(a[6], uint8(w>>12&3), frac, j)
	r7, j := codedProduct(a[7], uint8(w>>14&3), frac, j)
	i := 8
	var v float64
	for ; i < n-n%8; i += 8 {
		w = codeWindow(codes, off+i)
		x := a[i : i+8 : i+8]
		v, j = codedProduct(x[0], uint8(w&3), frac, j)
		r0 += v
		v, j = codedProduct(x[1], uint8(w>>2&3), frac, j)
		r1 += v
		v, j = codedProduct(x[2], uint8(w>>4&3), frac, j)
		r2 += v
		v, j = codedProduct(x[3], uint8(w>>6&3), frac, j)
		r3 += v
		v, j = codedProduct(x[4], uint8(w>>8&3), frac, j)
		r4 += v
		v, j = codedProduct(x[5], uint8(w>>10&3), frac, j)
		r5 += v
		v, j = codedProduct(x[6], uint8(w>>12&3), frac, j)
		r6 += v
		v, j = codedProduct(x[7], uint8(w>>14&3), frac, j)
		r7 += v
	}
	res := ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
	for ; i < n; i++ {
		v, j = codedProduct(a[i], codeAt(codes, off+i), frac, j)
		res += v
	}
	return res, frac[j:]
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
		j := decode(dst, codes, lo, frac)
		frac = frac[j:]
		add(lo, dst)
	}
	return sum, rows
}
