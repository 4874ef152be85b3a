package stats

import (
	"math"
	"testing"
)

// scores builds a score matrix (higher = better) whose rows rank the
// methods as given: rank 1 gets the highest score; equal ranks tie.
func scores(rankRows ...[]float64) [][]float64 {
	m := make([][]float64, len(rankRows))
	for i, r := range rankRows {
		m[i] = make([]float64, len(r))
		for j, v := range r {
			m[i][j] = 1 - v/10
		}
	}
	return m
}

// friedmanChi2 is Friedman's χ² (no tie correction) of a rank matrix.
func friedmanChi2(t *testing.T, m [][]float64) float64 {
	t.Helper()
	f, err := Friedman(m, true)
	if err != nil {
		t.Fatal(err)
	}
	return f.ChiSquare
}

// TestFriedmanPermutationHandTables checks exact p-values counted by hand
// (k = 2: the two-sided sign test; k = 3: Friedman's own tables as printed
// by Siegel, Nonparametric Statistics, Table N) and the p-value of every
// dataset ranking the methods identically, 1/(k!)^(N−1) without ties.
func TestFriedmanPermutationHandTables(t *testing.T) {
	id := func(n int, row []float64) [][]float64 {
		rows := make([][]float64, n)
		for i := range rows {
			rows[i] = row
		}
		return scores(rows...)
	}
	cases := []struct {
		name string
		m    [][]float64
		p    float64
		tol  float64
	}{
		// All the same ranking: only the k! arrangements of the last N−1
		// rows that copy the first one are as extreme.
		{"N=2 k=2 identical", id(2, []float64{1, 2}), 0.5, 0},
		{"N=3 k=2 identical", id(3, []float64{1, 2}), 0.25, 0},
		{"N=2 k=3 identical", id(2, []float64{1, 2, 3}), 1.0 / 6, 1e-15},
		{"N=3 k=3 identical", id(3, []float64{1, 2, 3}), 1.0 / 36, 1e-15},
		{"N=2 k=4 identical", id(2, []float64{1, 2, 3, 4}), 1.0 / 24, 1e-15},
		// k = 2 is the sign test: 5 wins of 5, 2/2⁵; 4 of 5, 12/32.
		{"sign test 5/5", id(5, []float64{2, 1}), 2.0 / 32, 1e-15},
		{"sign test 4/5", scores([]float64{1, 2}, []float64{1, 2}, []float64{1, 2}, []float64{1, 2}, []float64{2, 1}), 12.0 / 32, 1e-15},
		// A tied row has one arrangement: two informative rows that agree
		// are as extreme as half of the 4 arrangements.
		{"k=2 with a tied row", scores([]float64{1, 2}, []float64{1, 2}, []float64{1.5, 1.5}), 0.5, 1e-15},
		// N = 2, k = 3 (Siegel): χ² = 4 → 1/6, 3 → 1/2, 1 → 5/6, 0 → 1.
		{"N=2 k=3 chi2=3", scores([]float64{1, 2, 3}, []float64{1, 3, 2}), 0.5, 1e-15},
		{"N=2 k=3 chi2=1", scores([]float64{1, 2, 3}, []float64{2, 3, 1}), 5.0 / 6, 1e-15},
		{"N=2 k=3 chi2=0", scores([]float64{1, 2, 3}, []float64{3, 2, 1}), 1, 1e-15},
		// N = 3, k = 3 (Siegel, 3 decimals): χ² = 4.667 → 0.194,
		// 2.667 → 0.361, 2 → 0.528, 0.667 → 0.944.
		{"N=3 k=3 chi2=4.667", scores([]float64{1, 2, 3}, []float64{1, 2, 3}, []float64{1, 3, 2}), 0.194, 0.0005},
		{"N=3 k=3 chi2=2", scores([]float64{1, 2, 3}, []float64{1, 2, 3}, []float64{2, 3, 1}), 0.528, 0.0005},
		{"N=3 k=3 chi2=2.667", scores([]float64{1, 2, 3}, []float64{1, 3, 2}, []float64{2, 1, 3}), 0.361, 0.0005},
		{"N=3 k=3 chi2=0.667", scores([]float64{1, 2, 3}, []float64{1, 2, 3}, []float64{3, 2, 1}), 0.944, 0.0005},
	}
	for _, c := range cases {
		res, err := FriedmanPermutation(c.m, true)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !res.Exact || math.Abs(res.P-c.p) > c.tol {
			t.Errorf("%s: exact %v p = %.15g, want exact %.15g (χ² = %.4g)", c.name, res.Exact, res.P, c.p, friedmanChi2(t, c.m))
		}
		if res.Low != res.P || res.High != res.P || res.SE != 0 || res.Draws != 0 {
			t.Errorf("%s: exact result with Monte Carlo fields %+v", c.name, res)
		}
	}
}

// TestFriedmanPermutationCounts: the number of arrangements is the product
// over datasets of k!/Π t!, ties reducing it.
func TestFriedmanPermutationCounts(t *testing.T) {
	for _, c := range []struct {
		m    [][]float64
		want float64
	}{
		{scores([]float64{1, 2, 3}, []float64{1, 2, 3}), 36},
		{scores([]float64{1.5, 1.5, 3}, []float64{1, 2, 3}), 18},
		{scores([]float64{2, 2, 2}, []float64{1, 2, 3}), 6},
		{scores([]float64{1, 2, 3, 4}, []float64{1.5, 1.5, 3.5, 3.5}), 24 * 6},
	} {
		res, err := FriedmanPermutation(c.m, true)
		if err != nil || res.Arrangements != c.want {
			t.Errorf("%v: %v arrangements (%v), want %v", c.m, res.Arrangements, err, c.want)
		}
	}
	if got := len(distinctPermutations([]int{1, 1, 2, 3})); got != 12 || distinctCount([]int{1, 1, 2, 3}) != 12 {
		t.Errorf("distinct arrangements of 1,1,2,3: %d listed, %v counted, want 12", got, distinctCount([]int{1, 1, 2, 3}))
	}
}

// TestFriedmanPermutationReference pins the exact p-value against scipy's
// permutation_test enumerating every arrangement (statistic: the
// tie-corrected χ² of friedmanchisquare). Both sides count the same
// arrangements, so the only difference is float summation: 1e-12.
func TestFriedmanPermutationReference(t *testing.T) {
	ref := loadReference(t)
	if len(ref.FriedmanExact) == 0 {
		t.Fatal("reference.json has no friedman_exact section")
	}
	for i, c := range ref.FriedmanExact {
		res, err := FriedmanPermutation(c.Matrix, true)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Exact {
			t.Errorf("case %d: not exact", i)
		}
		near(t, "exact permutation p", res.P, c.PExact, 1e-12)
		f, _ := Friedman(c.Matrix, true)
		near(t, "tie-corrected chi2", f.ChiSquareTieCorrected, c.Chi2TieCorrected, 1e-9)
	}
}

// TestFriedmanPermutationMonteCarlo forces the Monte Carlo path on
// matrices whose exact p-value is known and checks that the estimate lies
// within 4.5 standard errors of it, that the stated interval covers it,
// that the seed makes it repeatable, and that it is never 0.
func TestFriedmanPermutationMonteCarlo(t *testing.T) {
	m := scores([]float64{1, 2, 3}, []float64{1, 2, 3}, []float64{1, 3, 2}, []float64{2, 1, 3}, []float64{1, 2.5, 2.5})
	exact, err := friedmanPermutation(m, true, ExactMaxSteps, MonteCarloDraws)
	if err != nil || !exact.Exact {
		t.Fatalf("exact: %+v %v", exact, err)
	}
	mc, err := friedmanPermutation(m, true, 0, 20000)
	if err != nil {
		t.Fatal(err)
	}
	if mc.Exact || mc.Draws != 20000 || mc.Seed != MonteCarloSeed || mc.Arrangements != exact.Arrangements {
		t.Fatalf("Monte Carlo result %+v", mc)
	}
	if math.Abs(mc.P-exact.P) > 4.5*mc.SE || mc.Low > exact.P || mc.High < exact.P {
		t.Errorf("Monte Carlo p %v (SE %v, interval %v–%v), exact %v", mc.P, mc.SE, mc.Low, mc.High, exact.P)
	}
	again, _ := friedmanPermutation(m, true, 0, 20000)
	if again != mc {
		t.Errorf("not repeatable: %+v then %+v", mc, again)
	}
	// Ten datasets of ten methods ranked alike: (10!)^9 arrangements, far
	// beyond the enumeration; no draw is as extreme, and P = 1/(B+1).
	row := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	big := scores(row, row, row, row, row, row, row, row, row, row)
	res, err := FriedmanPermutation(big, true)
	if err != nil {
		t.Fatal(err)
	}
	if res.Exact || res.P != 1.0/float64(MonteCarloDraws+1) || !(res.High < 0.0001) {
		t.Errorf("ten identical rankings of ten methods: %+v", res)
	}
}

// TestFriedmanIdentical: the flag is set exactly when every dataset ranks
// the methods the same way, and then (without ties) the Iman–Davenport F
// is infinite while χ² is finite.
func TestFriedmanIdentical(t *testing.T) {
	f, err := Friedman(scores([]float64{1, 2}, []float64{1, 2}), true)
	if err != nil || !f.Identical || !math.IsInf(f.ImanDavenport, 1) || f.ChiSquareTieCorrected != 2 {
		t.Errorf("identical, no ties: %+v %v", f, err)
	}
	near(t, "chi2 p N=2 k=2", f.PTieCorrected, 0.15729920705028513, 1e-12)
	f, _ = Friedman(scores([]float64{1.5, 1.5, 3}, []float64{1.5, 1.5, 3}), true)
	if !f.Identical || math.IsInf(f.ImanDavenport, 0) {
		t.Errorf("identical with ties: %+v", f)
	}
	for _, m := range [][][]float64{
		scores([]float64{1, 2}, []float64{2, 1}),
		scores([]float64{1.5, 1.5}, []float64{1.5, 1.5}),
	} {
		if f, _ := Friedman(m, true); f.Identical {
			t.Errorf("%v: identical", m)
		}
	}
}
