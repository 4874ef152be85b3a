package stats

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"sort"
	"strconv"

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
	z := make([]float64, len(d)+1)
	copy(z[1:], d)
	order := sortedOrder(len(z), func(a, b int) bool { return z[a] < z[b] })
	sorted := make([]float64, len(z))
	for k, i := range order {
		sorted[k] = z[i]
	}
	return signedRankDraws(order, newFloatWalsh(sorted, opt.Rope), opt), nil
}

// BayesSignedRankExact is BayesSignedRank on differences known exactly,
// as rationals (e.g. differences of accuracies computed from correct
// counts), against the ROPE as written: opt.Rope's shortest decimal form,
// so 0.01 is 1/100. A Walsh sum at exactly twice the ROPE then gets the
// step's ½ on either side, which floats decide by rounding noise: one
// accuracy of 0.96 minus 0.95 is 0.010000000000000009 in float64, above a
// ROPE of 0.01. Posterior draws are the same as BayesSignedRank's, so the
// two agree wherever no sum lies on the boundary.
func BayesSignedRankExact(d []*big.Rat, opt SignedRankOptions) (BayesResult, error) {
	fl := make([]float64, len(d))
	for i, v := range d {
		if v == nil {
			return BayesResult{}, fmt.Errorf("stats: difference %d is missing", i)
		}
		fl[i], _ = v.Float64()
	}
	if err := opt.check(fl); err != nil {
		return BayesResult{}, err
	}
	if len(d) < 2 {
		return naBayes(), nil
	}
	rope, ok := new(big.Rat).SetString(strconv.FormatFloat(opt.Rope, 'g', -1, 64))
	if !ok {
		return BayesResult{}, fmt.Errorf("stats: ROPE %v is not a decimal", opt.Rope)
	}
	twice := new(big.Rat).Add(rope, rope)
	z := make([]*big.Rat, len(d)+1)
	z[0] = new(big.Rat)
	copy(z[1:], d)
	order := sortedOrder(len(z), func(a, b int) bool { return z[a].Cmp(z[b]) < 0 })
	sorted := make([]*big.Rat, len(z))
	for k, i := range order {
		sorted[k] = z[i]
	}
	sum, neg := new(big.Rat), new(big.Rat)
	wl := newWalsh(len(z), func(i, j int) (right, left int) {
		sum.Add(sorted[i], sorted[j])
		neg.Neg(sum)
		return sum.Cmp(twice), neg.Cmp(twice)
	})
	return signedRankDraws(order, wl, opt), nil
}

// sortedOrder returns the indices 0..n-1 sorted stably by less.
func sortedOrder(n int, less func(a, b int) bool) []int {
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return less(order[a], order[b]) })
	return order
}

// cmpFloat is −1, 0 or +1 as a is below, equal to or above b.
func cmpFloat(a, b float64) int {
	switch {
	case a > b:
		return 1
	case a == b:
		return 0
	}
	return -1
}

// signedRankDraws samples the posterior: order carries the input's
// positions (the prior's pseudo-observation first) to the sorted ones wl
// was built on. Draws are made in input order and then carried to the
// sorted z, so that a draw weighs the same observation whatever the
// values: negating d mirrors the result.
func signedRankDraws(order []int, wl *walsh, opt SignedRankOptions) BayesResult {
	n := len(order)
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
	return BayesResult{PLeft: wins[0] / s, PRope: wins[1] / s, PRight: wins[2] / s}
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

// newWalsh builds the boundaries for n sorted values from cmp(i, j),
// which compares z[i]+z[j] with 2·rope (right) and −(z[i]+z[j]) with
// 2·rope (left), each −1, 0 or +1: floats or exact rationals alike.
func newWalsh(n int, cmp func(i, j int) (right, left int)) *walsh {
	wl := &walsh{rGT: make([]int, n), rEQ: make([]int, n), lLT: make([]int, n), lEQ: make([]int, n), prefix: make([]float64, n+1)}
	for i := range n {
		wl.rGT[i], wl.rEQ[i], wl.lLT[i], wl.lEQ[i] = n, n, 0, 0
		for j := n - 1; j >= 0; j-- {
			switch r, _ := cmp(i, j); r {
			case 1:
				wl.rGT[i], wl.rEQ[i] = j, j
			case 0:
				wl.rEQ[i] = j
			}
		}
		for j := range n {
			switch _, l := cmp(i, j); l {
			case 1:
				wl.lLT[i], wl.lEQ[i] = j+1, j+1
			case 0:
				wl.lEQ[i] = j + 1
			}
		}
	}
	return wl
}

// newFloatWalsh is newWalsh on sorted float64 values.
func newFloatWalsh(z []float64, rope float64) *walsh {
	return newWalsh(len(z), func(i, j int) (right, left int) {
		return cmpFloat(z[i]+z[j], 2*rope), cmpFloat(-(z[i] + z[j]), 2*rope)
	})
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
		return expFloat64(rng)
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
		x := normFloat64(rng)
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
