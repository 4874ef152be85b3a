package partopt

import (
	"math"
	"sort"

	"github.com/fgrtbench/fgrtbench/fuzzy"
	"github.com/fgrtbench/fgrtbench/internal/npsum"
)

// workspace holds one column's precomputed data and scratch buffers; it is
// reused across the features of one Optimize call.
type workspace struct {
	n, nClasses int
	x           []float64 // column in row order (for exact evaluation)
	col         []float64 // Optimize's copy of a column of X (row order)
	y           []int
	xmin, xmax  float64

	// Sorted view for the fast evaluation: xs ascending; for class k,
	// cnt[k*(n+1)+i] and sz[k*(n+1)+i] are the number and the sum of
	// (x - xmin) of class-k rows among the first i sorted values.
	pairs []valueClass
	// radix-sort scratch
	keys, tmpKeys []uint64
	idx, tmpIdx   []int32
	xs            []float64
	cnt           []float64
	sz            []float64

	mu, buf []float64

	// truncate stores memberships as integers (the int64 quirk, see
	// Config.IntegerMemberships).
	truncate bool

	// countExact, when set, counts exact evaluations (tests).
	countExact *int
}

type valueClass struct {
	x float64
	k int
}

// orderedKey maps a float64 to a uint64 whose unsigned order is the
// numeric order (negative values reversed, sign bit flipped).
func orderedKey(v float64) uint64 {
	b := math.Float64bits(v)
	if b>>63 == 1 {
		return ^b
	}
	return b | 1<<63
}

// sortColumn fills ws.pairs with (value, class) sorted by value using an
// LSD radix sort on the ordered bit pattern (8-bit digits, skipping digits
// all keys share): a few linear passes instead of O(n log n) comparisons.
func (ws *workspace) sortColumn(col []float64, y []int) {
	n := len(col)
	keys, tmpK := ws.keys[:n], ws.tmpKeys[:n]
	idx, tmpI := ws.idx[:n], ws.tmpIdx[:n]
	for i, v := range col {
		keys[i] = orderedKey(v)
		idx[i] = int32(i)
	}
	var count [256]int
	for shift := uint(0); shift < 64; shift += 8 {
		count = [256]int{}
		for _, k := range keys {
			count[(k>>shift)&0xff]++
		}
		if count[(keys[0]>>shift)&0xff] == n {
			continue // every key has the same digit here
		}
		pos := 0
		for d := range count {
			c := count[d]
			count[d] = pos
			pos += c
		}
		for i, k := range keys {
			d := (k >> shift) & 0xff
			tmpK[count[d]] = k
			tmpI[count[d]] = idx[i]
			count[d]++
		}
		keys, tmpK = tmpK, keys
		idx, tmpI = tmpI, idx
	}
	for p, i := range idx {
		ws.pairs[p] = valueClass{col[i], y[i]}
	}
}

func newWorkspace(n, nClasses int) *workspace {
	return &workspace{
		n: n, nClasses: nClasses,
		pairs: make([]valueClass, n),
		keys:  make([]uint64, n), tmpKeys: make([]uint64, n),
		idx: make([]int32, n), tmpIdx: make([]int32, n),
		xs:  make([]float64, n),
		cnt: make([]float64, nClasses*(n+1)),
		sz:  make([]float64, nClasses*(n+1)),
		mu:  make([]float64, n),
		buf: make([]float64, n),
		col: make([]float64, n),
	}
}

// load sorts the column once and builds the per-class prefix sums.
func (ws *workspace) load(col []float64, y []int) {
	n := ws.n
	ws.x, ws.y = col, y
	ws.sortColumn(col, y)
	ws.xmin, ws.xmax = ws.pairs[0].x, ws.pairs[n-1].x
	for i, p := range ws.pairs {
		ws.xs[i] = p.x
	}
	for k := 0; k < ws.nClasses; k++ {
		cnt := ws.cnt[k*(n+1) : (k+1)*(n+1)]
		sz := ws.sz[k*(n+1) : (k+1)*(n+1)]
		c, s := 0.0, 0.0
		cnt[0], sz[0] = 0, 0
		for i, p := range ws.pairs {
			if p.k == k {
				c++
				s += p.x - ws.xmin
			}
			cnt[i+1], sz[i+1] = c, s
		}
	}
}

// exact is the reference separability index, computed the way numpy does:
// memberships of every row in row order, np.sum of membership times class
// indicator (pairwise, zeros included), squared, over np.sum + 1e-10.
func (ws *workspace) exact(sets [3]fuzzy.Trapezoid) float64 {
	if ws.countExact != nil {
		*ws.countExact++
	}
	total := 0.0
	for _, s := range sets {
		for i, v := range ws.x {
			ws.mu[i] = Membership(v, s)
			if ws.truncate {
				ws.mu[i] = math.Trunc(ws.mu[i])
			}
		}
		den := npsum.Sum(ws.mu) + 1e-10
		for k := 0; k < ws.nClasses; k++ {
			for i, v := range ws.mu {
				if ws.y[i] == k {
					ws.buf[i] = v
				} else {
					ws.buf[i] = 0
				}
			}
			num := npsum.Sum(ws.buf)
			total += float64(num*num) / den
		}
	}
	return total
}

const ulp = 0x1p-52

// approx is the separability index from the sorted prefix sums (a
// trapezoid is piecewise linear, so each ramp's class sum is a difference
// of prefix sums). It returns the value and a bound on its distance from
// exact; rounding of the exact evaluation is covered by the bound's margin.
func (ws *workspace) approx(sets [3]fuzzy.Trapezoid) (float64, float64) {
	n1 := ws.n + 1
	total, errSum := 0.0, 0.0
	var sk [16]float64
	var ek [16]float64
	var skv, ekv []float64
	if ws.nClasses <= 16 {
		skv, ekv = sk[:ws.nClasses], ek[:ws.nClasses]
	} else {
		skv, ekv = make([]float64, ws.nClasses), make([]float64, ws.nClasses)
	}
	xs := ws.xs
	for _, s := range sets {
		a, b, c, d := s.A, s.B, s.C, s.D
		i0 := sort.SearchFloat64s(xs, a) // first >= a
		i1 := sort.SearchFloat64s(xs, b) // first >= b
		i2 := upper(xs, c)               // first > c
		i3 := upper(xs, d)               // first > d
		az, dz := a-ws.xmin, d-ws.xmin
		S, E := 0.0, 0.0
		for k := 0; k < ws.nClasses; k++ {
			cnt := ws.cnt[k*n1 : (k+1)*n1]
			sz := ws.sz[k*n1 : (k+1)*n1]
			v, e := 0.0, 0.0
			if b > a && i1 > i0 {
				m := cnt[i1] - cnt[i0]
				num := (sz[i1] - sz[i0]) - float64(az*m)
				v += num / (b - a)
				e += float64(8 * ulp * (sz[i1] + sz[i0] + float64(math.Abs(az)*m)) / (b - a))
			}
			if i2 > i1 {
				v += cnt[i2] - cnt[i1]
			}
			if d > c && i3 > i2 {
				m := cnt[i3] - cnt[i2]
				num := float64(dz*m) - (sz[i3] - sz[i2])
				v += num / (d - c)
				e += float64(8 * ulp * (sz[i3] + sz[i2] + float64(math.Abs(dz)*m)) / (d - c))
			}
			// Summation error of the exact path itself (pairwise sums).
			e += float64(4 * ulp * v * float64(bitsLen(ws.n)))
			skv[k], ekv[k] = v, e
			S += v
			E += e
		}
		den := S + 1e-10
		for k := range skv {
			total += skv[k] * skv[k] / den
			errSum += 2*ekv[k] + E
		}
	}
	return total, float64(errSum*2) + float64(64*ulp*math.Abs(total)) + 1e-12
}

func bitsLen(n int) int {
	b := 1
	for n > 1 {
		n >>= 1
		b++
	}
	return b
}

// upper returns the first index with xs[i] > v.
func upper(xs []float64, v float64) int {
	lo, hi := 0, len(xs)
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if xs[h] <= v {
			lo = h + 1
		} else {
			hi = h
		}
	}
	return lo
}

// grid is the reference's 216-point grid. Each point, and the decoded
// initial partition, is screened with the fast approximation; only those
// that can be the maximum are evaluated exactly, and the first exact
// maximum in the reference's order (initial first, then loop order) wins,
// which is what the reference's sequential strict-> scan returns. It
// returns the best encoding, its score, the initial score and the
// reference's evaluation count.
func (ws *workspace) grid(enc0 Encoding, r float64) (Encoding, float64, float64, int) {
	const npts = len(gridSteps)*len(gridSteps)*len(gridSteps) + 1
	var encs [npts]Encoding
	var val, bound [npts]float64
	lower := math.Inf(-1)
	encs[0] = enc0
	p := 1
	for _, a := range gridSteps {
		for _, b := range gridSteps {
			for _, c := range gridSteps {
				t := enc0
				t[2], t[4], t[6] = a*r, b*r, c*r
				t.clampIncrements()
				encs[p] = t
				p++
			}
		}
	}
	for i := range encs {
		if ws.truncate {
			// The prefix-sum model has no truncated ramps: evaluate every
			// point exactly (integer matrices are small in practice).
			val[i], bound[i] = 0, math.Inf(1)
			continue
		}
		val[i], bound[i] = ws.approx(Decode(encs[i], ws.xmin, ws.xmax))
		if l := val[i] - bound[i]; l > lower {
			lower = l
		}
	}
	initS := val[0]
	best, bestS := -1, math.Inf(-1)
	for i := 0; i < npts; i++ {
		if val[i]+bound[i] < lower {
			continue // certainly below the maximum
		}
		s := ws.exact(Decode(encs[i], ws.xmin, ws.xmax))
		if i == 0 {
			initS = s
		}
		if s > bestS {
			best, bestS = i, s
		}
	}
	return encs[best], bestS, initS, npts
}
