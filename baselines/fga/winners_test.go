package fga

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fgrtbench/fgrtbench/fuzzy"
)

// TestWinnersMatchesArgmax: the sparse winner search equals np.argmax over
// the dense associations DS * firing (first maximum; the first candidate
// when nothing fires), for random rule bases with many zero firings, ties
// and zero dominance scores.
func TestWinnersMatchesArgmax(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 200; trial++ {
		n, nr := 1+rng.IntN(300), 1+rng.IntN(12)
		p := &problem{n: n}
		sc := &scratch{win: make([]int32, n)}
		for r := 0; r < nr; r++ {
			st := &ruleStats{phi: make([]float64, n)}
			for i := range st.phi {
				switch rng.IntN(4) {
				case 0, 1:
				case 2:
					st.phi[i] = 0.5 // ties between rules
				default:
					st.phi[i] = rng.Float64()
				}
				if st.phi[i] != 0 {
					st.nz = append(st.nz, int32(i))
				}
			}
			ds := []float64{0, 0.25, rng.Float64()}[rng.IntN(3)]
			sc.ds = append(sc.ds, ds)
			sc.phis = append(sc.phis, st.phi)
			sc.nzs = append(sc.nzs, st.nz)
		}
		cand := []int{}
		for r := 0; r < nr; r++ {
			if r == 0 || rng.IntN(4) > 0 {
				cand = append(cand, r)
			}
		}
		winners(p, sc, cand)
		for i := 0; i < n; i++ {
			want, best := cand[0], sc.ds[cand[0]]*sc.phis[cand[0]][i]
			for _, r := range cand[1:] {
				if a := sc.ds[r] * sc.phis[r][i]; a > best {
					want, best = r, a
				}
			}
			if int(sc.win[i]) != want {
				t.Fatalf("trial %d row %d: winner %d, argmax %d", trial, i, sc.win[i], want)
			}
		}
	}
}

// TestRampsIsMembership: inside the support of a set whose shoulders are
// shifted as applyMembership shifts them, ramps returns
// fuzzy.Trapezoid.Membership's value bit for bit: on both ramps, the
// plateau, next to the corners, and for vertical and very steep shoulders.
func TestRampsIsMembership(t *testing.T) {
	sets := []fuzzy.Trapezoid{
		{A: -1, B: 0, C: 0.5, D: 2},
		{A: -1, B: -1, C: 0.5, D: 2},         // vertical left shoulder
		{A: -1, B: 0, C: 2, D: 2},            // vertical right shoulder
		{A: -1, B: -1, C: 2, D: 2},           // both
		{A: 0, B: 1e-12, C: 1e-12, D: 3e-12}, // steep, a triangle
		{A: -3, B: 1, C: -1, D: 2},           // ramps that cross below 1
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, set := range sets {
		b, d := set.B, set.D
		if set.A == b {
			b += fuzzy.Eps
		}
		if set.C == d {
			d += fuzzy.Eps
		}
		xs := []float64{math.Nextafter(set.A, math.Inf(1)), math.Nextafter(d, math.Inf(-1)), b, set.C, (set.A + d) / 2}
		for k := 0; k < 1000; k++ {
			xs = append(xs, set.A+(d-set.A)*rng.Float64())
		}
		for _, x := range xs {
			if !(x > set.A && x < d) {
				continue
			}
			if got, want := ramps(x, set.A, b, set.C, d), set.Membership(x); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("%+v at %v: ramps %v, Membership %v", set, x, got, want)
			}
		}
	}
}
