package fgrt

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fgrtbench/fgrtbench/internal/npsum"
)

// TestDotCodedMatchesDecodedDot pins the fused dot of the encoded store to
// npsum's dot of the decoded memberships, bit for bit (the signs of zeros
// included), across the reduction's block boundaries.
func TestDotCodedMatchesDecodedDot(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	value := func() float64 {
		switch rng.IntN(6) {
		case 0:
			return 0
		case 1:
			return math.Copysign(0, -1)
		case 2:
			return 1
		default:
			return rng.Float64()
		}
	}
	for _, n := range []int{0, 1, 7, 8, 9, 127, 128, 129, 136, 1000, 8191, 8192, 8193, 20000, 50001} {
		for _, fracShare := range []int{0, 1, 3, 10} {
			a := make([]float64, n)
			mu := make([]float64, n)
			for i := range a {
				a[i] = value() * 3
				switch r := rng.IntN(10); {
				case r < fracShare:
					mu[i] = value()
				case r%2 == 0:
					mu[i] = 0
				default:
					mu[i] = 1
				}
			}
			codes := make([]uint8, n)
			classify(codes, mu)
			frac := make([]float64, n+1)
			count := gatherFrac(frac, codes, mu)
			frac = frac[:count+1]
			want := npsum.Dot(a, mu)
			got := dotCoded(a, codes, frac)
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("n=%d, frac share %d/10: dotCoded = %v (bits %x), npsum.Dot = %v (bits %x)", n, fracShare, got, math.Float64bits(got), want, math.Float64bits(want))
			}
		}
	}
}

// BenchmarkDotCoded compares the fused dot with decoding into a buffer
// first, on one chunk-aligned column of 640,000 rows.
func BenchmarkDotCoded(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := 640_000
	a, mu := make([]float64, n), make([]float64, n)
	for i := range a {
		a[i] = rng.Float64()
		switch rng.IntN(4) {
		case 0:
			mu[i] = rng.Float64()
		case 1:
			mu[i] = 1
		}
	}
	codes := make([]uint8, n)
	classify(codes, mu)
	frac := make([]float64, n+1)
	frac = frac[:gatherFrac(frac, codes, mu)+1]
	b.Run("fused", func(b *testing.B) {
		for b.Loop() {
			dotCoded(a, codes, frac)
		}
	})
	b.Run("decoded", func(b *testing.B) {
		buf := make([]float64, npsum.Chunk)
		for b.Loop() {
			c, f := codes, frac
			npsum.DotFill(a, buf, func(dst []float64) {
				j := decode(dst, c[:len(dst)], f)
				c, f = c[len(dst):], f[j:]
			})
		}
	})
}
