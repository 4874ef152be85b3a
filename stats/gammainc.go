package stats

import (
	"math"

	"gonum.org/v1/gonum/mathext"

	"github.com/fgrtbench/fgrtbench/internal/fmath"
)

// chiSquareSurvival is P(χ²_k > x), the p-value of Friedman's statistic.
// It is distuv.ChiSquared{K: k}.Survival, the regularized upper incomplete
// gamma function Q(k/2, x/2) of gonum's Cephes port, recomputed with every
// product that feeds a sum rounded and fmath's Exp, Log, Pow and Lgamma, so
// that it gives linux/amd64's bits on every architecture
// (docs/fidelity.md#portability). Every branch of igamc is ported.
func chiSquareSurvival(k, x float64) float64 {
	if x < 0 {
		return 1
	}
	return upperGammaReg(0.5*k, 0.5*x)
}

// Cephes' constants for the incomplete gamma and beta functions.
const (
	cephesMachEp  = 1.0 / (1 << 53)
	cephesMaxIter = 2000
	cephesBig     = 4.503599627370496e15
	cephesBigInv  = 2.22044604925031308085e-16
	lanczosG      = 6.024680040776729583740234375
)

// upperGammaReg is Q(a, x) = Γ(a, x)/Γ(a) with gonum's (Cephes') choice of
// method, for x >= 0; gonum computes the branches the port leaves out.
func upperGammaReg(a, x float64) float64 {
	if q, ok := upperGammaRegPortable(a, x); ok {
		return q
	}
	return mathext.GammaIncRegComp(a, x)
}

// upperGammaRegPortable is Cephes' igamc on the branches this port covers;
// ok is false where it would need one it does not.
func upperGammaRegPortable(a, x float64) (q float64, ok bool) {
	if !(a > 0) || math.IsInf(a, 1) || !(x >= 0) {
		return 0, false
	}
	switch {
	case x == 0:
		return 1, true
	case math.IsInf(x, 1):
		return 0, true
	case inTemmeRegion(a, x):
		return temmeUpperGamma(a, x), true
	case x > 1.1:
		if x < a {
			return 1 - lowerGammaSeries(a, x), true
		}
		return upperGammaFraction(a, x), true
	case x <= 0.5:
		if -0.4/fmath.Log(x) < a {
			return 1 - lowerGammaSeries(a, x), true
		}
	case float64(x*1.1) < a:
		return 1 - lowerGammaSeries(a, x), true
	}
	return upperGammaSeries(a, x), true
}

// inTemmeRegion tells whether Cephes evaluates Q(a, x) by Temme's uniform
// asymptotic expansion (a large, x near a).
func inTemmeRegion(a, x float64) bool {
	d := math.Abs(x-a) / a
	return (20 < a && a < 200 && d < 0.3) || (200 < a && d < 4.5/math.Sqrt(a))
}

// gammaPrefactor is x^a·e^(-x)/Γ(a), Cephes' igam_fac: directly when x is far
// from a, otherwise through the Lanczos approximation.
func gammaPrefactor(a, x float64) float64 {
	if math.Abs(a-x) > float64(0.4*math.Abs(a)) {
		return fmath.Exp(float64(a*fmath.Log(x)) - x - fmath.Lgamma(a))
	}
	fac := a + lanczosG - 0.5
	res := math.Sqrt(fac/fmath.Exp(1)) / lanczosSumExpgScaled(a)
	if a < 200 && x < 200 {
		return res * (fmath.Exp(a-x) * fmath.Pow(x/fac, a))
	}
	num := x - a - lanczosG + 0.5
	return res * fmath.Exp(float64(a*log1pmx(num/fac))+x*(0.5-lanczosG)/fac)
}

// lowerGammaSeries is P(a, x) by its power series.
func lowerGammaSeries(a, x float64) float64 {
	ax := gammaPrefactor(a, x)
	if ax == 0 {
		return 0
	}
	r, c, sum := a, 1.0, 1.0
	for i := 0; i < cephesMaxIter; i++ {
		r++
		c = float64(c * (x / r)) // a product that feeds the sum below
		sum += c
		if c <= cephesMachEp*sum {
			break
		}
	}
	return sum * ax / a
}

// upperGammaFraction is Q(a, x) by its continued fraction, rescaling the
// convergents when they grow past cephesBig.
func upperGammaFraction(a, x float64) float64 {
	ax := gammaPrefactor(a, x)
	if ax == 0 {
		return 0
	}
	y := 1 - a
	z := x + y + 1
	c := 0.0
	pkm2, qkm2 := 1.0, x
	pkm1, qkm1 := x+1, z*x
	ans := pkm1 / qkm1
	for i := 0; i < cephesMaxIter; i++ {
		c++
		y++
		z += 2
		yc := y * c
		pk := float64(pkm1*z) - float64(pkm2*yc)
		qk := float64(qkm1*z) - float64(qkm2*yc)
		t := 1.0
		if qk != 0 {
			r := pk / qk
			t = math.Abs((ans - r) / r)
			ans = r
		}
		pkm2, pkm1 = pkm1, pk
		qkm2, qkm1 = qkm1, qk
		if math.Abs(pk) > cephesBig {
			pkm2 *= cephesBigInv
			pkm1 *= cephesBigInv
			qkm2 *= cephesBigInv
			qkm1 *= cephesBigInv
		}
		if t <= cephesMachEp {
			break
		}
	}
	return ans * ax
}

// upperGammaSeries is Q(a, x) by Cephes' igamc series for small x:
// 1 - x^a/Γ(a+1) from expm1, less x^a/Γ(a) times the alternating series.
func upperGammaSeries(a, x float64) float64 {
	fac, sum := 1.0, 0.0
	for n := 1; n < cephesMaxIter; n++ {
		fac *= -x / float64(n)
		term := fac / (a + float64(n))
		sum += term
		if math.Abs(term) <= cephesMachEp*math.Abs(sum) {
			break
		}
	}
	lg1p := logGamma1p(a)
	alogx := float64(a * fmath.Log(x))
	term := -cephesExpm1(alogx - lg1p)
	return term - float64(fmath.Exp(alogx-fmath.Lgamma(a))*sum)
}

// logGamma1p is Cephes' lgam1p, log Γ(1+x): its Taylor series in ζ(n) near
// x = 0 and (shifted by log x) near 1, log Γ(x+1) elsewhere.
func logGamma1p(x float64) float64 {
	switch {
	case math.Abs(x) <= 0.5:
		return logGamma1pTaylor(x)
	case math.Abs(x-1) < 0.5:
		return fmath.Log(x) + logGamma1pTaylor(x-1)
	}
	return fmath.Lgamma(x + 1)
}

// logGamma1pTaylor is -γx + Σ_{n>=2} ζ(n)(-x)^n/n, to machine precision.
func logGamma1pTaylor(x float64) float64 {
	const euler = 0.577215664901532860606512090082402431
	if x == 0 {
		return 0
	}
	res := float64(-euler * x)
	xfac := -x
	for n := 2; n < 42; n++ {
		nf := float64(n)
		xfac *= -x
		coeff := hurwitzZeta(nf, 1) * xfac / nf
		res += coeff
		if math.Abs(coeff) < cephesMachEp*math.Abs(res) {
			break
		}
	}
	return res
}

// hurwitzZeta is Cephes' zeta(x, q) = Σ_{k>=0} (k+q)^(-x) for x > 1 and
// q > 0: direct terms until k+q passes 9 (and at least nine of them), then
// the Euler–Maclaurin tail.
func hurwitzZeta(x, q float64) float64 {
	if q > 1e8 {
		return (1/(x-1) + 1/(2*q)) * fmath.Pow(q, 1-x)
	}
	s := fmath.Pow(q, -x)
	a := q
	b := 0.0
	for i := 0; i < 9 || a <= 9; {
		i++
		a++
		b = fmath.Pow(a, -x)
		s += b
		if math.Abs(b/s) < cephesMachEp {
			return s
		}
	}
	w := a
	s += b * w / (x - 1)
	s -= float64(0.5 * b)
	a = 1
	k := 0.0
	for _, coef := range zetaTailCoefs {
		a *= x + k
		b /= w
		t := a * b / coef
		s += t
		if math.Abs(t/s) < cephesMachEp {
			return s
		}
		k++
		a *= x + k
		b /= w
		k++
	}
	return s
}

// zetaTailCoefs are Cephes' Euler–Maclaurin denominators (2k)!/B_2k.
var zetaTailCoefs = [...]float64{
	12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.307674368e12 / 691, 7.47242496e10,
	-1.067062284288e16 / 3617, 5.109094217170944e18 / 43867, -8.028576626982912e20 / 174611,
	1.5511210043330985984e23 / 854513, -1.6938241367317436694528e27 / 236364091,
}

// cephesExpm1 is Cephes' expm1: e^x - 1 by a rational approximation within
// [-½, ½], from Exp outside.
func cephesExpm1(x float64) float64 {
	if math.IsInf(x, 0) {
		if x > 0 {
			return x
		}
		return -1
	}
	if x < -0.5 || x > 0.5 {
		return fmath.Exp(x) - 1
	}
	xx := x * x
	p := expm1P[0]
	for _, c := range expm1P[1:] {
		p = float64(p*xx) + c
	}
	q := expm1Q[0]
	for _, c := range expm1Q[1:] {
		q = float64(q*xx) + c
	}
	r := float64(x * p)
	r /= q - r
	return r + r
}

// Cephes' expm1 coefficients, highest degree first.
var (
	expm1P = [...]float64{1.2617719307481059087798e-4, 3.0299440770744196129956e-2, 9.9999999999999999991025e-1}
	expm1Q = [...]float64{3.0019850513866445504159e-6, 2.5244834034968410419224e-3,
		2.2726554820815502876593e-1, 2.0000000000000000000897e0}
)

// lanczosSumExpgScaled is Cephes' rational Lanczos sum scaled by e^g
// (evaluated in 1/x above 1, as Cephes' ratevl does there).
func lanczosSumExpgScaled(x float64) float64 {
	if math.Abs(x) <= 1 {
		num, den := lanczosExpgNum[0], lanczosExpgDen[0]
		for _, c := range lanczosExpgNum[1:] {
			num = float64(num*x) + c
		}
		for _, c := range lanczosExpgDen[1:] {
			den = float64(den*x) + c
		}
		return num / den
	}
	y := 1 / x
	num := lanczosExpgNum[len(lanczosExpgNum)-1]
	for i := len(lanczosExpgNum) - 2; i >= 0; i-- {
		num = float64(num*y) + lanczosExpgNum[i]
	}
	den := lanczosExpgDen[len(lanczosExpgDen)-1]
	for i := len(lanczosExpgDen) - 2; i >= 0; i-- {
		den = float64(den*y) + lanczosExpgDen[i]
	}
	return num / den
}

// The Lanczos coefficients (g = lanczosG, 13 terms) of Boost and Cephes.
var (
	lanczosExpgNum = [...]float64{
		0.006061842346248906525783753964555936883222, 0.5098416655656676188125178644804694509993,
		19.51992788247617482847860966235652136208, 449.9445569063168119446858607650988409623,
		6955.999602515376140356310115515198987526, 75999.29304014542649875303443598909137092,
		601859.6171681098786670226533699352302507, 3481712.15498064590882071018964774556468,
		14605578.08768506808414169982791359218571, 43338889.32467613834773723740590533316085,
		86363131.28813859145546927288977868422342, 103794043.1163445451906271053616070238554,
		56906521.91347156388090791033559122686859,
	}
	lanczosExpgDen = [...]float64{
		1, 66, 1925, 32670, 357423, 2637558, 13339535, 45995730, 105258076, 150917976,
		120543840, 39916800, 0,
	}
)

// log1pmx is log(1+x) - x: its series below |x| = ½, otherwise from log1p.
func log1pmx(x float64) float64 {
	if math.Abs(x) < 0.5 {
		xfac, res := x, 0.0
		for n := 2; n < cephesMaxIter; n++ {
			xfac *= -x
			term := xfac / float64(n)
			res += term
			if math.Abs(term) < cephesMachEp*math.Abs(res) {
				break
			}
		}
		return res
	}
	return cephesLog1p(x) - x
}

// cephesLog1p is Cephes' log1p: a rational approximation for 1+x within
// [√2/2, √2], the logarithm of 1+x outside.
func cephesLog1p(x float64) float64 {
	z := 1 + x
	if z < 1/math.Sqrt2 || z > math.Sqrt2 {
		return fmath.Log(z)
	}
	z = x * x
	p := log1pP[0]
	for _, c := range log1pP[1:] {
		p = float64(p*x) + c
	}
	q := x + log1pQ[0]
	for _, c := range log1pQ[1:] {
		q = float64(q*x) + c
	}
	z = float64(-0.5*z) + float64(x*(z*p/q))
	return x + z
}

// Cephes' log1p coefficients, highest degree first (the denominator's
// leading 1 implicit).
var (
	log1pP = [...]float64{
		4.5270000862445199635215e-5, 4.9854102823193375972212e-1, 6.5787325942061044846969e0,
		2.9911919328553073277375e1, 6.0949667980987787057556e1, 5.7112963590585538103336e1,
		2.0039553499201281259648e1,
	}
	log1pQ = [...]float64{
		1.5062909083469192043167e1, 8.3047565967967209469434e1, 2.2176239823732856465394e2,
		3.0909872225312059774938e2, 2.1642788614495947685003e2, 6.0118660497603843919306e1,
	}
)
