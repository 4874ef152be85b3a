package stats

import (
	"math/rand/v2"

	"github.com/fgrtbench/fgrtbench/internal/fmath"
)

// expFloat64 and normFloat64 are math/rand/v2's ExpFloat64 and NormFloat64
// (the same ziggurat, the same tables, the same use of the generator's
// draws) with fmath's Exp and Log and the float32 products of the wedge test
// rounded before their sums: the standard library's versions call math.Exp
// and math.Log, and arm64 fuses the wedge test, so their draws (and the
// Bayesian signed-rank posteriors built on them) could differ between
// architectures (docs/fidelity.md#portability). On linux/amd64 they return
// the standard library's values for the same generator state.

// Ziggurat constants: the start of the exponential's and the normal's tail.
const (
	zigRe = 7.69711747013104972
	zigRn = 3.442619855899
)

// expFloat64 is rand.(*Rand).ExpFloat64: a unit exponential draw.
func expFloat64(r *rand.Rand) float64 {
	for {
		u := r.Uint64()
		j := uint32(u)
		i := uint8(u >> 32)
		x := float64(j) * float64(zigWe[i])
		if j < zigKe[i] {
			return x
		}
		if i == 0 {
			return zigRe - fmath.Log(r.Float64())
		}
		if zigFe[i]+float32(float32(r.Float64())*(zigFe[i-1]-zigFe[i])) < float32(fmath.Exp(-x)) {
			return x
		}
	}
}

// normFloat64 is rand.(*Rand).NormFloat64: a standard normal draw.
func normFloat64(r *rand.Rand) float64 {
	for {
		u := r.Uint64()
		j := int32(u)
		i := u >> 32 & 0x7F
		x := float64(j) * float64(zigWn[i])
		if absInt32(j) < zigKn[i] {
			return x
		}
		if i == 0 { // the tail beyond zigRn, by Marsaglia's method
			for {
				x = float64(-fmath.Log(r.Float64()) * (1.0 / zigRn))
				y := -fmath.Log(r.Float64())
				if y+y >= float64(x*x) {
					break
				}
			}
			if j > 0 {
				return zigRn + x
			}
			return -zigRn - x
		}
		if zigFn[i]+float32(float32(r.Float64())*(zigFn[i-1]-zigFn[i])) < float32(fmath.Exp(float64(-.5*x*x))) {
			return x
		}
	}
}

// absInt32 is |i| as an unsigned number (|MinInt32| included).
func absInt32(i int32) uint32 {
	if i < 0 {
		return uint32(-i)
	}
	return uint32(i)
}
