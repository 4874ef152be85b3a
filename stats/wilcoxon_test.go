package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestWilcoxonScipyExample is the example of scipy.stats.wilcoxon's
// documentation: 15 differences without ties or zeros, exact two-sided
// p = 0.041259765625 (= 1352/2^15); W- = 10 + 14 = 24, W+ = 96.
func TestWilcoxonScipyExample(t *testing.T) {
	d := []float64{6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75}
	res, err := WilcoxonDiffs(d)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Exact || res.N != 15 || res.Zeros != 0 {
		t.Fatalf("exact=%v n=%d zeros=%d, want exact, 15, 0", res.Exact, res.N, res.Zeros)
	}
	if res.WPlus != 96 || res.WMinus != 24 || res.Statistic != 24 {
		t.Errorf("W+=%v W-=%v T=%v, want 96, 24, 24", res.WPlus, res.WMinus, res.Statistic)
	}
	if res.P != 0.041259765625 {
		t.Errorf("p = %.15g, want 0.041259765625", res.P)
	}
	// Swapping the sign of every difference does not change a two-sided test.
	neg := make([]float64, len(d))
	for i, v := range d {
		neg[i] = -v
	}
	res2, _ := WilcoxonDiffs(neg)
	if res2.P != res.P {
		t.Errorf("p after sign flip %v != %v", res2.P, res.P)
	}
}

// TestWilcoxonDemsarTiesAndZeros uses C4.5+m minus C4.5 from Demšar (2006)
// Table 6 (his Table 2 example). Two differences are zero and dropped
// (zero_method "wilcox"), leaving 12; |0.005| appears twice (ranks 1.5), so
// the normal approximation applies. By hand: W- = 1.5 (iris) + 5 (breast
// cancer) = 6.5, W+ = 71.5; mean 39, variance 162.5 − (2³−2)/48 = 162.375;
// z = (6.5 − 39 + 0.5)/√162.375 = −2.51125; p = 2Φ(z) ≈ 0.01203.
func TestWilcoxonDemsarTiesAndZeros(t *testing.T) {
	x := make([]float64, len(demsarTable6))
	y := make([]float64, len(demsarTable6))
	for i, row := range demsarTable6 {
		x[i], y[i] = row[1], row[0]
	}
	res, err := Wilcoxon(x, y)
	if err != nil {
		t.Fatal(err)
	}
	if res.Exact || !res.Ties || res.N != 12 || res.Zeros != 2 {
		t.Fatalf("exact=%v ties=%v n=%d zeros=%d", res.Exact, res.Ties, res.N, res.Zeros)
	}
	near(t, "W+", res.WPlus, 71.5, 1e-9)
	near(t, "W-", res.WMinus, 6.5, 1e-9)
	near(t, "z", res.Z, -32/math.Sqrt(162.375), 1e-12)
	near(t, "p", res.P, 0.01203, 0.00002)
}

func TestWilcoxonExactTailProperties(t *testing.T) {
	for n := 1; n <= ExactMaxN; n++ {
		if n > 25 && n != ExactMaxN {
			continue // every n costs O(n⁴); the largest stands for the rest
		}
		max := n * (n + 1) / 2
		if got := exactLowerTail(n, max); got != 1 {
			t.Fatalf("n=%d: P(W<=max) = %v, want 1", n, got)
		}
		// Symmetry: P(W <= w) = P(W >= max-w) = 1 - P(W <= max-w-1).
		for w := 0; w < max; w++ {
			a := exactLowerTail(n, w)
			b := 1 - exactLowerTail(n, max-w-1)
			if math.Abs(a-b) > 1e-12 {
				t.Fatalf("n=%d w=%d: asymmetric tail %v vs %v", n, w, a, b)
			}
		}
	}
	// n=5: only the empty sign pattern gives W=0: P = 1/32.
	if got := exactLowerTail(5, 0); got != 1.0/32 {
		t.Errorf("P(W<=0 | n=5) = %v, want 1/32", got)
	}
}

// TestWilcoxonLargeSampleUsesNormal: above ExactMaxN (50, scipy's switch
// in method="auto") the normal approximation applies; at 50 the exact
// distribution still does.
func TestWilcoxonLargeSampleUsesNormal(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	d := make([]float64, 50)
	for i := range d {
		d[i] = rng.NormFloat64() + 0.5
	}
	if res, err := WilcoxonDiffs(d); err != nil || !res.Exact {
		t.Errorf("n=50: exact=%v %v, want exact", res.Exact, err)
	}
	d = make([]float64, 51)
	for i := range d {
		d[i] = rng.NormFloat64() + 0.5
	}
	res, err := WilcoxonDiffs(d)
	if err != nil {
		t.Fatal(err)
	}
	if res.Exact || res.P <= 0 || res.P >= 1 {
		t.Errorf("n=51: exact=%v p=%v", res.Exact, res.P)
	}
}

func TestWilcoxonEdgeCases(t *testing.T) {
	if _, err := Wilcoxon([]float64{1, 2}, []float64{1}); err == nil {
		t.Error("mismatched lengths: no error")
	}
	if _, err := WilcoxonDiffs([]float64{1, math.NaN()}); err == nil {
		t.Error("NaN: no error")
	}
	// Tests with nothing to go on are "not applicable": NA set, P NaN (so no
	// caller can print p = 1.0000 for a comparison over no data).
	for _, c := range []struct {
		name string
		d    []float64
		n, z int
	}{
		{"no datasets", nil, 0, 0},
		{"one dataset", []float64{0.3}, 1, 0},
		{"one zero", []float64{0}, 0, 1},
		{"all zero", []float64{0, 0, 0}, 0, 3},
		{"float-noise zeros", []float64{0.1 + 0.2 - 0.3, 0}, 0, 2},
	} {
		res, err := WilcoxonDiffs(c.d)
		if err != nil || !res.NA || !math.IsNaN(res.P) || res.N != c.n || res.Zeros != c.z {
			t.Errorf("%s: %+v %v; want NA, P NaN, N %d, zeros %d", c.name, res, err, c.n, c.z)
		}
	}
	// Two differences, one zero: a real (uninformative) test, not NA.
	res, err := WilcoxonDiffs([]float64{0, 0.3})
	if err != nil || res.NA || res.P != 1 {
		t.Errorf("one of two non-zero: %+v %v, want P = 1", res, err)
	}
}

// TestHolmHandExample: p = (0.01, 0.04, 0.03, 0.005); sorted 0.005·4 = 0.02,
// 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 = 0.04 → running max 0.06.
func TestHolmHandExample(t *testing.T) {
	cases := []struct {
		in, want []float64
	}{
		{[]float64{0.01, 0.04, 0.03, 0.005}, []float64{0.03, 0.06, 0.06, 0.02}},
		{[]float64{0.5, 0.5}, []float64{1, 1}},
		{[]float64{0.2}, []float64{0.2}},
		{nil, []float64{}},
		// A not-applicable test (NaN) stays NaN and leaves the family: the
		// other two are corrected as a family of 2 (0.01·2, 0.04·1 → 0.04).
		{[]float64{0.01, math.NaN(), 0.04}, []float64{0.02, math.NaN(), 0.04}},
		{[]float64{math.NaN()}, []float64{math.NaN()}},
	}
	for _, c := range cases {
		got, err := Holm(c.in)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(c.want) {
			t.Fatalf("Holm(%v) = %v", c.in, got)
		}
		for i := range got {
			if math.IsNaN(c.want[i]) {
				if !math.IsNaN(got[i]) {
					t.Errorf("Holm(%v)[%d] = %v, want NaN", c.in, i, got[i])
				}
				continue
			}
			near(t, "holm", got[i], c.want[i], 1e-15)
		}
	}
	if _, err := Holm([]float64{0.1, 1.5}); err == nil {
		t.Error("p > 1: no error")
	}
}

// TestHolmMonotone: adjusted p-values are ≥ raw ones and keep the order of
// the raw p-values.
func TestHolmMonotone(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 100; trial++ {
		p := make([]float64, 1+rng.IntN(8))
		for i := range p {
			p[i] = rng.Float64()
		}
		adj, _ := Holm(p)
		for i := range p {
			if adj[i] < p[i] || adj[i] > 1 {
				t.Fatalf("adj %v < raw %v", adj[i], p[i])
			}
			for j := range p {
				if p[i] < p[j] && adj[i] > adj[j] {
					t.Fatalf("order broken: %v %v -> %v %v", p[i], p[j], adj[i], adj[j])
				}
			}
		}
	}
}

// TestWilcoxonZeroMethodsReference pins each zero-difference convention to
// the scipy call WilcoxonZero documents for it, on differences with zeros,
// ties, more than 50 values and none of these. 1e-9.
func TestWilcoxonZeroMethodsReference(t *testing.T) {
	ref := loadReference(t)
	if len(ref.WilcoxonZero) == 0 {
		t.Fatal("reference.json has no wilcoxon_zero section")
	}
	for i, c := range ref.WilcoxonZero {
		for _, zm := range []struct {
			name string
			want wilcoxonReferenceP
		}{{ZeroWilcox, c.Wilcox}, {ZeroPratt, c.Pratt}, {ZeroSplit, c.Zsplit}} {
			res, err := WilcoxonZero(c.Diffs, zm.name)
			if err != nil {
				t.Fatal(err)
			}
			if res.Exact != zm.want.Exact || res.NA || res.ZeroMethod != zm.name {
				t.Errorf("case %d %s: exact %v NA %v zero method %q, want exact %v", i, zm.name, res.Exact, res.NA, res.ZeroMethod, zm.want.Exact)
			}
			near(t, "Wilcoxon statistic "+zm.name, res.Statistic, zm.want.Statistic, 1e-9)
			near(t, "Wilcoxon p "+zm.name, res.P, zm.want.P, 1e-9)
		}
	}
	// Case 0 is the situation of FGRT against FGRT* in the clean study:
	// six non-zero differences and four zeros over ten datasets. Dropping
	// the zeros, the exact p-value is 0.5625; scipy.stats.wilcoxon(d) with
	// its defaults switches to the normal approximation without continuity
	// correction and gives 0.463 (docs/report.md states both).
	c := ref.WilcoxonZero[0]
	res, _ := WilcoxonZero(c.Diffs, ZeroWilcox)
	if res.P != 0.5625 || !res.Exact || res.N != 6 || res.Zeros != 4 {
		t.Errorf("FGRT vs FGRT* situation: %+v, want exact p = 0.5625 over 6 differences", res)
	}
	near(t, "scipy default p", c.ScipyDefaultP, 0.4631, 0.00005)
}

// TestWilcoxonZeroMethodHand: by hand, d = (0, 1, 2, −3): wilcox ranks
// 1, 2, 3 → W+ = 3, W− = 3, exact p = 1; zsplit ranks 1..4 (zero rank 1
// split) → W+ = 2 + 3 + 0.5 = 5.5, W− = 4.5, T = 4.5, mean 5, variance
// 7.5, z = 0, p = 1; pratt ranks 2, 3, 4 → W+ = 5, W− = 4, mean
// 5 − 0.5 = 4.5, variance (180 − 6)/24 = 7.25, T = 4 is 0.5 below the mean,
// the continuity correction leaves 0: p = 1. An unknown name is an error.
func TestWilcoxonZeroMethodHand(t *testing.T) {
	d := []float64{0, 1, 2, -3}
	for _, c := range []struct {
		zm           string
		wPlus, wMin  float64
		exact        bool
		p            float64
		n, zeros     int
		continuityOn bool
	}{
		{ZeroWilcox, 3, 3, true, 1, 3, 1, false},
		{ZeroSplit, 5.5, 4.5, false, 1, 3, 1, true},
		{ZeroPratt, 5, 4, false, 1, 3, 1, true},
	} {
		res, err := WilcoxonZero(d, c.zm)
		if err != nil {
			t.Fatal(err)
		}
		if res.WPlus != c.wPlus || res.WMinus != c.wMin || res.Exact != c.exact || res.P != c.p || res.N != c.n || res.Zeros != c.zeros || res.Continuity != c.continuityOn {
			t.Errorf("%s: %+v", c.zm, res)
		}
	}
	if _, err := WilcoxonZero(d, "drop"); err == nil {
		t.Error("unknown zero method: no error")
	}
}

// TestWilcoxonMinP: the smallest p at n datasets is scipy 1.10's
// wilcoxon(ones(n), method='approx', correction=True).pvalue up to n = 10
// and wilcoxon(range(1, n+1), method='exact').pvalue from 11, and the
// project's test reaches it on those inputs.
func TestWilcoxonMinP(t *testing.T) {
	for _, c := range []struct {
		n     int
		want  float64
		exact bool
	}{{1, 1.0, false}, {2, 0.3457785861511603, false}, {3, 0.14891467317876572, false}, {5, 0.03688842570704987, false},
		{10, 0.0019041950430043904, false}, {11, 0.0009765625, true}, {60, 9.807005864472001e-15, false}} {
		if got := WilcoxonMinP(c.n); math.Abs(got-c.want) > 1e-9*c.want {
			t.Errorf("n=%d: %v, want %v", c.n, got, c.want)
		}
		d := make([]float64, c.n)
		for i := range d {
			d[i] = 1
			if c.exact {
				d[i] = float64(i + 1)
			}
		}
		if w, err := WilcoxonDiffs(d); c.n > 1 && (err != nil || w.NA || math.Abs(w.P-c.want) > 1e-9*c.want) {
			t.Errorf("n=%d: the test gives %+v (%v), the bound %v", c.n, w, err, c.want)
		}
	}
	if !math.IsNaN(WilcoxonMinP(0)) {
		t.Error("n=0: not NaN")
	}
}

// TestTQuantile pins Student's t quantiles to scipy 1.10's
// stats.t.ppf(0.975, df).
func TestTQuantile(t *testing.T) {
	for _, c := range []struct{ df, want float64 }{{1, 12.706204736432095}, {2, 4.302652729911275}, {9, 2.2621571627409915}} {
		if got := TQuantile(0.975, c.df); math.Abs(got-c.want) > 1e-9*c.want {
			t.Errorf("df=%v: %v, want %v", c.df, got, c.want)
		}
	}
}
