package stats

import (
	"math"
	"testing"
)

// TestNadeauBengioHand: d = (0.01, 0.03, 0.02, 0.04) from 2×2-fold CV
// (ρ = 1/2, n_test/n_train = 1): mean 0.025, σ̂² = 0.0005/3, so
// t = 0.025/√((1/4 + 1)·0.0005/3) = 0.025/√(0.000208333) = 1.7320508 (√3),
// against the naive paired t = 0.025/√(0.0005/12) = 3.8729833 that treats
// folds as independent (ρ = 0; scipy.stats.ttest_1samp gives that t with
// p = 0.0305). With 3 df, 2·P(T > √3) = 0.18169011 (scipy.stats.t.sf).
func TestNadeauBengioHand(t *testing.T) {
	d := []float64{0.01, 0.03, 0.02, 0.04}
	nb, err := NadeauBengio(d, KFoldRho(2))
	if err != nil {
		t.Fatal(err)
	}
	near(t, "NB t", nb.T, math.Sqrt(3), 1e-12)
	near(t, "NB p", nb.P, 0.18169011, 1e-8)
	naive, _ := NadeauBengio(d, 0)
	near(t, "naive t", naive.T, 3.8729833462, 1e-9)
	if !(naive.P < nb.P) {
		t.Errorf("the correction must widen p: naive %v, corrected %v", naive.P, nb.P)
	}
	// Mirroring the differences mirrors t and keeps p.
	neg, _ := NadeauBengio([]float64{-0.01, -0.03, -0.02, -0.04}, KFoldRho(2))
	near(t, "mirrored t", neg.T, -nb.T, 1e-12)
	near(t, "mirrored p", neg.P, nb.P, 1e-15)
}

func TestCorrelatedTestsNAAndDegenerate(t *testing.T) {
	for _, d := range [][]float64{nil, {0.02}} {
		b, err := CorrelatedBayesTTest(d, 0.1, 0.01)
		if err != nil || !b.NA || !math.IsNaN(b.PRope) {
			t.Errorf("Bayes %v: %+v %v, want NA", d, b, err)
		}
		nb, err := NadeauBengio(d, 0.1)
		if err != nil || !nb.NA || !math.IsNaN(nb.P) || nb.N != len(d) {
			t.Errorf("NB %v: %+v %v, want NA", d, nb, err)
		}
	}
	// No variation: the t-test has no variance to scale by (NA); the
	// Bayesian posterior is a point mass at the mean.
	nb, _ := NadeauBengio([]float64{0.02, 0.02, 0.02}, 0.1)
	if !nb.NA || !math.IsNaN(nb.T) {
		t.Errorf("constant differences: %+v, want NA", nb)
	}
	for _, c := range []struct {
		d                   []float64
		left, inRope, right float64
	}{
		{[]float64{0.02, 0.02, 0.02}, 0, 0, 1},
		{[]float64{-0.02, -0.02}, 1, 0, 0},
		{[]float64{0.005, 0.005}, 0, 1, 0},
	} {
		b, err := CorrelatedBayesTTest(c.d, 0.1, 0.01)
		if err != nil || b.NA || b.PLeft != c.left || b.PRope != c.inRope || b.PRight != c.right {
			t.Errorf("%v: %+v %v, want (%v, %v, %v)", c.d, b, err, c.left, c.inRope, c.right)
		}
	}
}

// TestCorrelatedBayesInvariants: the three probabilities sum to 1; a larger
// ρ (more overlap between training sets) widens the posterior, moving mass
// out of the tails nearest the mean; a wider rope only gains mass.
func TestCorrelatedBayesInvariants(t *testing.T) {
	d := []float64{0.03, 0.01, 0.04, 0.02, 0.05, 0.00, 0.03, 0.02, 0.04, 0.01}
	lo, _ := CorrelatedBayesTTest(d, 0, 0.01)
	hi, _ := CorrelatedBayesTTest(d, KFoldRho(2), 0.01)
	for _, r := range []BayesResult{lo, hi} {
		near(t, "sum", r.PLeft+r.PRope+r.PRight, 1, 1e-12)
	}
	if !(hi.PRight < lo.PRight && hi.PLeft > lo.PLeft) {
		t.Errorf("ρ=0 %+v vs ρ=½ %+v: correlation should spread the posterior", lo, hi)
	}
	wide, _ := CorrelatedBayesTTest(d, KFoldRho(10), 0.03)
	narrow, _ := CorrelatedBayesTTest(d, KFoldRho(10), 0.01)
	if !(wide.PRope > narrow.PRope) {
		t.Errorf("rope 0.03 %+v not above rope 0.01 %+v", wide, narrow)
	}
}

func TestCorrelatedTestsErrors(t *testing.T) {
	d := []float64{0.1, 0.2, 0.3}
	for _, rho := range []float64{-0.1, 1, math.NaN()} {
		if _, err := CorrelatedBayesTTest(d, rho, 0.01); err == nil {
			t.Errorf("Bayes rho %v: no error", rho)
		}
		if _, err := NadeauBengio(d, rho); err == nil {
			t.Errorf("NB rho %v: no error", rho)
		}
	}
	if _, err := CorrelatedBayesTTest(d, 0.1, -1); err == nil {
		t.Error("negative rope: no error")
	}
	if _, err := NadeauBengio([]float64{1, math.NaN()}, 0.1); err == nil {
		t.Error("NaN difference: no error")
	}
}
