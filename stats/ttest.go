package stats

import (
	"fmt"
	"math"
)

// Repeated cross-validation on one dataset gives n = J = repetitions × k
// per-fold differences that are not independent: every two training sets
// share most of their examples. Both tests below take that correlation as
// ρ = n_test/(n_test + n_train), which is 1/k for k-fold cross-validation
// (use KFoldRho), instead of treating the folds as independent samples.

// KFoldRho returns the correlation ρ = 1/k of k-fold cross-validation
// (n_test/(n_test+n_train) with equal folds).
func KFoldRho(k int) float64 { return 1 / float64(k) }

// foldStats validates per-fold differences and returns their mean and
// sample variance (n−1 denominator).
func foldStats(d []float64, rho float64) (mean, variance float64, err error) {
	if !(rho >= 0 && rho < 1) {
		return 0, 0, fmt.Errorf("stats: correlation rho must be in [0, 1), got %v", rho)
	}
	for i, v := range d {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, 0, fmt.Errorf("stats: difference %d is %v", i, v)
		}
		mean += v
	}
	n := float64(len(d))
	if len(d) == 0 {
		return 0, 0, nil
	}
	mean /= n
	for _, v := range d {
		variance += float64((v - mean) * (v - mean))
	}
	if len(d) > 1 {
		variance /= n - 1
	}
	return mean, variance, nil
}

// CorrelatedBayesTTest is the Bayesian correlated t-test of Corani and
// Benavoli, "A Bayesian approach for comparing cross-validated algorithms
// on multiple data sets", Machine Learning 100 (2015), on the n per-fold
// differences d (A − B) of repeated cross-validation on one dataset.
//
// The posterior of the mean difference is Student t with n−1 degrees of
// freedom, location the sample mean m and scale √((1/n + ρ/(1−ρ))·σ̂²),
// σ̂² the sample variance; PLeft = P(μ < −rope), PRight = P(μ > rope),
// PRope the rest, from the t CDF in closed form. When every difference is
// equal (σ̂² = 0) the posterior is a point mass at m. Fewer than two
// differences give NA.
func CorrelatedBayesTTest(d []float64, rho, rope float64) (BayesResult, error) {
	if !(rope >= 0) || math.IsInf(rope, 0) {
		return BayesResult{}, fmt.Errorf("stats: ROPE must be finite and ≥ 0, got %v", rope)
	}
	mean, variance, err := foldStats(d, rho)
	if err != nil {
		return BayesResult{}, err
	}
	if len(d) < 2 {
		return naBayes(), nil
	}
	n := float64(len(d))
	if variance == 0 {
		var r BayesResult
		switch {
		case mean < -rope:
			r.PLeft = 1
		case mean > rope:
			r.PRight = 1
		default:
			r.PRope = 1
		}
		return r, nil
	}
	sigma := math.Sqrt((1/n + rho/(1-rho)) * variance)
	r := BayesResult{PLeft: studentTCDF(mean, sigma, n-1, -rope), PRight: studentTSurvival(mean, sigma, n-1, rope)}
	r.PRope = math.Max(0, 1-r.PLeft-r.PRight)
	return r, nil
}

// TTestResult is the outcome of a two-sided t-test. NA reports a test with
// nothing to go on (fewer than two values, or no variation); T and P are
// then NaN: print "n/a".
type TTestResult struct {
	N    int
	Mean float64
	T    float64
	DF   int
	P    float64
	NA   bool
}

// NadeauBengio is the corrected resampled t-test of Nadeau and Bengio,
// "Inference for the generalization error", Machine Learning 52 (2003), on
// the J per-fold differences d (A − B) of repeated cross-validation on one
// dataset: t = m / √((1/J + n_test/n_train)·σ̂²) with n_test/n_train =
// ρ/(1−ρ), two-sided p-value from Student t with J−1 degrees of freedom.
// The plain paired t-test is the case ρ = 0, which understates the
// variance of cross-validated differences.
func NadeauBengio(d []float64, rho float64) (TTestResult, error) {
	mean, variance, err := foldStats(d, rho)
	if err != nil {
		return TTestResult{}, err
	}
	res := TTestResult{N: len(d), Mean: mean, DF: len(d) - 1}
	if len(d) < 2 || variance == 0 {
		res.NA, res.T, res.P = true, math.NaN(), math.NaN()
		if len(d) == 0 {
			res.DF, res.Mean = 0, math.NaN()
		}
		return res, nil
	}
	j := float64(len(d))
	res.T = mean / math.Sqrt((1/j+rho/(1-rho))*variance)
	res.P = math.Min(1, 2*studentTSurvival(0, 1, j-1, math.Abs(res.T)))
	return res, nil
}

// TQuantile is the p-quantile of Student's t distribution with df degrees
// of freedom (scipy.stats.t.ppf(p, df)).
func TQuantile(p, df float64) float64 {
	return tQuantile(p, df)
}
