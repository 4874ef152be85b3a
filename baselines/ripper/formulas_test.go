package ripper

import (
	"math"
	"testing"

	"github.com/fgrtbench/fgrtbench/internal/fmath"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestFoilGain(t *testing.T) {
	cases := []struct {
		name           string
		p0, n0, p1, n1 int
		want           float64
	}{
		// 6·(log2(7/8) − log2(11/21)) = 6·(−0.192645 + 0.932886) = 4.441444
		{"refine", 10, 10, 6, 1, 4.441444357194403},
		// 3·(log2(4/5) − log2(4/7)) = 3·log2(7/5) = 3·0.485427 = 1.456280
		{"from empty", 3, 3, 3, 1, 1.4562804815107255},
		// adding a condition that changes nothing: p1·0 = 0
		{"no change", 3, 1, 3, 1, 0},
		// covering no positive: 0·(...) = 0
		{"no positive", 5, 5, 0, 3, 0},
		// 2·(log2(3/3) − log2(4/5)) = 2·0.321928 = 0.643856
		{"pure", 3, 1, 2, 0, 0.6438561897747246},
	}
	for _, c := range cases {
		if got := foilGainFrom(foilBase(c.p0, c.n0), c.p1, c.n1); !near(got, c.want, 1e-12) {
			t.Errorf("%s: FOIL gain = %.15g, want %.15g", c.name, got, c.want)
		}
	}
}

// TestFoilGainBound: over every rule of up to 60 positives and negatives
// and every refinement of it, the bound growRule skips candidates by is
// never below the gain it stands for and equals it for a refinement that
// keeps no negative, and the gain from a rule's base is the formula's.
func TestFoilGainBound(t *testing.T) {
	for p0 := 1; p0 <= 60; p0++ {
		for n0 := 1; n0 <= 60; n0++ {
			base := foilBase(p0, n0)
			for p1 := 1; p1 <= p0; p1++ {
				bound := foilGainBound(base, p1)
				for n1 := 0; n1 <= n0; n1++ {
					g := foilGainFrom(base, p1, n1)
					if g > bound || (n1 == 0 && g != bound) {
						t.Fatalf("(%d,%d) to (%d,%d): gain %v, bound %v", p0, n0, p1, n1, g, bound)
					}
					// The formula as one expression, as growRule had it.
					want := float64(p1) * (fmath.Log2(float64(p1+1)/float64(p1+n1+1)) - fmath.Log2(float64(p0+1)/float64(p0+n0+1)))
					if g != want {
						t.Fatalf("(%d,%d) to (%d,%d): foilGainFrom %v, the formula %v", p0, n0, p1, n1, g, want)
					}
				}
			}
		}
	}
}

func TestPruneMetrics(t *testing.T) {
	grow := []struct {
		p, n int
		want float64
	}{
		{5, 2, 0.5},  // (5−2+1)/(5+2+1) = 4/8
		{1, 3, -0.2}, // (1−3+1)/(1+3+1) = −1/5
		{0, 0, 1},    // (0+1)/(0+1): the Laplace term avoids 0/0
	}
	for _, c := range grow {
		if got := growPruneValue(c.p, c.n); got != c.want {
			t.Errorf("growPruneValue(%d,%d) = %v, want %v", c.p, c.n, got, c.want)
		}
	}
	acc := []struct {
		p, n, P, N int
		want       float64
	}{
		{4, 1, 5, 5, 0.8}, // TP 4 + TN (5−1) = 8 of 10
		{0, 0, 3, 7, 0.7}, // empty coverage: all 7 negatives right
		{3, 7, 3, 7, 0.3}, // covers everything: the 3 positives right
	}
	for _, c := range acc {
		if got := accuracyPruneValue(c.p, c.n, c.P, c.N); got != c.want {
			t.Errorf("accuracyPruneValue(%d,%d,%d,%d) = %v, want %v", c.p, c.n, c.P, c.N, got, c.want)
		}
	}
}

func TestTheoryBits(t *testing.T) {
	cases := []struct {
		k, n int
		want float64
	}{
		// pr = 2/20 = 0.1; S = 2·log2(10) + 18·log2(1/0.9) = 6.643856 + 2.736063 = 9.379919;
		// 0.5·(log2 2 + S) = 0.5·10.379919 = 5.189956
		{2, 20, 5.1899559358928125},
		// k = 1: S = log2(20) + 19·log2(1/0.95) = 4.321928 + 1.406011 = 5.727939; 0.5·(0 + S) = 2.863970
		{1, 20, 2.8639695711595605},
		// the empty rule is charged as one condition
		{0, 20, 2.8639695711595605},
		// pr = 3/200: S = 3·log2(66.67) + 197·log2(1/0.985) = 18.175 + 4.297; 0.5·(log2 3 + S) = 12.028552
		{3, 200, 12.028552260298241},
		// pr = 1/2: S = 1 + 1 = 2; 0.5·(0 + 2) = 1 → max(1, 1) = 1
		{1, 2, 1},
		// k = n: wittgenstein divides by zero; here the (n−k) term is 0 → 0.5·0 → floor of 1 bit
		{1, 1, 1},
	}
	for _, c := range cases {
		if got := theoryBits(c.k, c.n); !near(got, c.want, 1e-12) {
			t.Errorf("theoryBits(%d,%d) = %.15g, want %.15g", c.k, c.n, got, c.want)
		}
	}
}

func TestLog2Binomial(t *testing.T) {
	lg := newLog2Table(5000)
	cases := []struct {
		n, r int
		want float64
		tol  float64
	}{
		{10, 3, 6.906890595608519, 1e-12},      // C(10,3) = 120, log2 120
		{52, 5, 21.309502999115157, 1e-12},     // C(52,5) = 2598960
		{5, 0, 0, 0},                           // C(5,0) = 1
		{5, 5, 0, 0},                           // C(5,5) = 1
		{0, 0, 0, 0},                           // C(0,0) = 1
		{7, 1, math.Log2(7), 1e-12},            // C(7,1) = 7
		{5000, 1234, 4024.5777126573444, 1e-9}, // Python: math.log2(math.comb(5000, 1234))
	}
	for _, c := range cases {
		if got := lg.binom(c.n, c.r); !near(got, c.want, c.tol) {
			t.Errorf("log2 C(%d,%d) = %.15g, want %.15g", c.n, c.r, got, c.want)
		}
	}
	// N = 20 examples, 8 covered of which fp = 2 negatives, fn = 3 uncovered
	// positives: log2 C(8,2) + log2 C(12,3) = log2 28 + log2 220 = 4.807355 + 7.781360
	if got := lg.exceptionBits(20, 8, 2, 3); !near(got, 12.588714635582264, 1e-12) {
		t.Errorf("exceptionBits = %.15g, want 12.588714635582264", got)
	}
}
