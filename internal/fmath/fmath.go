// Package fmath holds the floating-point functions whose results must not
// depend on the machine: Log, Exp, Pow, Log2, Lgamma, Erfinv, Erfc, Sum and
// MeanStdDev give the same bits on every architecture Go supports, and those
// bits are what the standard library (and gonum, for the last two) gives on
// linux/amd64 (with FMA), the platform every golden, fidelity test and gate
// baseline was made on.
//
// The standard library does not promise this. On amd64, math.Log and math.Exp
// are assembly routines (Exp takes another instruction sequence when the CPU
// has FMA); on arm64 and the other architectures they are Go code (or other
// assembly) that the compiler fuses into multiply-adds, and everything built
// on them (math.Pow, math.Log2, math.Lgamma, math.Erfinv, math.Erfc) inherits the
// difference in the last bit. Here each function is the amd64 routine's exact
// sequence of IEEE operations written in Go: every product that feeds a sum is
// rounded by an explicit float64 conversion (the Go specification's way to
// forbid fusion), and the fused steps of amd64's Exp are math.FMA, which is
// exact everywhere. docs/fidelity.md#portability says what this guarantees and
// how it is checked.
package fmath

import "math"

// Log is math.Log as linux/amd64 computes it (math/log_amd64.s): the same
// reduction x = f·2^k with sqrt(2)/2 < f <= sqrt(2), read from the bits as the
// assembly does (so a subnormal x is not renormalised), and the same
// polynomial in s = (f-1)/(f+1), evaluated in the same order.
func Log(x float64) float64 {
	const (
		hSqrt2 = 7.07106781186547524401e-01 // sqrt(2)/2
		ln2Hi  = 6.93147180369123816490e-01 // 0x3fe62e42fee00000
		ln2Lo  = 1.90821492927058770002e-10 // 0x3dea39ef35793c76
		l1     = 6.666666666666735130e-01
		l2     = 3.999999999940941908e-01
		l3     = 2.857142874366239149e-01
		l4     = 2.222219843214978396e-01
		l5     = 1.818357216161805012e-01
		l6     = 1.531383769920937332e-01
		l7     = 1.479819860511658591e-01
	)
	b := math.Float64bits(x)
	switch {
	case b&^(1<<63) == 0: // ±0
		return math.Inf(-1)
	case int64(b) < 0: // negative, -Inf and NaNs with the sign bit
		return math.NaN()
	case b >= 0x7FF0000000000000: // +Inf or NaN
		return x
	}
	f1 := math.Float64frombits(b&(1<<52-1) | 0x3FE0000000000000)
	k := float64(int64(b>>52&0x7FF) - 0x3FE)
	if f1 <= hSqrt2 { // the assembly's "not less than" compare keeps f1 == sqrt(2)/2 here
		k--
		f1 *= 2
	}
	f := f1 - 1
	s := f / (2 + f)
	s2 := s * s
	s4 := s2 * s2
	t1 := float64(s2 * (l1 + float64(s4*(l3+float64(s4*(l5+float64(s4*l7)))))))
	t2 := float64(s4 * (l2 + float64(s4*(l4+float64(s4*l6)))))
	r := t1 + t2
	hfsq := float64(0.5 * f * f)
	return float64(k*ln2Hi) - ((hfsq - (float64(s*(hfsq+r)) + float64(k*ln2Lo))) - f)
}

// Exp is math.Exp as linux/amd64 computes it on a CPU with FMA
// (math/exp_amd64.s, the avxfma path): k = round(x/ln 2), r = (x - k·ln 2)/16
// with the two halves of ln 2 subtracted by fused multiply-adds, a Taylor
// polynomial for e^r - 1 by fused Horner steps, four squarings of 1 + (e^r - 1)
// done as e·(e+2), and the scaling by 2^k in one or two multiplications.
// An amd64 CPU without FMA (before Haswell) computes math.Exp differently in
// the last bit; fgrtbench gives the FMA result there too.
func Exp(x float64) float64 {
	const (
		log2e    = 1.4426950408889634073599246810018920
		ln2U     = 0.69314718055966295651160180568695068359375
		ln2L     = 0.28235290563031577122588448175013436025525412068e-12
		overflow = 7.09782712893384e+02
	)
	b := math.Float64bits(x)
	if b&^(1<<63) >= 0x7FF0000000000000 {
		if b == 0xFFF0000000000000 { // -Inf
			return 0
		}
		return x // +Inf or NaN
	}
	if x > overflow {
		return math.Inf(1)
	}
	k := cvtsd2sl(x * log2e)
	kf := float64(k)
	r := math.FMA(-kf, ln2U, x)
	r = math.FMA(-kf, ln2L, r)
	r *= 0.0625
	p := 2.4801587301587301587e-5
	p = math.FMA(p, r, 1.9841269841269841270e-4)
	p = math.FMA(p, r, 1.3888888888888888889e-3)
	p = math.FMA(p, r, 8.3333333333333333333e-3)
	p = math.FMA(p, r, 4.1666666666666666667e-2)
	p = math.FMA(p, r, 1.6666666666666666667e-1)
	p = math.FMA(p, r, 0.5)
	p = math.FMA(p, r, 1.0)
	e := float64(r * p)
	e = float64(e * (e + 2))
	e = float64(e * (e + 2))
	e = float64(e * (e + 2))
	e = math.FMA(e, e+2, 1)
	biased := int64(k) + 0x3FF
	switch {
	case biased <= 0: // a subnormal result: scale in two steps, as the assembly does
		if biased < -52 {
			return 0
		}
		e *= math.Float64frombits(uint64(biased+0x3FE) << 52)
		biased = 1
	case biased >= 0x7FF:
		return math.Inf(1)
	}
	return e * math.Float64frombits(uint64(biased)<<52)
}

// cvtsd2sl is the SSE2 conversion CVTSD2SL under the default rounding mode:
// the nearest int32, ties to even, and the "integer indefinite" MinInt32 for
// anything out of range.
func cvtsd2sl(t float64) int32 {
	r := math.RoundToEven(t)
	if !(r >= math.MinInt32 && r <= math.MaxInt32) {
		return math.MinInt32
	}
	return int32(r)
}

// Log2 is math.Log2 on top of Log: exact for powers of two, otherwise
// Log(frac)/ln 2 + exp with the product rounded before the sum.
func Log2(x float64) float64 {
	frac, exp := math.Frexp(x)
	if frac == 0.5 {
		return float64(exp - 1)
	}
	return float64(Log(frac)*(1/math.Ln2)) + float64(exp)
}
