// Package stats holds the non-parametric tests used to compare classifiers
// over several datasets, following Demšar, "Statistical Comparisons of
// Classifiers over Multiple Data Sets", JMLR 7 (2006): average ranks, the
// Friedman test with the Iman–Davenport correction, the Nemenyi critical
// difference (for any number of methods, via the studentized range
// distribution), the Wilcoxon signed-rank test (with scipy's three
// zero-difference conventions) and Holm's step-down correction, gathered
// for any set of methods by Pairwise. FriedmanPermutation gives the exact
// permutation distribution of Friedman's statistic (or a seeded Monte
// Carlo estimate with its precision), which decides where the χ² and F
// approximations do not hold: few datasets, or every dataset ranking the
// methods alike.
//
// Beside these frequentist tests it has the Bayesian signed-rank test over
// datasets with a region of practical equivalence (Benavoli et al., JMLR
// 2017) and, for the folds of repeated cross-validation on one dataset, the
// Bayesian correlated t-test (Corani and Benavoli 2015) and the Nadeau–Bengio
// corrected resampled t-test, which do not treat overlapping folds as
// independent.
//
// A test with nothing to go on (no or one dataset, every difference zero)
// is "not applicable": its result has NA set and NaN in place of p-values
// or probabilities, so that no caller prints a p-value for it.
// testdata/reference.json pins every statistic against scipy/numpy.
//
// Scores are "higher is better" when ranking (rank 1 = best). Values equal
// within TieTolerance (relative) are treated as ties, because accuracies that
// are means over folds can differ in the last bits only through summation
// order.
package stats

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// TieTolerance is the relative distance under which two values count as tied.
const TieTolerance = 1e-12

func tied(a, b float64) bool {
	scale := math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
	return math.Abs(a-b) <= TieTolerance*scale
}

// Rank returns the rank of every value, 1 for the best. With higherBetter the
// largest value is best, otherwise the smallest. Tied values share the mean
// of the ranks they span. NaN values are not allowed (see AverageRanks).
func Rank(values []float64, higherBetter bool) []float64 {
	n := len(values)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		va, vb := values[order[a]], values[order[b]]
		if higherBetter {
			return va > vb
		}
		return va < vb
	})
	ranks := make([]float64, n)
	for start := 0; start < n; {
		end := start + 1
		for end < n && tied(values[order[end]], values[order[start]]) {
			end++
		}
		// Positions start..end-1 hold ranks start+1..end; their mean:
		shared := float64(start+1+end) / 2
		for p := start; p < end; p++ {
			ranks[order[p]] = shared
		}
		start = end
	}
	return ranks
}

// tieGroups returns the sizes of groups of tied values (groups of one included).
func tieGroups(values []float64) []int {
	sorted := append([]float64(nil), values...)
	sort.Float64s(sorted)
	var groups []int
	for start := 0; start < len(sorted); {
		end := start + 1
		for end < len(sorted) && tied(sorted[end], sorted[start]) {
			end++
		}
		groups = append(groups, end-start)
		start = end
	}
	return groups
}

func checkMatrix(m [][]float64) (n, k int, err error) {
	n = len(m)
	if n == 0 {
		return 0, 0, errors.New("stats: no datasets (empty matrix)")
	}
	k = len(m[0])
	if k < 2 {
		return 0, 0, fmt.Errorf("stats: need at least 2 methods, got %d", k)
	}
	for i, row := range m {
		if len(row) != k {
			return 0, 0, fmt.Errorf("stats: row %d has %d values, row 0 has %d", i, len(row), k)
		}
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return 0, 0, fmt.Errorf("stats: row %d column %d is %v", i, j, v)
			}
		}
	}
	return n, k, nil
}

// AverageRanks ranks the methods (columns) within every dataset (row) of m
// and returns the mean rank of each method.
func AverageRanks(m [][]float64, higherBetter bool) ([]float64, error) {
	n, k, err := checkMatrix(m)
	if err != nil {
		return nil, err
	}
	avg := make([]float64, k)
	for _, row := range m {
		for j, r := range Rank(row, higherBetter) {
			avg[j] += r
		}
	}
	for j := range avg {
		avg[j] /= float64(n)
	}
	return avg, nil
}

// FriedmanResult is the outcome of the Friedman test over N datasets and K
// methods.
type FriedmanResult struct {
	N, K     int
	AvgRanks []float64
	// ChiSquare is Friedman's statistic as Demšar (2006, eq. 1) writes it,
	// without a correction for ties; DF = K-1 and P its chi-square p-value.
	ChiSquare float64
	DF        int
	P         float64
	// ChiSquareTieCorrected divides ChiSquare by 1 - Σ(t³-t)/(N·K·(K²-1)),
	// the tie correction scipy.stats.friedmanchisquare applies (the
	// authors' code calls that function); PTieCorrected is its p-value.
	// Both are NaN, as scipy's, when every dataset ties every method.
	ChiSquareTieCorrected float64
	PTieCorrected         float64
	// ImanDavenport is F_F = (N-1)χ²/(N(K-1)-χ²) (Demšar eq. 2), F-distributed
	// with (DF1, DF2) = (K-1, (K-1)(N-1)); PImanDavenport its p-value. When
	// every dataset ranks the methods identically the statistic is +Inf and
	// the p-value 0.
	ImanDavenport  float64
	DF1, DF2       int
	PImanDavenport float64
	// Identical reports that every dataset ranks the methods the same way
	// (one rank vector, not all tied): χ² then takes its largest value
	// given the ties, the Iman–Davenport F is infinite without ties, and
	// only an exact test (FriedmanPermutation) says how unlikely that is.
	Identical bool
}

// Friedman runs the Friedman test on m (rows = datasets, columns = methods).
func Friedman(m [][]float64, higherBetter bool) (FriedmanResult, error) {
	n, k, err := checkMatrix(m)
	if err != nil {
		return FriedmanResult{}, err
	}
	avg, _ := AverageRanks(m, higherBetter)
	res, err := FriedmanFromRanks(avg, n)
	if err != nil {
		return res, err
	}
	res.Identical = identicalRankings(m, higherBetter)
	ties := 0.0
	for _, row := range m {
		for _, t := range tieGroups(row) {
			ties += float64(t*t*t - t)
		}
	}
	c := 1 - ties/(float64(n)*float64(k)*float64(k*k-1))
	if c > 0 {
		res.ChiSquareTieCorrected = res.ChiSquare / c
		res.PTieCorrected = chiSquareSurvival(float64(k-1), res.ChiSquareTieCorrected)
	} else {
		// Every row entirely tied: the correction divides 0 by 0, and
		// scipy.stats.friedmanchisquare returns NaN for both; so do we,
		// and the views print "n/a" rather than a χ² of 0 with p = 1.
		res.ChiSquareTieCorrected = math.NaN()
		res.PTieCorrected = math.NaN()
	}
	return res, nil
}

// identicalRankings reports whether every row of m has the same rank
// vector and that vector is not constant (a row of ties says nothing).
func identicalRankings(m [][]float64, higherBetter bool) bool {
	first := Rank(m[0], higherBetter)
	constant := true
	for _, r := range first {
		if r != first[0] {
			constant = false
		}
	}
	if constant {
		return false
	}
	for _, row := range m[1:] {
		for j, r := range Rank(row, higherBetter) {
			if r != first[j] {
				return false
			}
		}
	}
	return true
}

// FriedmanFromRanks computes the Friedman and Iman–Davenport statistics from
// average ranks over n datasets (no tie correction is possible from ranks
// alone; ChiSquareTieCorrected is set equal to ChiSquare).
func FriedmanFromRanks(avgRanks []float64, n int) (FriedmanResult, error) {
	k := len(avgRanks)
	if k < 2 {
		return FriedmanResult{}, fmt.Errorf("stats: need at least 2 methods, got %d", k)
	}
	if n < 2 {
		return FriedmanResult{}, fmt.Errorf("stats: need at least 2 datasets, got %d", n)
	}
	sumSq := 0.0
	for _, r := range avgRanks {
		if math.IsNaN(r) {
			return FriedmanResult{}, errors.New("stats: NaN average rank")
		}
		sumSq += float64(r * r)
	}
	kf, nf := float64(k), float64(n)
	chi := float64(12 * nf / (kf * (kf + 1)) * (sumSq - float64(kf*(kf+1)*(kf+1)/4)))
	if chi < 0 { // rounding when all ranks equal
		chi = 0
	}
	res := FriedmanResult{
		N: n, K: k, AvgRanks: append([]float64(nil), avgRanks...),
		ChiSquare: chi, DF: k - 1,
		P:                     chiSquareSurvival(kf-1, chi),
		ChiSquareTieCorrected: chi,
		DF1:                   k - 1, DF2: (k - 1) * (n - 1),
	}
	res.PTieCorrected = res.P
	den := float64(nf*(kf-1)) - chi
	if den <= 0 {
		res.ImanDavenport = math.Inf(1)
		res.PImanDavenport = 0
	} else {
		res.ImanDavenport = (nf - 1) * chi / den
		res.PImanDavenport = fSurvival(float64(res.DF1), float64(res.DF2), res.ImanDavenport)
	}
	return res, nil
}

// nemenyiQ holds the critical values q_α of the two-tailed Nemenyi test
// (studentized range statistic divided by √2), Demšar (2006) Table 5(a),
// for k = 2..10 methods.
var nemenyiQ = map[float64][]float64{
	0.05: {1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164},
	0.10: {1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920},
}

// NemenyiQ returns q_α for k methods; alpha must be 0.05 or 0.10 and k in 2..10.
func NemenyiQ(alpha float64, k int) (float64, error) {
	qs, ok := nemenyiQ[alpha]
	if !ok {
		return 0, fmt.Errorf("stats: Nemenyi q is tabulated for alpha 0.05 and 0.10, not %v", alpha)
	}
	if k < 2 || k > 1+len(qs) {
		return 0, fmt.Errorf("stats: Nemenyi q is tabulated for 2..%d methods, not %d", 1+len(qs), k)
	}
	return qs[k-2], nil
}
