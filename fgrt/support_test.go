package fgrt

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fgrtbench/fgrtbench/fuzzy"
	"github.com/fgrtbench/fgrtbench/internal/npsum"
	"github.com/fgrtbench/fgrtbench/learn"
)

// sparseSafe reports whether every value is finite, the memberships for
// which the support's dot equals the dense one.
func sparseSafe(mu []float64) bool {
	for _, v := range mu {
		if v-v != 0 { // NaN or an infinity
			return false
		}
	}
	return true
}

// supportStore builds a one-candidate store of memberships mu over rows
// split into classes at starts, dense or encoded as addFeature stores it.
func supportStore(mu []float64, starts []int, encoded bool) *memberships {
	s := newMemberships(len(mu), starts, encoded)
	s.sparseOK = sparseSafe(mu)
	if !encoded {
		s.cands = []candMemberships{{dense: mu}}
		return s
	}
	pc := encodeColumn(mu)
	fracAt := make([]int, len(starts)-1)
	for c := range fracAt {
		for _, v := range mu[:starts[c]] {
			if math.Float64bits(v) != 0 && v != 1 {
				fracAt[c]++
			}
		}
	}
	s.cands = []candMemberships{{codes: pc.codes, frac: pc.frac, fracAt: fracAt, rank: rankCodes(pc.codes, len(mu))}}
	return s
}

// TestSupportDotMatchesDot pins the support's class sums to npsum.Dot of
// the whole rows, bit for bit, for both stores: lengths around numpy's
// blocks and reduction chunks, classes starting anywhere, strengths from
// all zero to all nonzero, memberships of +0, 1, fractions and subnormals.
func TestSupportDotMatchesDot(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	value := func() float64 {
		switch rng.IntN(8) {
		case 0:
			return 1
		case 1:
			return math.SmallestNonzeroFloat64 * float64(1+rng.IntN(4))
		default:
			return rng.Float64()
		}
	}
	for _, n := range []int{0, 1, 7, 8, 9, 15, 127, 128, 129, 136, 1000, 8191, 8192, 8193, 20000, 50001} {
		for _, density := range []float64{0, 0.02, 0.3, 0.9, 1} {
			m, mu := make([]float64, n), make([]float64, n)
			negZero := math.Copysign(0, -1)
			for i := range m {
				if rng.Float64() < density {
					m[i] = value()
				} else if rng.IntN(4) == 0 {
					m[i] = negZero
				}
				switch rng.IntN(4) {
				case 1:
					mu[i] = 1
				case 2:
					mu[i] = value()
				case 3:
					mu[i] = negZero
				}
			}
			cut1, cut2 := 0, 0
			if n > 0 {
				cut1, cut2 = rng.IntN(n+1), rng.IntN(n+1)
			}
			starts := []int{0, min(cut1, cut2), max(cut1, cut2), n}
			for _, encoded := range []bool{false, true} {
				s := supportStore(mu, starts, encoded)
				if !s.sparseOK {
					t.Fatalf("n=%d: finite memberships refused", n)
				}
				var sp support
				saved := sparseShare
				sparseShare = 1
				built := sp.build(m, starts)
				sparseShare = saved
				if !built {
					t.Fatalf("n=%d density %v: support not built at share 1", n, density)
				}
				w := make([]float64, 3)
				total := s.dotSupport(0, &sp, w)
				wantTotal := 0.0
				for c := range w {
					want := npsum.Dot(m[starts[c]:starts[c+1]], mu[starts[c]:starts[c+1]])
					if dense := s.dot(0, m, c); math.Float64bits(dense) != math.Float64bits(want) {
						t.Fatalf("n=%d encoded %v class %d: the store's dense dot %v, npsum.Dot %v", n, encoded, c, dense, want)
					}
					wantTotal += want
					if math.Float64bits(w[c]) != math.Float64bits(want) {
						t.Errorf("n=%d density %v encoded %v class %d [%d, %d): support dot %v (bits %x), npsum.Dot %v (bits %x)",
							n, density, encoded, c, starts[c], starts[c+1], w[c], math.Float64bits(w[c]), want, math.Float64bits(want))
					}
				}
				if math.Float64bits(total) != math.Float64bits(wantTotal) {
					t.Errorf("n=%d density %v: total %v, want %v", n, density, total, wantTotal)
				}
			}
		}
	}
}

// TestSupportGuard: the support's dot holds for finite memberships only.
// A zero strength times NaN or an infinity is NaN, which numpy's sum keeps
// and the support's would leave out, so a store holding one must keep the
// dense dot. Zeros of either sign are fine (the dot's total is +0 then).
func TestSupportGuard(t *testing.T) {
	negZero := math.Copysign(0, -1)
	for _, c := range []struct {
		mu   []float64
		safe bool
	}{
		{[]float64{0, 1, 0.5, math.SmallestNonzeroFloat64, negZero, 1.5, -0.25}, true},
		{[]float64{0.5, math.NaN()}, false},
		{[]float64{math.Inf(1)}, false},
		{[]float64{0, math.Inf(-1)}, false},
	} {
		if got := sparseSafe(c.mu); got != c.safe {
			t.Errorf("sparseSafe(%v) = %v, want %v", c.mu, got, c.safe)
		}
	}
	// Why the guard: the two sums differ where a NaN meets a zero strength.
	for _, bad := range []float64{math.NaN(), math.Inf(1)} {
		m, mu := []float64{0, 0.5, 0}, []float64{bad, 1, 0.25}
		var sp support
		sp.build(m, []int{0, 3})
		w := make([]float64, 1)
		supportStore(mu, []int{0, 3}, false).dotSupport(0, &sp, w)
		if want := npsum.Dot(m, mu); !math.IsNaN(want) || math.IsNaN(w[0]) {
			t.Fatalf("membership %v: support dot %v, npsum.Dot %v; want a number and NaN (the guard's reason)", bad, w[0], want)
		}
	}
	// Zeros of both signs and values outside [0, 1] keep the bits.
	m := []float64{0, negZero, 0.5, 0, 2, 0, 0, 0, 0, 0.25}
	mu := []float64{negZero, negZero, negZero, 1.5, -0.25, 3, negZero, 0, 1, -2}
	var sp support
	sp.build(m, []int{0, 10})
	w := make([]float64, 1)
	supportStore(mu, []int{0, 10}, false).dotSupport(0, &sp, w)
	if want := npsum.Dot(m, mu); math.Float64bits(want) != math.Float64bits(w[0]) {
		t.Fatalf("signed zeros: support dot %v, npsum.Dot %v", w[0], want)
	}
	X, y := randomData(1, 200, 3, 2)
	parts, err := fuzzy.FitPartitions(X, make([]bool, 3), fuzzy.QuantileStyle)
	if err != nil {
		t.Fatal(err)
	}
	g, err := newGrower(X, y, 2, parts, 3, nil, benchGrow, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !g.mu.sparseOK {
		t.Fatal("quantile partitions' memberships refused by the guard")
	}
	g.mu.sparseOK = false
	if g.supportOf(&node{}) != nil {
		t.Fatal("a store that is not sparseOK gave a support")
	}
	// Memberships that are NaN (here an overflow: (x-a)/(b-a) is Inf/Inf
	// at the huge value below) are reported by both stores as they are
	// built.
	parts[1].Terms[0].Shape = fuzzy.Trapezoid{A: -1e308, B: 1.5e308, C: 1.6e308, D: 1.7e308}
	X[7][1] = 0.9e308
	if mu := parts[1].Terms[0].Membership(X[7][1]); !math.IsNaN(mu) {
		t.Fatalf("the overflowing term's membership is %v, want NaN", mu)
	}
	saved := denseLimit
	defer func() { denseLimit = saved }()
	for _, limit := range []int{saved, 0} {
		denseLimit = limit
		g, err := newGrower(X, y, 2, parts, 3, nil, benchGrow, nil)
		if err != nil {
			t.Fatal(err)
		}
		if g.mu.encoded != (limit == 0) || g.mu.sparseOK {
			t.Fatalf("denseLimit %d: encoded %v, sparseOK %v with a NaN membership; want encoded %v, sparseOK false", limit, g.mu.encoded, g.mu.sparseOK, limit == 0)
		}
	}
}

// TestSupportGrowsSameTrees: class sums over the support (share 1: every
// node) and the dense dot (share 0: none) grow the same trees, with both
// membership stores, on randomGrowth's cases.
func TestSupportGrowsSameTrees(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	saved := sparseShare
	defer func() { sparseShare = saved }()
	for trial := 0; trial < 40; trial++ {
		X, y, c, parts, opt := randomGrowth(t, r, trial)
		var err error
		fit := func(share float64, encoded bool) *Model {
			sparseShare = share
			var m *Model
			grow := func() { m, err = FitTree(X, y, c, parts, opt) }
			if encoded {
				withEncodedMemberships(grow)
			} else {
				grow()
			}
			if err != nil {
				t.Fatal(err)
			}
			return m
		}
		want := fit(0, false)
		for _, encoded := range []bool{false, true} {
			got := fit(1, encoded)
			if !sameNodes(got.Nodes, want.Nodes) || got.RootPrediction != want.RootPrediction || got.EndedByBreak != want.EndedByBreak {
				t.Fatalf("trial %d (%+v, encoded %v): the support's sums grow another tree:\n%s\nvs\n%s", trial, opt, encoded,
					got.Tree(learn.Schema{}), want.Tree(learn.Schema{}))
			}
		}
	}
}

// BenchmarkDotSupport compares a node's class sums over its support with
// the encoded store's fused dot, on 640,000 rows in three classes, at
// several shares of nonzero strengths (sparseShare is chosen from it).
func BenchmarkDotSupport(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := 640_000
	mu := make([]float64, n)
	for i := range mu {
		switch rng.IntN(3) {
		case 0:
			mu[i] = rng.Float64()
		case 1:
			mu[i] = 1
		}
	}
	starts := []int{0, n / 3, 2 * n / 3, n}
	s := supportStore(mu, starts, true)
	w := make([]float64, 3)
	for _, share := range []float64{0.05, 0.25, 0.4, 0.5, 0.7} {
		m := make([]float64, n)
		for i := range m {
			if rng.Float64() < share {
				m[i] = rng.Float64()
			}
		}
		b.Run(fmt.Sprintf("support-%.2f", share), func(b *testing.B) {
			var sp support
			saved := sparseShare
			sparseShare = 1
			defer func() { sparseShare = saved }()
			sp.build(m, starts)
			for b.Loop() {
				s.dotSupport(0, &sp, w)
			}
		})
		b.Run(fmt.Sprintf("dense-%.2f", share), func(b *testing.B) {
			for b.Loop() {
				for c := range w {
					w[c] = s.dot(0, m, c)
				}
			}
		})
	}
}
