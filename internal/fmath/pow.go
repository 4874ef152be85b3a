package fmath

import "math"

// Pow is math.Pow with Exp and Log from this package: the same special cases,
// x^y split into x^frac(y) = Exp(frac·Log x) and x^int(y) by repeated
// squaring of x's mantissa with the powers of two kept apart, so the result
// is math.Pow's on linux/amd64 and the same on every other architecture.
func Pow(x, y float64) float64 {
	switch {
	case y == 0 || x == 1:
		return 1
	case y == 1:
		return x
	case math.IsNaN(x) || math.IsNaN(y):
		return math.NaN()
	case x == 0:
		oddNeg := math.Signbit(x) && isOddInt(y)
		switch {
		case y < 0 && oddNeg:
			return math.Inf(-1)
		case y < 0:
			return math.Inf(1)
		case oddNeg:
			return x
		}
		return 0
	case math.IsInf(y, 0):
		switch {
		case x == -1:
			return 1
		case (math.Abs(x) < 1) == math.IsInf(y, 1):
			return 0
		}
		return math.Inf(1)
	case math.IsInf(x, 0):
		if math.IsInf(x, -1) {
			return Pow(1/x, -y) // Pow(-0, -y)
		}
		if y < 0 {
			return 0
		}
		return math.Inf(1)
	case y == 0.5:
		return math.Sqrt(x)
	case y == -0.5:
		return 1 / math.Sqrt(x)
	}

	yi, yf := math.Modf(math.Abs(y))
	if yf != 0 && x < 0 {
		return math.NaN()
	}
	if yi >= 1<<63 {
		// A huge even integer power: overflow or underflow unless x is -1.
		switch {
		case x == -1:
			return 1
		case (math.Abs(x) < 1) == (y > 0):
			return 0
		}
		return math.Inf(1)
	}

	// The result is mant·2^exp, mant = 1 so far.
	mant, exp := 1.0, 0
	if yf != 0 {
		if yf > 0.5 {
			yf--
			yi++
		}
		mant = Exp(yf * Log(x))
	}
	xm, xe := math.Frexp(x)
	for i := int64(yi); i != 0; i >>= 1 {
		if xe < -1<<12 || 1<<12 < xe {
			// The exponent is already beyond any float64: what is left
			// only pushes it further, and Ldexp gives 0 or Inf.
			exp += xe
			break
		}
		if i&1 == 1 {
			mant *= xm
			exp += xe
		}
		xm = float64(xm * xm) // rounded before the doubling below
		xe <<= 1
		if xm < .5 {
			xm += xm
			xe--
		}
	}
	if y < 0 {
		mant = 1 / mant
		exp = -exp
	}
	return math.Ldexp(mant, exp)
}

// isOddInt reports whether x is an odd integer.
func isOddInt(x float64) bool {
	if math.Abs(x) >= 1<<53 {
		return false // every float64 this large is even
	}
	xi, xf := math.Modf(x)
	return xf == 0 && int64(xi)&1 == 1
}
