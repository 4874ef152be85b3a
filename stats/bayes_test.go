package stats

import (
	"math"
	"math/big"
	"math/rand/v2"
	"sort"
	"testing"
)

func TestBayesSignedRankCases(t *testing.T) {
	opt := DefaultSignedRankOptions()
	cases := []struct {
		name                string
		d                   []float64
		rope                float64
		left, inRope, right float64 // exact expectations (tolerance 0)
	}{
		// Every Walsh sum, the prior's included, lies inside ±2·rope:
		// θ_rope = 1 in every draw.
		{"all inside the rope", []float64{0.004, -0.003, 0.002, 0}, 0.01, 0, 1, 0},
		// Without a rope every Walsh sum is exactly 0: H gives ½ to each
		// side, θ_left = θ_right = ½ in every draw, a tie split evenly.
		{"zero rope, all equal", []float64{0, 0, 0}, 0, 0.5, 0, 0.5},
	}
	for _, c := range cases {
		o := opt
		o.Rope = c.rope
		got, err := BayesSignedRank(c.d, o)
		if err != nil {
			t.Fatal(err)
		}
		if got.NA || got.PLeft != c.left || got.PRope != c.inRope || got.PRight != c.right {
			t.Errorf("%s: %+v, want (%v, %v, %v)", c.name, got, c.left, c.inRope, c.right)
		}
	}
}

// TestBayesSignedRankInvariants: probabilities sum to 1; negating the
// differences mirrors left and right exactly (the same draws are used); the
// same seed gives the same result, another seed a result within Monte-Carlo
// error (0.01, four standard errors at 50,000 draws).
func TestBayesSignedRankInvariants(t *testing.T) {
	d := []float64{0.012, -0.004, 0.02, 0.009, 0.015, -0.011, 0.03, 0.001}
	neg := make([]float64, len(d))
	for i, v := range d {
		neg[i] = -v
	}
	opt := DefaultSignedRankOptions()
	a, _ := BayesSignedRank(d, opt)
	b, _ := BayesSignedRank(neg, opt)
	again, _ := BayesSignedRank(d, opt)
	near(t, "sum", a.PLeft+a.PRope+a.PRight, 1, 1e-12)
	if a != again {
		t.Errorf("same seed: %+v then %+v", a, again)
	}
	if a.PLeft != b.PRight || a.PRight != b.PLeft || a.PRope != b.PRope {
		t.Errorf("mirror: %+v vs %+v", a, b)
	}
	opt.Seed = 99
	c, _ := BayesSignedRank(d, opt)
	if c == a {
		t.Errorf("seed 99 gave the very same result as seed 1: %+v", c)
	}
	near(t, "other seed P(right)", c.PRight, a.PRight, 0.01)
	near(t, "other seed P(rope)", c.PRope, a.PRope, 0.01)
}

func TestBayesSignedRankNAAndErrors(t *testing.T) {
	opt := DefaultSignedRankOptions()
	for _, d := range [][]float64{nil, {0.2}} {
		got, err := BayesSignedRank(d, opt)
		if err != nil || !got.NA || !math.IsNaN(got.PLeft) || !math.IsNaN(got.PRope) || !math.IsNaN(got.PRight) {
			t.Errorf("%v: %+v %v, want NA with NaN probabilities", d, got, err)
		}
	}
	bad := map[string]func(*SignedRankOptions){
		"negative rope": func(o *SignedRankOptions) { o.Rope = -0.01 },
		"NaN rope":      func(o *SignedRankOptions) { o.Rope = math.NaN() },
		"zero prior":    func(o *SignedRankOptions) { o.Prior = 0 },
		"no samples":    func(o *SignedRankOptions) { o.Samples = 0 },
	}
	for name, f := range bad {
		o := opt
		f(&o)
		if _, err := BayesSignedRank([]float64{0.1, 0.2}, o); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := BayesSignedRank([]float64{0.1, math.Inf(1)}, opt); err == nil {
		t.Error("infinite difference: no error")
	}
}

// TestGammaRandMoments: the Dirichlet weights come from gammaRand; its
// sample mean and variance must match Gamma(shape, 1) (both = shape) within
// five standard errors of 200,000 draws.
func TestGammaRandMoments(t *testing.T) {
	for _, shape := range []float64{0.5, 1, 3.5} {
		rng := newTestRand(7)
		const n = 200000
		var s, s2 float64
		for range n {
			x := gammaRand(rng, shape)
			s += x
			s2 += x * x
		}
		mean := s / n
		variance := s2/n - mean*mean
		// sd of the mean is √(shape/n); of the variance about √(
		// (μ4−σ⁴)/n) with μ4 = 3σ⁴+6·shape for Gamma.
		near(t, "gamma mean", mean, shape, 5*math.Sqrt(shape/n))
		near(t, "gamma variance", variance, shape, 5*math.Sqrt((2*shape*shape+6*shape)/n))
	}
}

func newTestRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed)) }

// TestWalshThetaMatchesDefinition checks the O(n) prefix-sum evaluation of
// θ_left and θ_right against the O(n²) definition Σᵢⱼ wᵢwⱼ·H(±(zᵢ+zⱼ)−2r),
// on values with many exact ties at ±2·rope (H = ½ there).
func TestWalshThetaMatchesDefinition(t *testing.T) {
	h := func(x float64) float64 {
		switch {
		case x > 0:
			return 1
		case x == 0:
			return 0.5
		}
		return 0
	}
	rng := newTestRand(3)
	for trial := range 300 {
		n := 1 + rng.IntN(12)
		z := make([]float64, n)
		for i := range z {
			z[i] = float64(rng.IntN(9)-4) / 100 // multiples of 0.01: ties
		}
		sort.Float64s(z)
		rope := float64(rng.IntN(3)) / 100
		w := make([]float64, n)
		for i := range w {
			w[i] = rng.Float64()
		}
		var wantL, wantR float64
		for i := range z {
			for j := range z {
				s := z[i] + z[j]
				wantR += w[i] * w[j] * h(s-2*rope)
				wantL += w[i] * w[j] * h(-s-2*rope)
			}
		}
		gotL, gotR := newFloatWalsh(z, rope).theta(w)
		if math.Abs(gotL-wantL) > 1e-12 || math.Abs(gotR-wantR) > 1e-12 {
			t.Fatalf("trial %d z=%v rope=%v: θ (%v, %v), want (%v, %v)", trial, z, rope, gotL, gotR, wantL, wantR)
		}
	}
}

// TestBayesSignedRankExactAtTheRope: differences of exactly the ROPE
// width (1 pp), as accuracies computed from correct counts give them
// (19/20 − 18/20 of a 20-row fold), get the step's ½ on the boundary.
// Float subtraction puts 0.96 − 0.95 at 0.010000000000000009, above the
// ROPE, which moves the posterior; the exact test agrees with the float
// test on the exactly rounded values (0.01 + 0.01 = 0.02 = 2·0.01 in
// float64) and, away from the boundary, with the float test on any
// rounding.
func TestBayesSignedRankExactAtTheRope(t *testing.T) {
	r := func(a, b int64) *big.Rat { return big.NewRat(a, b) }
	opt := DefaultSignedRankOptions()
	hi, lo := 0.96, 0.95
	noisy := hi - lo // at run time: 0.010000000000000009 (a constant expression would be exact)
	cases := []struct {
		name  string
		exact []*big.Rat
		clean []float64 // the nearest float64 of each exact difference
		float []float64 // as float subtraction of accuracies gives them
		moved bool      // the float result differs from the exact one
	}{
		{"N=2 both at the rope", []*big.Rat{r(1, 100), r(1, 100)}, []float64{0.01, 0.01}, []float64{noisy, noisy}, true},
		{"N=3 all at the rope", []*big.Rat{r(1, 100), r(1, 100), r(1, 100)}, []float64{0.01, 0.01, 0.01}, []float64{noisy, noisy, noisy}, true},
		{"N=5 four at the rope", []*big.Rat{r(1, 100), r(1, 100), r(1, 100), r(1, 100), r(-1, 50)}, []float64{0.01, 0.01, 0.01, 0.01, -0.02}, []float64{noisy, noisy, noisy, noisy, -0.02}, true},
		{"N=3 away from the rope", []*big.Rat{r(1, 40), r(-1, 200), r(3, 100)}, []float64{0.025, -0.005, 0.03}, []float64{0.025, -0.005, 0.03}, false},
	}
	for _, c := range cases {
		got, err := BayesSignedRankExact(c.exact, opt)
		if err != nil {
			t.Fatal(err)
		}
		clean, _ := BayesSignedRank(c.clean, opt)
		fl, _ := BayesSignedRank(c.float, opt)
		if got != clean {
			t.Errorf("%s: exact %+v, float on exact values %+v", c.name, got, clean)
		}
		if (got != fl) != c.moved {
			t.Errorf("%s: exact %+v, float with rounding noise %+v (moved: want %v)", c.name, got, fl, c.moved)
		}
		near(t, c.name+" sum", got.PLeft+got.PRope+got.PRight, 1, 1e-12)
	}
	if got, _ := BayesSignedRankExact([]*big.Rat{r(1, 100)}, opt); !got.NA {
		t.Errorf("N=1: %+v, want NA", got)
	}
	// A boundary no float64 input can hit: 7/100 + (−1/20) is exactly
	// 2/100, while 0.07 + (−0.05) is 0.020000000000000004 in float64, so
	// even the exactly rounded differences put that pair right of the
	// ROPE.
	pair := []*big.Rat{r(7, 100), r(-1, 20), r(7, 100), r(-1, 20)}
	got, _ := BayesSignedRankExact(pair, opt)
	fl, _ := BayesSignedRank([]float64{0.07, -0.05, 0.07, -0.05}, opt)
	if got == fl {
		t.Errorf("7/100 and −1/20: exact and float agree (%+v), the float boundary is not crossed", got)
	}
}
