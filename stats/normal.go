package stats

import (
	"math"

	"github.com/fgrtbench/fgrtbench/internal/fmath"
)

// negLogRoot2Pi is -log(√(2π)), the constant of the normal log-density.
const negLogRoot2Pi = -0.91893853320467274178032973640561763986139747363778

// unitNormalCDF is Φ(x), computed as gonum's distuv.UnitNormal.CDF does
// (½·erfc(−x/√2)) but with fmath.Erfc, so the p-values built on it are
// linux/amd64's bits on every architecture (docs/fidelity.md#portability).
func unitNormalCDF(x float64) float64 {
	return float64(0.5 * fmath.Erfc(-x/math.Sqrt2))
}

// unitNormalPDF is φ(x) as distuv.UnitNormal.Prob computes it,
// exp(−log √(2π) − x²/2), with fmath.Exp.
func unitNormalPDF(x float64) float64 {
	return fmath.Exp(negLogRoot2Pi - float64(x*x/2))
}
