package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// ExactMaxN is the largest number of non-zero differences for which the
// Wilcoxon test uses the exact null distribution (when there are no ties).
const ExactMaxN = 25

// WilcoxonResult is the outcome of a two-sided Wilcoxon signed-rank test.
type WilcoxonResult struct {
	// N is the number of non-zero differences used; Zeros the number
	// dropped (zero_method "wilcox" in scipy's terms: zero differences are
	// discarded before ranking).
	N, Zeros int
	// WPlus and WMinus are the rank sums of the positive and negative
	// differences; Statistic = min(WPlus, WMinus).
	WPlus, WMinus, Statistic float64
	// Ties reports tied absolute differences (which force the normal
	// approximation).
	Ties bool
	// Exact reports whether P comes from the exact distribution; otherwise
	// Z is the normal-approximation statistic (tie- and continuity-corrected).
	Exact bool
	Z     float64
	// P is the two-sided p-value; NaN when NA.
	P float64
	// NA reports a test that has nothing to go on: one difference or none,
	// or every difference zero. P is then NaN and carries no information;
	// print "n/a", never a p-value.
	NA bool
}

// Wilcoxon tests whether the paired samples x and y differ (differences
// x[i]-y[i]), two-sided.
func Wilcoxon(x, y []float64) (WilcoxonResult, error) {
	if len(x) != len(y) {
		return WilcoxonResult{}, fmt.Errorf("stats: Wilcoxon needs paired samples, got %d and %d values", len(x), len(y))
	}
	d := make([]float64, len(x))
	for i := range x {
		d[i] = x[i] - y[i]
	}
	return WilcoxonDiffs(d)
}

// WilcoxonDiffs runs the two-sided Wilcoxon signed-rank test on paired
// differences.
//
// Zero differences (within TieTolerance) are dropped first (scipy's default
// zero_method="wilcox"). With N ≤ ExactMaxN remaining differences and no
// tied magnitudes the p-value is exact: 2·P(W ≤ min(W+, W-)), capped at 1.
// Otherwise the normal approximation is used with mean N(N+1)/4, variance
// N(N+1)(2N+1)/24 − Σ(t³−t)/48 over tie groups, and a continuity
// correction of 0.5 towards the mean. Over no or one difference, or when
// every difference is zero, the test has nothing to go on: the result has
// NA set and P = NaN (no error, so that a caller can print "n/a").
func WilcoxonDiffs(d []float64) (WilcoxonResult, error) {
	var nz, abs []float64
	res := WilcoxonResult{}
	for i, v := range d {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return WilcoxonResult{}, fmt.Errorf("stats: difference %d is %v", i, v)
		}
		if tied(v, 0) {
			res.Zeros++
			continue
		}
		nz = append(nz, v)
		abs = append(abs, math.Abs(v))
	}
	n := len(nz)
	res.N = n
	if len(d) < 2 || n == 0 {
		res.NA = true
		res.P = math.NaN()
		return res, nil
	}
	ranks := Rank(abs, false)
	for i, v := range nz {
		if v > 0 {
			res.WPlus += ranks[i]
		} else {
			res.WMinus += ranks[i]
		}
	}
	res.Statistic = math.Min(res.WPlus, res.WMinus)
	tieTerm := 0.0
	for _, t := range tieGroups(abs) {
		if t > 1 {
			res.Ties = true
			tieTerm += float64(t*t*t - t)
		}
	}
	if n <= ExactMaxN && !res.Ties {
		res.Exact = true
		res.P = math.Min(1, 2*exactLowerTail(n, int(math.Round(res.Statistic))))
		return res, nil
	}
	nf := float64(n)
	mean := nf * (nf + 1) / 4
	variance := nf*(nf+1)*(2*nf+1)/24 - tieTerm/48
	if variance <= 0 {
		res.P = 1
		return res, nil
	}
	dev := res.Statistic - mean // ≤ 0 since Statistic is the smaller sum
	if dev < 0 {
		dev = math.Min(0, dev+0.5)
	}
	res.Z = dev / math.Sqrt(variance)
	res.P = math.Min(1, 2*distuv.UnitNormal.CDF(res.Z))
	return res, nil
}

// exactLowerTail returns P(W ≤ w) for the signed-rank statistic of n
// untied, non-zero differences: the share of the 2ⁿ sign patterns whose
// positive ranks sum to at most w, counted by subset-sum dynamic programming.
func exactLowerTail(n, w int) float64 {
	maxSum := n * (n + 1) / 2
	counts := make([]float64, maxSum+1) // float64 holds 2^25 exactly
	counts[0] = 1
	for r := 1; r <= n; r++ {
		for s := maxSum; s >= r; s-- {
			counts[s] += counts[s-r]
		}
	}
	tail := 0.0
	for s := 0; s <= w && s <= maxSum; s++ {
		tail += counts[s]
	}
	return tail / math.Ldexp(1, n)
}

// Holm applies Holm's step-down correction to a family of p-values and
// returns the adjusted p-values in the input order: with p sorted
// ascending, adj(i) = max_{j≤i} min(1, (m−j+1)·p(j)) (1-based). Reject
// hypothesis i at level α when adj(i) ≤ α.
//
// A NaN p-value marks a test that was not applicable (see
// WilcoxonResult.NA): it stays NaN and is not counted in the family size m,
// because no hypothesis was tested there.
func Holm(p []float64) ([]float64, error) {
	order := make([]int, 0, len(p))
	for i, v := range p {
		if math.IsNaN(v) {
			continue
		}
		if v < 0 || v > 1 {
			return nil, fmt.Errorf("stats: p-value %d is %v, want 0..1", i, v)
		}
		order = append(order, i)
	}
	m := len(order)
	// Stable insertion sort keeps equal p-values in input order.
	for i := 1; i < m; i++ {
		for j := i; j > 0 && p[order[j]] < p[order[j-1]]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	adj := make([]float64, len(p))
	for i := range adj {
		adj[i] = math.NaN()
	}
	running := 0.0
	for rank, idx := range order {
		v := math.Min(1, float64(m-rank)*p[idx])
		running = math.Max(running, v)
		adj[idx] = running
	}
	return adj, nil
}
