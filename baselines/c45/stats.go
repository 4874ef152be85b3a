package c45

import (
	"math"

	"github.com/fgrtbench/fgrtbench/internal/fmath"
)

// Weka compares doubles with a tolerance of 1e-6 (weka.core.Utils.SMALL);
// every decision below that J48 takes with eq/gr/sm uses the same helpers,
// so that near-ties resolve the way J48 resolves them.
const small = 1e-6

func eq(a, b float64) bool     { return float64(a)-float64(b) < small && float64(b)-float64(a) < small }
func gr(a, b float64) bool     { return a-b > small }
func sm(a, b float64) bool     { return float64(b)-float64(a) > small }
func grOrEq(a, b float64) bool { return b-a < small || a >= b }
func smOrEq(a, b float64) bool { return a-b < small || a <= b }

// AddErrs returns the number of errors to add to e observed errors among n
// (weighted) instances so that the total is the upper limit of the cf
// confidence interval of the error rate: C4.5's pessimistic estimate, as
// weka.classifiers.trees.j48.Stats.addErrs computes it.
//
// J48 holds the confidence in a Java float, so cf is rounded to float32
// first; 1-cf is also formed in float32 before the normal inverse, as in
// Weka. A cf above 0.5 adds nothing (Weka prints a warning and returns 0).
func AddErrs(n, e, cf float64) float64 {
	cf32 := float32(cf)
	if cf32 > 0.5 {
		return 0
	}
	cfd := float64(cf32)
	if e < 1 {
		// Base case e = 0 (Documenta Geigy tables); C4.5 interpolates
		// linearly between 0 and 1 error.
		base := float64(n * (1 - fmath.Pow(cfd, 1/n)))
		if e == 0 {
			return base
		}
		return base + float64(e*(AddErrs(n, 1, cf)-base))
	}
	// The normal approximation fails when more than half the instances are
	// errors; the estimate is then all remaining instances.
	if e+0.5 >= n {
		return math.Max(n-e, 0)
	}
	z := normalInverse(float64(float32(1) - cf32))
	f := (e + 0.5) / n
	r := (f + float64(z*z/(2*n)) + float64(z*math.Sqrt(f/n-float64(f*f/n)+float64(z*z/(4*n*n))))) / (1 + float64(z*z/n))
	return float64(r*n) - e
}

// normalInverse returns the z with Phi(z) = p for the standard normal.
// Weka uses the Cephes ndtri polynomials; math.Erfinv agrees with them to
// within a few ulps, far below any threshold J48's pruning compares against.
func normalInverse(p float64) float64 {
	return math.Sqrt2 * fmath.Erfinv(float64(2*p)-1)
}

// estimatedErrors is J48's getEstimatedErrorsForDistribution: the observed
// errors of a distribution plus the pessimistic addition, 0 when empty.
func estimatedErrors(total, incorrect, cf float64) float64 {
	if eq(total, 0) {
		return 0
	}
	return incorrect + AddErrs(total, incorrect, cf)
}
