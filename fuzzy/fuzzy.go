// Package fuzzy holds the fuzzy-set code shared by FGRT and the genetic fuzzy
// classifier: trapezoidal membership functions evaluated exactly as the
// ex-fuzzy library evaluates them, crisp category sets, and linguistic
// variables (named terms over one feature).
package fuzzy

import (
	"math"

	"github.com/fgrtbench/fgrtbench/internal/branchless"
)

// Eps is ex-fuzzy's membership epsilon (written 10E-5 in its source, the same
// double as 1e-4). It widens degenerate shoulders so no division by zero occurs.
const Eps = 1e-4

// Trapezoid is a trapezoidal fuzzy set with corners A <= B <= C <= D.
type Trapezoid struct {
	A, B, C, D float64
}

// Membership evaluates the set at x with ex-fuzzy's rules (fuzzy_sets.py at
// the paper's commit): a set with A == D is the indicator of x == A; a
// vertical left shoulder (A == B) is moved to B = A + Eps and a vertical right
// shoulder (C == D) to D = C + Eps before the usual min of the two ramps,
// clipped to [0, 1]. Outer shoulders are therefore closed: Low is 0 just
// below its A and High is 0 from D + Eps on.
func (t Trapezoid) Membership(x float64) float64 {
	a, b, c, d := t.A, t.B, t.C, t.D
	if a == d {
		if x == a {
			return 1
		}
		return 0
	}
	if b == a {
		b = b + Eps
	}
	if c == d {
		d = d + Eps
	}
	// Outside (a, d) one ramp is <= 0, so the clipped minimum is 0; this
	// skips both divisions for most rows without changing any result.
	if a < b && c < d && (x <= a || x >= d) {
		return 0
	}
	return Ramps(x, a, b, c, d)
}

// Ramps is Membership's arithmetic once the shoulders are shifted (b and d
// as Membership moves them): the minimum of the rising ramp (x-a)/(b-a)
// and the falling one (d-x)/(d-c), clipped to [0, 1]. For a set with
// A < B' and C < D' and any x with A < x < D' it is Membership(x) bit for
// bit; a caller that has checked that once for a whole column (FGA's
// sorted columns) calls it per value, and it inlines.
func Ramps(x, a, b, c, d float64) float64 {
	// Keep each quotient a separate rounding step, as numpy evaluates it.
	m := float64(x-a) / float64(b-a)
	if right := float64(d-x) / float64(d-c); right < m {
		m = right
	}
	if m < 0 {
		return 0
	}
	if m > 1 {
		return 1
	}
	return m
}

// MembershipInto writes Membership(xs[i]) to dst[i] for every i (dst must
// be at least as long as xs) and reports whether every value it wrote is
// finite. Results are bit-identical to Membership; the loop hoists the
// shoulder adjustments out of the per-value work. A membership is in
// [0, 1] or NaN, so a running sum of them is NaN exactly when one is: the
// report costs one addition per value, where a second pass would read
// every value again.
func (t Trapezoid) MembershipInto(dst, xs []float64) (finite bool) {
	a, b, c, d := t.A, t.B, t.C, t.D
	if b == a {
		b = b + Eps
	}
	if c == d {
		d = d + Eps
	}
	sum := 0.0
	dst = dst[:len(xs)]
	switch {
	case t.A == t.D: // the indicator of A (a column's single value, often)
		for i, x := range xs {
			dst[i] = float64(branchless.Int(x == t.A))
		}
		return true
	case !(a < b && c < d):
		for i, x := range xs {
			dst[i] = t.Membership(x)
			sum += dst[i]
		}
	case b <= c:
		sum = oneRamp(dst, xs, a, d, b-a, d-c, b)
	default:
		ba, dc := b-a, d-c
		for i, x := range xs {
			// Branch-free (the min/max builtins compile to MINSD/MAXSD
			// sequences): data-dependent branches mispredict on real
			// columns. Same values as Membership, up to the sign of a zero.
			l := float64(x-a) / ba
			r := float64(d-x) / dc
			dst[i] = min(max(min(l, r), 0), 1)
			sum += dst[i]
		}
	}
	return sum == sum
}

// oneRamp is MembershipInto's loop for a set whose plateau is not empty
// (a < b <= c < d, shoulders shifted), returning the sum of what it wrote:
// it divides once per value instead of twice.
// Left of b the rising ramp (x-a)/ba is the smaller one and the falling
// one is at least 1: x < b <= c gives d-x > d-c, and rounding is monotone,
// so fl(d-x) >= dc. From b on the rising ramp is at least 1 the same way.
// Where the other ramp is at least 1 it does not change the clipped
// minimum, so taking the ramp of x's side alone gives Membership's value,
// to the bit (a NaN stays a NaN, -Inf and +Inf give 0 as before).
func oneRamp(dst, xs []float64, a, d, ba, dc, b float64) (sum float64) {
	baBits, dcBits := math.Float64bits(ba), math.Float64bits(dc)
	dst = dst[:len(xs)]
	for i, x := range xs {
		// The side picks numerator and denominator with a mask, not a
		// branch: x < b is a coin toss on a column in row order.
		left := -uint64(branchless.Int(x < b))
		num := math.Float64bits(x-a)&left | math.Float64bits(d-x)&^left
		den := baBits&left | dcBits&^left
		dst[i] = min(max(math.Float64frombits(num)/math.Float64frombits(den), 0), 1)
		sum += dst[i]
	}
	return sum
}
