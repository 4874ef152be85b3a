package stats

import (
	"fmt"
	"math"

	"github.com/fgrtbench/fgrtbench/internal/fmath"
)

// ExactMaxN is the largest number of ranked differences for which the
// Wilcoxon test uses the exact null distribution (when there are no ties
// and no zeros among them): scipy.stats.wilcoxon's method="auto" switches
// to the normal approximation above 50 differences too.
const ExactMaxN = 50

// The zero-difference conventions of the Wilcoxon signed-rank test, named
// as scipy.stats.wilcoxon's zero_method (Wilcoxon 1945, Pratt 1959, and
// splitting the zeros' ranks between the two sums).
const (
	// ZeroWilcox drops zero differences before ranking (the default).
	ZeroWilcox = "wilcox"
	// ZeroPratt ranks the zeros with the other differences, then drops
	// their ranks from both sums.
	ZeroPratt = "pratt"
	// ZeroSplit ranks the zeros with the other differences and adds half
	// of their ranks to each sum.
	ZeroSplit = "zsplit"
)

// ZeroMethods lists the accepted zero-difference conventions.
var ZeroMethods = []string{ZeroWilcox, ZeroPratt, ZeroSplit}

// WilcoxonResult is the outcome of a two-sided Wilcoxon signed-rank test.
type WilcoxonResult struct {
	// ZeroMethod is the zero-difference convention (ZeroWilcox, ZeroPratt
	// or ZeroSplit); "" in results written before it was recorded means
	// ZeroWilcox.
	ZeroMethod string `json:"zero_method"`
	// N is the number of non-zero differences; Zeros the number of zero
	// differences (dropped by ZeroWilcox, ranked by the others).
	N, Zeros int
	// WPlus and WMinus are the rank sums of the positive and negative
	// differences; Statistic = min(WPlus, WMinus).
	WPlus, WMinus, Statistic float64
	// Ties reports tied absolute differences among the ranked ones (which
	// force the normal approximation).
	Ties bool
	// Exact reports whether P comes from the exact distribution; otherwise
	// Z is the normal-approximation statistic, tie-corrected and with a
	// continuity correction of ½ (Continuity).
	Exact      bool
	Continuity bool `json:"continuity"`
	Z          float64
	// P is the two-sided p-value; NaN when NA.
	P float64
	// NA reports a test that has nothing to go on: one difference or none,
	// or every difference zero. P is then NaN and carries no information;
	// print "n/a", never a p-value.
	NA bool
}

// Wilcoxon tests whether the paired samples x and y differ (differences
// x[i]-y[i]), two-sided, with the ZeroWilcox convention.
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
// differences with the ZeroWilcox convention (see WilcoxonZero).
func WilcoxonDiffs(d []float64) (WilcoxonResult, error) {
	return WilcoxonZero(d, ZeroWilcox)
}

// WilcoxonZero runs the two-sided Wilcoxon signed-rank test on paired
// differences with the zero-difference convention zeroMethod. Differences
// within TieTolerance of 0 are zeros, and magnitudes within it are ties.
// Each convention gives the p-value of one scipy 1.10 call:
//
//   - ZeroWilcox drops the zeros. Over the n remaining differences the
//     p-value is exact, 2·P(W ≤ min(W+, W−)) capped at 1, when n ≤
//     ExactMaxN and no magnitudes tie: scipy.stats.wilcoxon(d[d != 0],
//     method="exact"). Otherwise it is the normal approximation:
//     scipy.stats.wilcoxon(d[d != 0], method="approx", correction=True).
//     Note that scipy.stats.wilcoxon(d) with its defaults on differences
//     that include zeros differs: it leaves the exact distribution for the
//     normal approximation without continuity correction (FGRT against
//     FGRT* in the paper's clean study: p = 0.463 there, 0.5625 here, the
//     exact p-value of the non-zero differences).
//   - ZeroPratt and ZeroSplit rank the zeros with the others. Without
//     zeros they equal ZeroWilcox; with zeros scipy has no exact
//     distribution for them and neither has this function: the p-value is
//     scipy.stats.wilcoxon(d, zero_method=zeroMethod, method="approx",
//     correction=True).
//
// The normal approximation has mean and variance n(n+1)/4 and
// n(n+1)(2n+1)/24 − Σ(t³−t)/48 over tie groups (ZeroPratt subtracts the
// zeros' share, Cureton 1967), and moves the statistic ½ towards the
// mean. Over no or one difference, or when every difference is zero, the
// test has nothing to go on: the result has NA set and P = NaN (no error,
// so that a caller can print "n/a").
func WilcoxonZero(d []float64, zeroMethod string) (WilcoxonResult, error) {
	switch zeroMethod {
	case ZeroWilcox, ZeroPratt, ZeroSplit:
	default:
		return WilcoxonResult{}, fmt.Errorf("stats: zero method %q, want one of %v", zeroMethod, ZeroMethods)
	}
	res := WilcoxonResult{ZeroMethod: zeroMethod}
	var ranked []float64 // the differences that are ranked
	for i, v := range d {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return WilcoxonResult{}, fmt.Errorf("stats: difference %d is %v", i, v)
		}
		if tied(v, 0) {
			res.Zeros++
			if zeroMethod == ZeroWilcox {
				continue
			}
			v = 0
		}
		ranked = append(ranked, v)
	}
	res.N = len(d) - res.Zeros
	if len(d) < 2 || res.N == 0 {
		res.NA = true
		res.P = math.NaN()
		return res, nil
	}
	tieTerm := res.rankSums(ranked)
	count := len(ranked)
	hasZeros := count > res.N
	if count <= ExactMaxN && !res.Ties && !hasZeros {
		res.Exact = true
		res.P = math.Min(1, 2*exactLowerTail(count, int(math.Round(res.Statistic))))
		return res, nil
	}
	res.normalApproximation(count, tieTerm)
	return res, nil
}

// rankSums ranks the magnitudes of the ranked differences and sets W+,
// W- (a zero's rank split between them under ZeroSplit), the statistic
// and Ties; it returns the tie correction Σ(t³ - t) over the magnitudes
// that count in the variance.
func (res *WilcoxonResult) rankSums(ranked []float64) (tieTerm float64) {
	abs := make([]float64, len(ranked))
	for i, v := range ranked {
		abs[i] = math.Abs(v)
	}
	ranks := Rank(abs, false)
	var zeroRanks float64
	var nonZeroAbs []float64 // magnitudes whose ties count in the variance
	for i, v := range ranked {
		switch {
		case v > 0:
			res.WPlus += ranks[i]
		case v < 0:
			res.WMinus += ranks[i]
		default:
			zeroRanks += ranks[i]
		}
		if v != 0 || res.ZeroMethod == ZeroSplit {
			nonZeroAbs = append(nonZeroAbs, abs[i])
		}
	}
	if res.ZeroMethod == ZeroSplit {
		res.WPlus += float64(zeroRanks / 2)
		res.WMinus += float64(zeroRanks / 2)
	}
	res.Statistic = math.Min(res.WPlus, res.WMinus)
	for _, t := range tieGroups(nonZeroAbs) {
		if t > 1 {
			res.Ties = true
			tieTerm += float64(t*t*t - t)
		}
	}
	return tieTerm
}

// normalApproximation sets the z statistic and p-value of count ranked
// differences with scipy's continuity correction; a variance that is not
// positive gives p = 1.
func (res *WilcoxonResult) normalApproximation(count int, tieTerm float64) {
	res.Continuity = true
	nf := float64(count)
	mean := float64(nf * (nf + 1) / 4)
	variance := nf * (nf + 1) * (2*nf + 1) / 24
	if res.ZeroMethod == ZeroPratt {
		z := float64(res.Zeros)
		mean -= float64(z * (z + 1) / 4)
		variance -= z * (z + 1) * (2*z + 1) / 24
	}
	variance -= tieTerm / 48
	if variance <= 0 {
		res.P = 1
		return
	}
	// scipy moves T by ½·sign(T − mean) towards the mean; the p-value is
	// two-sided, 2·Φ(−|z|).
	dev := res.Statistic - mean
	switch {
	case dev > 0:
		dev -= 0.5
	case dev < 0:
		dev += 0.5
	}
	res.Z = dev / math.Sqrt(variance)
	res.P = math.Min(1, float64(2*unitNormalCDF(-math.Abs(res.Z))))
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

// WilcoxonMinP is the smallest two-sided p-value the Wilcoxon signed-rank
// test (WilcoxonZero, any convention) can give over n differences: every
// difference of one sign, either untied, where the exact test gives 2/2ⁿ
// (scipy.stats.wilcoxon(range(1, n+1), method='exact')), or all of one
// magnitude, where the normal approximation with the tie and continuity
// corrections gives 2Φ(−z), z = √n − 2/((n+1)√n) (scipy's
// wilcoxon(ones(n), method='approx', correction=True)), which is the lower
// of the two up to n = 10. Zeros, mixed signs and partial ties only raise
// the p-value, so no comparison over n datasets can go below it. Beyond
// 50 differences the untied case takes the normal approximation too. NaN
// for n < 1.
func WilcoxonMinP(n int) float64 {
	if n < 1 {
		return math.NaN()
	}
	nf := float64(n)
	untied := math.Min(1, math.Ldexp(1, 1-n))
	if n > 50 {
		// Beyond the exact test's range the untied case is approximated too.
		z := (float64(nf*(nf+1)/4) - 0.5) / math.Sqrt(nf*(nf+1)*(2*nf+1)/24)
		untied = fmath.Erfc(z / math.Sqrt2)
	}
	sn := math.Sqrt(nf)
	z := sn - 2/((nf+1)*sn)
	return math.Min(untied, fmath.Erfc(z/math.Sqrt2))
}
