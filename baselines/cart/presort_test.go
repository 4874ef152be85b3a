package cart

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortKeysMatchesSort: the radix presort orders keys exactly as
// slices.Sort does, on columns of ties, signs, zeros of both signs,
// infinities' neighbours and a single distinct exponent (skipped passes).
func TestSortKeysMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	columns := map[string]func() float32{
		"normal":   func() float32 { return float32(rng.NormFloat64()) },
		"ties":     func() float32 { return float32(rng.IntN(5)) - 2 },
		"zeros":    func() float32 { return []float32{0, float32(math.Copysign(0, -1)), 1, -1}[rng.IntN(4)] },
		"exponent": func() float32 { return 1 + rng.Float32() },
		"extremes": func() float32 {
			return []float32{math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32, 0}[rng.IntN(5)]
		},
		"constant": func() float32 { return 3 },
	}
	for name, value := range columns {
		for _, n := range []int{1, 2, 7, 1000, 70000} {
			keys := make([]uint64, n)
			for i := range keys {
				keys[i] = uint64(orderedBits(value()))<<32 | uint64(i)
			}
			want := slices.Clone(keys)
			slices.Sort(want)
			got, spare := sortKeys(keys, make([]uint64, n))
			if !slices.Equal(got, want) {
				t.Fatalf("%s, n=%d: radix order differs from slices.Sort", name, n)
			}
			if len(spare) != n {
				t.Fatalf("%s, n=%d: spare slice of %d keys", name, n, len(spare))
			}
		}
	}
}

// TestChildGiniMatchesImpurities: the Gini fast path returns the bits of
// childImpurities for random counts.
func TestChildGiniMatchesImpurities(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	for trial := 0; trial < 2000; trial++ {
		c := 2 + rng.IntN(6)
		b := &builder{crit: Gini, total: make([]float64, c)}
		s := newScratch(0, 0, c)
		s.total = b.total
		wL, wN := 0.0, 0.0
		for k := range b.total {
			b.total[k] = float64(rng.IntN(100000))
			s.left[k] = float64(rng.IntN(int(b.total[k]) + 1))
			wL += s.left[k]
			wN += b.total[k]
		}
		if wL == 0 || wL == wN {
			continue
		}
		gl, gr := b.childGini(s, wL, wN-wL)
		il, ir := b.childImpurities(s, wL, wN-wL)
		if math.Float64bits(gl) != math.Float64bits(il) || math.Float64bits(gr) != math.Float64bits(ir) {
			t.Fatalf("counts %v of %v: childGini %v %v, childImpurities %v %v", s.left, b.total, gl, gr, il, ir)
		}
	}
}
