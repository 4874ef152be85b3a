package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/fgrtbench/fgrtbench/internal/fmath"
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
	if err := opt.check(d); err != nil {
		return BayesResult{}, err
	}
	if len(d) < 2 {
		return naBayes(), nil
	}
	n := len(d) + 1
	// Draws are made in input order (the prior's pseudo-observation first)
	// and then carried to z sorted ascending, so that a draw weighs the same
	// observation whatever the values: negating d mirrors the result.
	z := make([]float64, n)
	copy(z[1:], d)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return z[order[a]] < z[order[b]] })
	sorted := make([]float64, n)
	for k, i := range order {
		sorted[k] = z[i]
	}
	wl := newWalsh(sorted, opt.Rope)
	rng := rand.New(rand.NewPCG(opt.Seed, 0x5eed_b5a7))
	raw := make([]float64, n)
	w := make([]float64, n)
	var wins [3]float64
	for range opt.Samples {
		total := 0.0
		for i := range raw {
			shape := 1.0
			if i == 0 {
				shape = opt.Prior
			}
			raw[i] = gammaRand(rng, shape)
			total += raw[i]
		}
		for k, i := range order {
			w[k] = raw[i] / total
		}
		var th [3]float64
		th[0], th[2] = wl.theta(w)
		th[1] = 1 - th[0] - th[2]
		addWin(&wins, th)
	}
	s := float64(opt.Samples)
	return BayesResult{PLeft: wins[0] / s, PRope: wins[1] / s, PRight: wins[2] / s}, nil
}

// check refuses options and differences the test cannot use.
func (opt SignedRankOptions) check(d []float64) error {
	if !(opt.Rope >= 0) || math.IsInf(opt.Rope, 0) {
		return fmt.Errorf("stats: ROPE must be finite and ≥ 0, got %v", opt.Rope)
	}
	if !(opt.Prior > 0) || math.IsInf(opt.Prior, 0) {
		return fmt.Errorf("stats: prior weight must be finite and > 0, got %v", opt.Prior)
	}
	if opt.Samples < 1 {
		return fmt.Errorf("stats: need at least 1 posterior sample, got %d", opt.Samples)
	}
	for i, v := range d {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("stats: difference %d is %v", i, v)
		}
	}
	return nil
}

// addWin counts one posterior sample's win for the largest of its three
// probabilities (left, rope, right), split evenly among tied ones.
func addWin(wins *[3]float64, th [3]float64) {
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

// walsh holds, for sorted values z and a rope, where the Heaviside terms
// of the pairs (i, j) change along j. Because z is sorted, z[i]+z[j] is
// non-decreasing in j (floating-point addition is monotone), so row i of
// H(z[i]+z[j]−2·rope) is 0…0, ½…½, 1…1 and row i of H(−z[i]−z[j]−2·rope)
// is 1…1, ½…½, 0…0: the row sums weighted by w are prefix/suffix sums of
// w, which makes a posterior draw O(n) instead of O(n²).
type walsh struct {
	// Right: H = 1 for j ≥ rGT[i], ½ for rEQ[i] ≤ j < rGT[i].
	// Left: H = 1 for j < lLT[i], ½ for lLT[i] ≤ j < lEQ[i].
	rGT, rEQ, lLT, lEQ []int
	prefix             []float64 // scratch: prefix[j] = w[0]+…+w[j-1]
}

func newWalsh(z []float64, rope float64) *walsh {
	n := len(z)
	wl := &walsh{rGT: make([]int, n), rEQ: make([]int, n), lLT: make([]int, n), lEQ: make([]int, n), prefix: make([]float64, n+1)}
	for i := range z {
		wl.rGT[i], wl.rEQ[i], wl.lLT[i], wl.lEQ[i] = n, n, 0, 0
		for j := n - 1; j >= 0; j-- {
			switch s := z[i] + z[j]; {
			case s > 2*rope:
				wl.rGT[i], wl.rEQ[i] = j, j
			case s == 2*rope:
				wl.rEQ[i] = j
			}
		}
		for j := range z {
			switch s := -(z[i] + z[j]); {
			case s > 2*rope:
				wl.lLT[i], wl.lEQ[i] = j+1, j+1
			case s == 2*rope:
				wl.lEQ[i] = j + 1
			}
		}
	}
	return wl
}

// theta returns θ_left and θ_right of the weights w: Σᵢⱼ wᵢwⱼ·H(·) over
// all ordered pairs.
func (wl *walsh) theta(w []float64) (left, right float64) {
	n := len(w)
	for j, v := range w {
		wl.prefix[j+1] = wl.prefix[j] + v
	}
	total := wl.prefix[n]
	for i, wi := range w {
		gt := total - wl.prefix[wl.rGT[i]]
		eq := wl.prefix[wl.rGT[i]] - wl.prefix[wl.rEQ[i]]
		right += float64(wi * (gt + float64(eq/2)))
		lt := wl.prefix[wl.lLT[i]]
		leq := wl.prefix[wl.lEQ[i]] - lt
		left += float64(wi * (lt + float64(leq/2)))
	}
	return left, right
}

// gammaRand draws from Gamma(shape, 1) by Marsaglia and Tsang (2000),
// boosting shapes below 1 with U^(1/shape) (their section 6). Shape 1,
// every observation's weight, is the unit exponential, drawn directly.
func gammaRand(rng *rand.Rand, shape float64) float64 {
	if shape == 1 {
		return rng.ExpFloat64()
	}
	if shape < 1 {
		u := rng.Float64()
		for u == 0 {
			u = rng.Float64()
		}
		return gammaRand(rng, shape+1) * fmath.Pow(u, 1/shape)
	}
	d := shape - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := rng.NormFloat64()
		v := 1 + float64(c*x)
		if v <= 0 {
			continue
		}
		v = float64(v * v * v)
		u := rng.Float64()
		if u < 1-float64(0.0331*x*x*x*x) {
			return d * v
		}
		if u > 0 && fmath.Log(u) < float64(0.5*x*x)+float64(d*(1-v+fmath.Log(v))) {
			return d * v
		}
	}
}
