package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// BayesResult gives the posterior probabilities of the three regions of a
// difference A − B around a region of practical equivalence [−rope, rope]:
// PLeft that B is practically better (difference below −rope), PRope that
// the two are practically equivalent, PRight that A is practically better.
// The three sum to 1. NA reports a test with nothing to go on (too few
// values); the probabilities are then NaN: print "n/a".
type BayesResult struct {
	PLeft, PRope, PRight float64
	NA                   bool
}

func naBayes() BayesResult {
	nan := math.NaN()
	return BayesResult{PLeft: nan, PRope: nan, PRight: nan, NA: true}
}

// DefaultRope is the default half-width of the region of practical
// equivalence: one percentage point on accuracies in [0, 1].
const DefaultRope = 0.01

// SignedRankOptions configures BayesSignedRank. The zero value is not
// usable; start from DefaultSignedRankOptions.
type SignedRankOptions struct {
	// Rope is the half-width of the region of practical equivalence, in the
	// units of the differences (≥ 0).
	Rope float64
	// Prior is the weight s > 0 of the Dirichlet process's pseudo-observation
	// at difference 0 (Benavoli et al. use 0.5).
	Prior float64
	// Samples is the number of Monte-Carlo draws from the posterior; the
	// probabilities carry a standard error of at most 0.5/√Samples.
	Samples int
	// Seed seeds the PCG generator (math/rand/v2) that draws them: the
	// result is a deterministic function of the differences and options.
	Seed uint64
}

// DefaultSignedRankOptions returns ROPE 0.01, prior weight 0.5, 50,000
// samples (standard error ≤ 0.0023) and seed 1.
func DefaultSignedRankOptions() SignedRankOptions {
	return SignedRankOptions{Rope: DefaultRope, Prior: 0.5, Samples: 50000, Seed: 1}
}

// BayesSignedRank is the Bayesian signed-rank test of Benavoli, Corani,
// Demšar and Zaffalon, "Time for a change: a tutorial for comparing multiple
// classifiers through Bayesian analysis", JMLR 18 (2017), on the paired
// differences d (one per dataset, A − B).
//
// The posterior of the distribution of differences is a Dirichlet process
// whose base measure is the observations plus a pseudo-observation at 0 of
// weight Prior; a draw gives weights w ~ Dirichlet(Prior, 1, …, 1) on
// z = (0, d₁, …, dₙ). For each draw, θ_right = Σᵢⱼ wᵢwⱼ·H(zᵢ+zⱼ−2·rope) and
// θ_left = Σᵢⱼ wᵢwⱼ·H(−zᵢ−zⱼ−2·rope) over all ordered pairs (H the Heaviside
// step, ½ at 0), θ_rope = 1 − θ_left − θ_right. PLeft, PRope and PRight
// are the shares of draws in which that region has the largest θ (ties
// split evenly), as in the paper and the authors' baycomp package.
//
// With fewer than two differences (datasets) the result is NA, as for the
// Wilcoxon test: one dataset is no evidence about datasets. Non-finite differences or options
// out of range are errors.
func BayesSignedRank(d []float64, opt SignedRankOptions) (BayesResult, error) {
	if !(opt.Rope >= 0) || math.IsInf(opt.Rope, 0) {
		return BayesResult{}, fmt.Errorf("stats: ROPE must be finite and ≥ 0, got %v", opt.Rope)
	}
	if !(opt.Prior > 0) || math.IsInf(opt.Prior, 0) {
		return BayesResult{}, fmt.Errorf("stats: prior weight must be finite and > 0, got %v", opt.Prior)
	}
	if opt.Samples < 1 {
		return BayesResult{}, fmt.Errorf("stats: need at least 1 posterior sample, got %d", opt.Samples)
	}
	for i, v := range d {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return BayesResult{}, fmt.Errorf("stats: difference %d is %v", i, v)
		}
	}
	if len(d) < 2 {
		return naBayes(), nil
	}
	n := len(d) + 1
	z := make([]float64, n)
	copy(z[1:], d)
	// right[i][j] and left[i][j]: the Heaviside terms of pair (i, j).
	right := make([]float64, n*n)
	left := make([]float64, n*n)
	for i := range z {
		for j := range z {
			s := z[i] + z[j]
			right[i*n+j] = heaviside(s - 2*opt.Rope)
			left[i*n+j] = heaviside(-s - 2*opt.Rope)
		}
	}
	rng := rand.New(rand.NewPCG(opt.Seed, 0x5eed_b5a7))
	w := make([]float64, n)
	var wins [3]float64
	for range opt.Samples {
		total := 0.0
		for i := range w {
			shape := 1.0
			if i == 0 {
				shape = opt.Prior
			}
			w[i] = gammaRand(rng, shape)
			total += w[i]
		}
		for i := range w {
			w[i] /= total
		}
		var th [3]float64
		for i := range n {
			var l, r float64
			row := i * n
			for j := range n {
				l += left[row+j] * w[j]
				r += right[row+j] * w[j]
			}
			th[0] += w[i] * l
			th[2] += w[i] * r
		}
		th[1] = 1 - th[0] - th[2]
		best := math.Max(th[0], math.Max(th[1], th[2]))
		ties := 0.0
		for _, v := range th {
			if v == best {
				ties++
			}
		}
		for c, v := range th {
			if v == best {
				wins[c] += 1 / ties
			}
		}
	}
	s := float64(opt.Samples)
	return BayesResult{PLeft: wins[0] / s, PRope: wins[1] / s, PRight: wins[2] / s}, nil
}

func heaviside(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x == 0:
		return 0.5
	}
	return 0
}

// gammaRand draws from Gamma(shape, 1) by Marsaglia and Tsang (2000),
// boosting shapes below 1 with U^(1/shape) (their section 6).
func gammaRand(rng *rand.Rand, shape float64) float64 {
	if shape < 1 {
		u := rng.Float64()
		for u == 0 {
			u = rng.Float64()
		}
		return gammaRand(rng, shape+1) * math.Pow(u, 1/shape)
	}
	d := shape - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := rng.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := rng.Float64()
		if u < 1-0.0331*x*x*x*x {
			return d * v
		}
		if u > 0 && math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return d * v
		}
	}
}
