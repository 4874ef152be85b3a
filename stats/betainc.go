package stats

import (
	"math"

	"gonum.org/v1/gonum/mathext"

	"github.com/fgrtbench/fgrtbench/internal/fmath"
)

// Student's t and Fisher's F distributions as gonum's distuv computes them,
// on a port of Cephes' regularized incomplete beta function with every
// product that feeds a sum rounded and fmath's Exp, Log, Pow and Lgamma: the
// Nadeau–Bengio and Iman–Davenport p-values and the correlated Bayesian
// t-test's posteriors give linux/amd64's bits on every architecture
// (docs/fidelity.md#portability).

// studentTCDF is distuv.StudentsT{Mu: mu, Sigma: sigma, Nu: nu}.CDF(x).
func studentTCDF(mu, sigma, nu, x float64) float64 {
	y := (x - mu) / sigma
	if y == 0 {
		return 0.5
	}
	t := nu / (float64(y*y) + nu)
	if y > 0 {
		return 1 - float64(0.5*regIncBeta(0.5*nu, 0.5, t))
	}
	return 0.5 * regIncBeta(nu/2, 0.5, t)
}

// studentTSurvival is distuv.StudentsT{Mu: mu, Sigma: sigma, Nu: nu}.Survival(x).
func studentTSurvival(mu, sigma, nu, x float64) float64 {
	y := (x - mu) / sigma
	if y == 0 {
		return 0.5
	}
	t := nu / (float64(y*y) + nu)
	if y > 0 {
		return 0.5 * regIncBeta(nu/2, 0.5, t)
	}
	return 1 - float64(0.5*regIncBeta(nu/2, 0.5, t))
}

// fSurvival is distuv.F{D1: d1, D2: d2}.Survival(x).
func fSurvival(d1, d2, x float64) float64 {
	d1x := float64(d1 * x) // rounded: it feeds the sum below
	return 1 - regIncBeta(d1/2, d2/2, d1x/(d1x+d2))
}

// Cephes' limits: the largest argument of Γ and the logarithms of the
// largest and smallest doubles.
const (
	cephesMaxGam = 171.624376956302725
	cephesMaxLog = 1024 * math.Ln2
	cephesMinLog = -1075 * math.Ln2
)

// regIncBeta is I_x(a, b), Cephes' incbet: the power series where b·x is
// small, otherwise one of two continued fractions on the side of the mean
// (swapping a and b and using 1-x beyond it). Arguments outside a, b > 0 and
// 0 <= x <= 1 go to gonum, which panics on them as before.
func regIncBeta(aa, bb, xx float64) float64 {
	if !(aa > 0 && bb > 0 && xx >= 0 && xx <= 1) {
		return mathext.RegIncBeta(aa, bb, xx)
	}
	if xx == 0 || xx == 1 {
		return xx
	}
	if float64(bb*xx) <= 1 && xx <= 0.95 {
		return betaSeries(aa, bb, xx)
	}
	w := 1 - xx
	swapped := xx > aa/(aa+bb)
	a, b, x, xc := aa, bb, xx, w
	if swapped {
		a, b, x, xc = bb, aa, w, xx
		if float64(b*x) <= 1 && x <= 0.95 {
			return complement(betaSeries(a, b, x))
		}
	}
	if y := float64(x*(a+b-2)) - (a - 1); y < 0 {
		w = betaFraction(a, b, x)
	} else {
		w = betaFractionD(a, b, x) / xc
	}
	y := float64(a * fmath.Log(x))
	t := float64(b * fmath.Log(xc))
	if a+b < cephesMaxGam && math.Abs(y) < cephesMaxLog && math.Abs(t) < cephesMaxLog {
		t = fmath.Pow(xc, b)
		t *= fmath.Pow(x, a)
		t /= a
		t *= w
		t *= 1 / betaFunc(a, b)
	} else {
		y += t - logBeta(a, b)
		y += fmath.Log(w / a)
		if y < cephesMinLog {
			t = 0
		} else {
			t = fmath.Exp(y)
		}
	}
	if swapped {
		return complement(t)
	}
	return t
}

// complement is 1 - t for the swapped case, never below 1 - ε, as Cephes
// returns it.
func complement(t float64) float64 {
	if t <= cephesMachEp {
		return 1 - cephesMachEp
	}
	return 1 - t
}

// logBeta is gonum's Lbeta for a, b > 0: log Γ(a) + log Γ(b) - log Γ(a+b).
func logBeta(a, b float64) float64 {
	if math.IsInf(a, 1) || math.IsInf(b, 1) {
		return math.NaN()
	}
	return fmath.Lgamma(a) + fmath.Lgamma(b) - fmath.Lgamma(a+b)
}

// betaFunc is gonum's Beta: exp(logBeta).
func betaFunc(a, b float64) float64 {
	return fmath.Exp(logBeta(a, b))
}

// betaSeries is Cephes' pseries, I_x(a, b) by its power series.
func betaSeries(a, b, x float64) float64 {
	ai := 1 / a
	u := (1 - b) * x
	v := u / (a + 1)
	t1, t := v, u
	n, s := 2.0, 0.0
	z := cephesMachEp * ai
	for math.Abs(v) > z {
		u = (n - b) * x / n
		t *= u
		v = t / (a + n)
		s += v
		n++
	}
	s += t1
	s += ai
	u = float64(a * fmath.Log(x))
	if a+b < cephesMaxGam && math.Abs(u) < cephesMaxLog {
		return s * (1 / betaFunc(a, b)) * fmath.Pow(x, a)
	}
	t = -logBeta(a, b) + u + fmath.Log(s)
	if t < cephesMinLog {
		return 0
	}
	return fmath.Exp(t)
}

// betaFraction is Cephes' incbcf, the first continued fraction of I_x(a, b).
func betaFraction(a, b, x float64) float64 {
	k1, k2, k3, k4 := a, a+b, a, a+1
	k5, k6, k7, k8 := 1.0, b-1, a+1, a+2
	return betaContinuedFraction(x, [8]float64{k1, k2, k3, k4, k5, k6, k7, k8}, +1)
}

// betaFractionD is Cephes' incbd, the second continued fraction, in
// z = x/(1-x).
func betaFractionD(a, b, x float64) float64 {
	k1, k2, k3, k4 := a, b-1, a, a+1
	k5, k6, k7, k8 := 1.0, a+b, a+1, a+2
	return betaContinuedFraction(x/(1-x), [8]float64{k1, k2, k3, k4, k5, k6, k7, k8}, -1)
}

// betaContinuedFraction runs the recurrence incbcf and incbd share: two
// convergent steps per iteration with the coefficients -(z·k1·k2)/(k3·k4) and
// (z·k5·k6)/(k7·k8), k2 moving by dk2 and k6 by -dk2 (the two fractions differ
// only there), rescaling the convergents that leave [1/big, big].
func betaContinuedFraction(z float64, k [8]float64, dk2 float64) float64 {
	pkm2, qkm2, pkm1, qkm1 := 0.0, 1.0, 1.0, 1.0
	ans, r := 1.0, 1.0
	thresh := 3 * cephesMachEp
	for n := 0; n <= 300; n++ {
		xk := -(z * k[0] * k[1]) / (k[2] * k[3])
		pk := pkm1 + float64(pkm2*xk)
		qk := qkm1 + float64(qkm2*xk)
		pkm2, pkm1 = pkm1, pk
		qkm2, qkm1 = qkm1, qk

		xk = (z * k[4] * k[5]) / (k[6] * k[7])
		pk = pkm1 + float64(pkm2*xk)
		qk = qkm1 + float64(qkm2*xk)
		pkm2, pkm1 = pkm1, pk
		qkm2, qkm1 = qkm1, qk

		if qk != 0 {
			r = pk / qk
		}
		t := 1.0
		if r != 0 {
			t = math.Abs((ans - r) / r)
			ans = r
		}
		if t < thresh {
			return ans
		}
		k[0]++
		k[1] += dk2
		k[2] += 2
		k[3] += 2
		k[4]++
		k[5] -= dk2
		k[6] += 2
		k[7] += 2
		if math.Abs(qk)+math.Abs(pk) > cephesBig {
			pkm2 *= cephesBigInv
			pkm1 *= cephesBigInv
			qkm2 *= cephesBigInv
			qkm1 *= cephesBigInv
		}
		if math.Abs(qk) < cephesBigInv || math.Abs(pk) < cephesBigInv {
			pkm2 *= cephesBig
			pkm1 *= cephesBig
			qkm2 *= cephesBig
			qkm1 *= cephesBig
		}
	}
	return ans
}
