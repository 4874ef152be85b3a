package fga

import (
	"math/rand/v2"
	"testing"
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
