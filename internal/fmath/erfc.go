package fmath

import "math"

// Erfc is math.Erfc (the complementary error function; FreeBSD's s_erf.c,
// pure Go on every architecture) with every product that feeds a sum rounded
// explicitly and Exp from this package, so it gives linux/amd64's bits on
// every architecture. The p-values of the normal approximations (Wilcoxon,
// the unit normal's CDF) come from it.
func Erfc(x float64) float64 {
	const tiny = 1.0 / (1 << 56)
	switch {
	case math.IsNaN(x):
		return math.NaN()
	case math.IsInf(x, 1):
		return 0
	case math.IsInf(x, -1):
		return 2
	}
	neg := x < 0
	if neg {
		x = -x
	}
	switch {
	case x < 0.84375: // erfc = 1 - erf, erf from a rational approximation in x²
		t := x
		if x >= tiny {
			z := x * x
			y := horner(z, erfcPP[:]) / horner(z, erfcQQ[:])
			if x < 0.25 {
				t = x + float64(x*y)
			} else {
				t = 0.5 + (float64(x*y) + (x - 0.5))
			}
		}
		if neg {
			return 1 + t
		}
		return 1 - t
	case x < 1.25: // around 1: erx plus a rational approximation in x-1
		s := x - 1
		pq := horner(s, erfcPA[:]) / horner(s, erfcQA[:])
		if neg {
			return 1 + erfcErx + pq
		}
		return 1 - erfcErx - pq
	case x < 28: // exp(-x²-0.5625 + R/S)/x, x² split for accuracy
		s := 1 / (x * x)
		var rs float64
		if x < 1/0.35 {
			rs = horner(s, erfcRA[:]) / horner(s, erfcSA[:])
		} else {
			if neg && x > 6 {
				return 2
			}
			rs = horner(s, erfcRB[:]) / horner(s, erfcSB[:])
		}
		z := math.Float64frombits(math.Float64bits(x) & 0xffffffff00000000)
		r := Exp(float64(-z*z)-0.5625) * Exp(float64((z-x)*(z+x))+rs)
		if neg {
			return 2 - r/x
		}
		return r / x
	}
	if neg {
		return 2
	}
	return 0
}

// math.Erfc's coefficients, constant term first (the denominators' leading
// 1 included).
const erfcErx = 8.45062911510467529297e-01

var (
	erfcPP = [...]float64{1.28379167095512558561e-01, -3.25042107247001499370e-01, -2.84817495755985104766e-02,
		-5.77027029648944159157e-03, -2.37630166566501626084e-05}
	erfcQQ = [...]float64{1, 3.97917223959155352819e-01, 6.50222499887672944485e-02, 5.08130628187576562776e-03,
		1.32494738004321644526e-04, -3.96022827877536812320e-06}
	erfcPA = [...]float64{-2.36211856075265944077e-03, 4.14856118683748331666e-01, -3.72207876035701323847e-01,
		3.18346619901161753674e-01, -1.10894694282396677476e-01, 3.54783043256182359371e-02, -2.16637559486879084300e-03}
	erfcQA = [...]float64{1, 1.06420880400844228286e-01, 5.40397917702171048937e-01, 7.18286544141962662868e-02,
		1.26171219808761642112e-01, 1.36370839120290507362e-02, 1.19844998467991074170e-02}
	erfcRA = [...]float64{-9.86494403484714822705e-03, -6.93858572707181764372e-01, -1.05586262253232909814e+01,
		-6.23753324503260060396e+01, -1.62396669462573470355e+02, -1.84605092906711035994e+02,
		-8.12874355063065934246e+01, -9.81432934416914548592e+00}
	erfcSA = [...]float64{1, 1.96512716674392571292e+01, 1.37657754143519042600e+02, 4.34565877475229228821e+02,
		6.45387271733267880336e+02, 4.29008140027567833386e+02, 1.08635005541779435134e+02,
		6.57024977031928170135e+00, -6.04244152148580987438e-02}
	erfcRB = [...]float64{-9.86494292470009928597e-03, -7.99283237680523006574e-01, -1.77579549177547519889e+01,
		-1.60636384855821916062e+02, -6.37566443368389627722e+02, -1.02509513161107724954e+03,
		-4.83519191608651397019e+02}
	erfcSB = [...]float64{1, 3.03380607434824582924e+01, 3.25792512996573918826e+02, 1.53672958608443695994e+03,
		3.19985821950859553908e+03, 2.55305040643316442583e+03, 4.74528541206955367215e+02,
		-2.24409524465858183362e+01}
)
