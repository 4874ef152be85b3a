package stats

import (
	"fmt"
	"math"

	"github.com/fgrtbench/fgrtbench/internal/fmath"
)

// The studentized range distribution is the law of (max−min)/s of k
// independent N(0, σ²) values, with s² an independent estimate of σ² on df
// degrees of freedom (df = +Inf: s = σ). Its upper quantile divided by √2 is
// the q_α of the Nemenyi test (Demšar 2006, Table 5a).
//
// The CDF is computed by numerical integration, the method of R's ptukey
// (Copenhaver and Holland 1988) though with a plainer rule:
//
//	W(q; k) = k ∫ φ(z) [Φ(z) − Φ(z−q)]^(k−1) dz              (df = +Inf)
//	P(q; k, df) = ∫₀^∞ f_df(s) W(q·s; k) ds                    (finite df)
//
// where f_df is the density of s = √(χ²_df / df). Both integrals use
// composite Gauss–Legendre rules on ranges outside which the integrand is
// below 1e-16; the quantile is found by bisection on the CDF. Agreement with
// scipy.stats.studentized_range is pinned in testdata/reference.json.

const (
	// srZMax bounds the z integral: φ(9) ≈ 1e-18, so k·φ beyond ±9 is
	// negligible for any k a report ranks.
	srZMax = 9.0
	// srPanels × srNodes points integrate over z; srSPanels × srNodes over s.
	srPanels  = 24
	srSPanels = 16
	srNodes   = 12
)

// glNodes and glWeights are the srNodes Gauss–Legendre nodes and weights on
// [-1, 1] that gonum's quad.Legendre.FixedLocations gives on linux/amd64.
// They are written out because gonum computes the nodes with math.Cos, whose
// last bit may differ on other architectures (the fused multiply-adds of its
// polynomial); TestGaussLegendreTableMatchesGonumOnAMD64 ties the table to
// gonum (docs/fidelity.md#portability).
var (
	glNodes = []float64{
		0.9815606342467191, 0.9041172563704749, 0.7699026741943047, 0.5873179542866174,
		0.36783149899818035, 0.1252334085114688, -0.1252334085114688, -0.36783149899818013,
		-0.5873179542866171, -0.7699026741943047, -0.9041172563704748, -0.9815606342467191,
	}
	glWeights = []float64{
		0.04717533638651183, 0.10693932599531843, 0.16007832854334622, 0.20316742672306592,
		0.2334925365383548, 0.24914704581340277, 0.24914704581340277, 0.2334925365383548,
		0.20316742672306592, 0.16007832854334622, 0.10693932599531843, 0.04717533638651183,
	}
)

// integrate applies the composite Gauss–Legendre rule with the given number
// of equal panels to f on [a, b].
func integrate(f func(float64) float64, a, b float64, panels int) float64 {
	h := (b - a) / float64(panels)
	sum := 0.0
	for p := 0; p < panels; p++ {
		mid := a + float64((float64(p)+0.5)*h)
		part := 0.0
		for i, x := range glNodes {
			part += float64(glWeights[i] * f(mid+float64(x*h/2)))
		}
		sum += float64(part * h / 2)
	}
	return sum
}

// rangeCDFInf is W(q; k), the CDF of the range of k standard normals.
func rangeCDFInf(q float64, k int) float64 {
	if q <= 0 {
		return 0
	}
	km1 := float64(k - 1)
	f := func(z float64) float64 {
		d := float64(unitNormalCDF(z)) - float64(unitNormalCDF(z-q))
		if d <= 0 {
			return 0
		}
		return unitNormalPDF(z) * fmath.Pow(d, km1)
	}
	// The integrand lives where φ(z) and φ(z−q) overlap the mass: z from
	// −srZMax to srZMax covers φ(z) entirely.
	v := float64(k) * integrate(f, -srZMax, srZMax, srPanels)
	return math.Min(1, math.Max(0, v))
}

// StudentizedRangeCDF returns P(Q ≤ q) for the studentized range of k ≥ 2
// means with df ≥ 1 degrees of freedom (math.Inf(1) for a known variance,
// the case the Nemenyi test uses).
func StudentizedRangeCDF(q float64, k int, df float64) (float64, error) {
	if err := checkRangeArgs(k, df); err != nil {
		return 0, err
	}
	if math.IsNaN(q) {
		return 0, fmt.Errorf("stats: studentized range at q = NaN")
	}
	if q <= 0 {
		return 0, nil
	}
	if math.IsInf(q, 1) {
		return 1, nil
	}
	if math.IsInf(df, 1) {
		return rangeCDFInf(q, k), nil
	}
	// log f_df(s) = (df/2)·log(df) − lgamma(df/2) − (df/2−1)·log 2
	//               + (df−1)·log s − df·s²/2
	lg := fmath.Lgamma(df / 2)
	logC := float64(float64(df/2)*fmath.Log(df)) - lg - float64((float64(df/2)-1)*math.Ln2)
	dens := func(s float64) float64 {
		if s <= 0 {
			if df == 1 {
				return fmath.Exp(logC)
			}
			return 0
		}
		return fmath.Exp(logC + float64((df-1)*fmath.Log(s)) - float64(df*s*s/2))
	}
	// s concentrates at 1 with standard deviation about 1/√(2·df); 12 of
	// them either side leave less than 1e-16 of its mass outside.
	sd := 1 / math.Sqrt(2*df)
	lo := math.Max(0, 1-float64(12*sd))
	hi := 1 + float64(12*sd)
	v := integrate(func(s float64) float64 { return dens(s) * rangeCDFInf(q*s, k) }, lo, hi, srSPanels)
	return math.Min(1, math.Max(0, v)), nil
}

// StudentizedRangeQuantile returns the q with P(Q ≤ q) = p for the
// studentized range of k ≥ 2 means on df ≥ 1 degrees of freedom
// (math.Inf(1) allowed), for 0 < p < 1: the root of the CDF to 1e-14 in p
// or 1e-10 in q.
func StudentizedRangeQuantile(p float64, k int, df float64) (float64, error) {
	if err := checkRangeArgs(k, df); err != nil {
		return 0, err
	}
	if !(p > 0 && p < 1) {
		return 0, fmt.Errorf("stats: studentized range quantile needs 0 < p < 1, got %v", p)
	}
	cdf := func(q float64) float64 { v, _ := StudentizedRangeCDF(q, k, df); return v }
	lo, hi := 0.0, 4.0
	for cdf(hi) < p {
		lo, hi = hi, 2*hi
		if hi > 1e6 {
			return 0, fmt.Errorf("stats: studentized range quantile p=%v k=%d df=%v did not bracket", p, k, df)
		}
	}
	// Illinois false position: superlinear on a monotone CDF, and each
	// finite-df CDF evaluation is a double integral, so steps are dear.
	flo, fhi := cdf(lo)-p, cdf(hi)-p
	side := 0
	for i := 0; i < 200 && hi-lo > 1e-10; i++ {
		mid := hi - fhi*(hi-lo)/(fhi-flo)
		if !(mid > lo && mid < hi) {
			mid = (lo + hi) / 2
		}
		fm := cdf(mid) - p
		switch {
		case fm == 0:
			return mid, nil
		case fm < 0:
			lo, flo = mid, fm
			if side == -1 {
				fhi /= 2
			}
			side = -1
		default:
			hi, fhi = mid, fm
			if side == 1 {
				flo /= 2
			}
			side = 1
		}
		if math.Abs(fm) < 1e-14 {
			return mid, nil
		}
	}
	return (lo + hi) / 2, nil
}

func checkRangeArgs(k int, df float64) error {
	if k < 2 {
		return fmt.Errorf("stats: studentized range needs k ≥ 2 means, got %d", k)
	}
	if math.IsNaN(df) || df < 1 {
		return fmt.Errorf("stats: studentized range needs df ≥ 1, got %v", df)
	}
	return nil
}

// NemenyiQComputed returns the Nemenyi q_α for any k ≥ 2 methods and any
// 0 < α < 1: the upper-α quantile of the studentized range of k means with
// infinite degrees of freedom, divided by √2. For k ≤ 10 and α ∈ {0.05,
// 0.10} it agrees with Demšar's printed table (NemenyiQ) to its three
// decimals.
func NemenyiQComputed(alpha float64, k int) (float64, error) {
	if !(alpha > 0 && alpha < 1) {
		return 0, fmt.Errorf("stats: Nemenyi alpha must be in (0, 1), got %v", alpha)
	}
	q, err := StudentizedRangeQuantile(1-alpha, k, math.Inf(1))
	if err != nil {
		return 0, err
	}
	return q / math.Sqrt2, nil
}

// CriticalDifference returns the Nemenyi critical difference
// q_α·√(k(k+1)/(6N)) for any k ≥ 2 methods and N ≥ 1 datasets. Where
// Demšar's table has q_α (α 0.05 or 0.10, k ≤ 10) it uses the printed value,
// so that existing reports keep their numbers there;
// elsewhere q_α comes from NemenyiQComputed.
func CriticalDifference(alpha float64, k, n int) (float64, error) {
	if n < 1 {
		return 0, fmt.Errorf("stats: need at least 1 dataset, got %d", n)
	}
	q, err := NemenyiQ(alpha, k)
	if err != nil {
		if q, err = NemenyiQComputed(alpha, k); err != nil {
			return 0, err
		}
	}
	return q * math.Sqrt(float64(k*(k+1))/(6*float64(n))), nil
}
