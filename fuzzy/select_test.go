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

// TestPartition3 pins the three-way partition's contract on small cases:
// every value below the pivot comes before [lt, gt), which holds exactly
// the values equal to it (signed zeros included), and the values above
// it follow; nothing is lost.
func TestPartition3(t *testing.T) {
	negZero := math.Copysign(0, -1)
	cases := []struct {
		name   string
		s      []float64
		pivot  float64
		lt, gt int
	}{
		{"empty", nil, 1, 0, 0},
		{"one equal", []float64{1}, 1, 0, 1},
		{"one below", []float64{0}, 1, 1, 1},
		{"one above", []float64{2}, 1, 0, 0},
		{"all equal", []float64{3, 3, 3}, 3, 0, 3},
		{"mixed", []float64{5, 1, 3, 3, 0, 9, 3, 2}, 3, 3, 6},
		{"descending", []float64{9, 8, 7, 6, 5, 4}, 6.5, 3, 3},
		{"signed zeros", []float64{0, negZero, -1, 1, negZero}, 0, 1, 4},
		{"pivot absent", []float64{4, -4, 4, -4}, 0, 2, 2},
	}
	for _, c := range cases {
		s := slices.Clone(c.s)
		lt, gt := partition3(s, c.pivot)
		if lt != c.lt || gt != c.gt {
			t.Errorf("%s: bounds [%d, %d), want [%d, %d)", c.name, lt, gt, c.lt, c.gt)
			continue
		}
		for i, v := range s {
			if (i < lt && !(v < c.pivot)) || (i >= lt && i < gt && v != c.pivot) || (i >= gt && !(v > c.pivot)) {
				t.Errorf("%s: %v at %d is on the wrong side of %v in %v", c.name, v, i, c.pivot, s)
			}
		}
		got, want := slices.Clone(s), slices.Clone(c.s)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: values %v after partitioning, had %v", c.name, got, want)
		}
	}
}
