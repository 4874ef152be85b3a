package fuzzycart

import (
	"github.com/fgrtbench/fgrtbench/fuzzy"
)

// membershipEps is the epsilon of Ex-Fuzzy's trapezoidal_membership
// (written 10E-5 in its source, the same double as 1e-4).
const membershipEps = 1e-4

// trapezoid evaluates a trapezoid (a, b, c, d) as Ex-Fuzzy 2.1.5's
// trapezoidal_membership does at the pinned commit: a set with a == d is the
// indicator of x == a; a vertical left shoulder (a == b) moves a DOWN by
// the epsilon (the paper's FGRT moves b up instead, see
// docs/fidelity.md#fuzzycart-memberships), a vertical right shoulder
// (c == d) moves d up; then min((x-a)/(b-a), (d-x)/(d-c)) clipped to [0, 1],
// each quotient rounded on its own as numpy evaluates it. NaN propagates
// (np.minimum and np.clip keep it), as in the reference.
func trapezoid(t fuzzy.Trapezoid, x float64) float64 {
	a, b, c, d := t.A, t.B, t.C, t.D
	if a == d {
		if x == a {
			return 1
		}
		return 0
	}
	if b == a {
		a -= membershipEps
	}
	if c == d {
		d += membershipEps
	}
	l := float64(x-a) / float64(b-a)
	r := float64(d-x) / float64(d-c)
	return min(max(min(l, r), 0), 1)
}

// termMembership evaluates one term of a partition the way Ex-Fuzzy's
// fuzzy set of that kind does: np.equal for a categorical set (so NaN has
// membership 0 there), the trapezoid above otherwise.
func termMembership(t fuzzy.Term, x float64) float64 {
	if t.Crisp {
		if x == t.Category.Value {
			return 1
		}
		return 0
	}
	return trapezoid(t.Shape, x)
}

// membershipsInto writes term t's membership of column j of every row of X
// into dst.
func membershipsInto(dst []float64, X [][]float64, j int, t fuzzy.Term) {
	for i, row := range X {
		dst[i] = termMembership(t, row[j])
	}
}
