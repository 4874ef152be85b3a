package fuzzy

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSelectPercentilesMatchesSort checks the order statistics against a
// full sort on columns that stress quickselect and the sample selection:
// random, sorted, reversed, constant, few distinct values, organ-pipe,
// signed zeros, and sizes on both sides of the cutoffs.
func TestSelectPercentilesMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 16))
	gens := map[string]func(i, n int) float64{
		"random":   func(int, int) float64 { return rng.NormFloat64() },
		"sorted":   func(i, _ int) float64 { return float64(i) },
		"reversed": func(i, n int) float64 { return float64(n - i) },
		"constant": func(int, int) float64 { return 3 },
		"fewvalue": func(int, int) float64 { return float64(rng.IntN(3)) },
		"pipe":     func(i, n int) float64 { return math.Abs(float64(2*i - n)) },
		"signzero": func(int, int) float64 { return []float64{0, math.Copysign(0, -1), 1}[rng.IntN(3)] },
		"skewed":   func(int, int) float64 { return math.Exp(8 * rng.Float64()) },
		// The strided sample sees only zeros: the sample path must notice
		// and fall back.
		"misled": func(i, n int) float64 {
			if (i*sampleSize)%n < sampleSize {
				return 0
			}
			return float64(i)
		},
	}
	for _, style := range []Style{QuantileStyle, PaperStyle} {
		ps := []float64{0, 20, 40, 60, 80, 100}
		if style == PaperStyle {
			ps = []float64{0, 25, 50, 75, 100}
		}
		for name, gen := range gens {
			for _, n := range []int{1, 2, 3, 7, 24, 25, 26, 100, 513, 1000, 4099, sampleSelectMin - 1, sampleSelectMin, 100003} {
				col := make([]float64, n)
				for i := range col {
					col[i] = gen(i, n)
				}
				sorted := slices.Clone(col)
				slices.Sort(sorted)
				o := selectPercentiles(col, ps...)
				for _, p := range ps {
					if got, want := o.percentile(p), Percentile(sorted, p); got != want {
						t.Errorf("%s n=%d: percentile %v = %v after selection, %v after sorting", name, n, p, got, want)
					}
				}
				if o.at(0) != sorted[0] || o.at(n-1) != sorted[n-1] {
					t.Errorf("%s n=%d: extremes %v, %v; want %v, %v", name, n, o.at(0), o.at(n-1), sorted[0], sorted[n-1])
				}
				// Below the sample cutoff the selection only reorders.
				if slices.Sort(col); n < sampleSelectMin && !slices.Equal(col, sorted) {
					t.Errorf("%s n=%d: selection lost or changed values", name, n)
				}
			}
		}
	}
}

// TestSampleSelectionIsUsed: on ordinary large columns the sample path
// succeeds (so the test above exercises it), and on the misleading column
// it declines.
func TestSampleSelectionIsUsed(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 16))
	n := 200000
	col := make([]float64, n)
	for i := range col {
		col[i] = rng.NormFloat64()
	}
	o := orderStats{n: n, rank: []int{0, 1, 40000, 40001, 80000, 80001, 120000, 120001, 160000, 160001, n - 1}}
	o.value = make([]float64, len(o.rank))
	if !selectBySample(slices.Clone(col), o) {
		t.Error("sample selection declined a random column")
	}
	for i := range col {
		col[i] = float64(i)
		if (i*sampleSize)%n < sampleSize {
			col[i] = 0
		}
	}
	if selectBySample(col, o) {
		t.Error("sample selection accepted a column whose sample misleads it")
	}
}

// BenchmarkSelectPercentiles is one quantile-style partition fit's order
// statistics on a column of 800,000 Gaussian values (FGRT's partitions on
// the runtime study's 10^6-row data).
func BenchmarkSelectPercentiles(b *testing.B) {
	rng := rand.New(rand.NewPCG(6, 16))
	col := make([]float64, 800_000)
	for i := range col {
		col[i] = rng.NormFloat64()
	}
	s := make([]float64, len(col))
	b.ReportAllocs()
	for b.Loop() {
		copy(s, col)
		selectPercentiles(s, 0, 20, 40, 60, 80, 100)
	}
}
