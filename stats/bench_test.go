package stats

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkBayesSignedRank times the default 50,000-draw test over 10 and
// 40 datasets: a report runs it once per pair of methods.
func BenchmarkBayesSignedRank(b *testing.B) {
	for _, n := range []int{10, 40} {
		rng := rand.New(rand.NewPCG(1, 1))
		d := make([]float64, n)
		for i := range d {
			d[i] = 0.01 + 0.03*rng.NormFloat64()
		}
		b.Run(map[int]string{10: "n=10", 40: "n=40"}[n], func(b *testing.B) {
			for b.Loop() {
				if _, err := BayesSignedRank(d, DefaultSignedRankOptions()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCriticalDifference times a CD beyond Demšar's table (computed q).
func BenchmarkCriticalDifference(b *testing.B) {
	for b.Loop() {
		if _, err := CriticalDifference(0.05, 13, 10); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFriedmanPermutationExact: six methods over four datasets with
// distinct scores, near the largest study enumerated (ExactMaxSteps).
func BenchmarkFriedmanPermutationExact(b *testing.B) {
	m := [][]float64{
		{0.81, 0.79, 0.84, 0.77, 0.80, 0.83},
		{0.91, 0.93, 0.90, 0.88, 0.92, 0.87},
		{0.71, 0.74, 0.69, 0.73, 0.70, 0.72},
		{0.64, 0.61, 0.66, 0.63, 0.65, 0.60},
	}
	for i := 0; i < b.N; i++ {
		if res, err := FriedmanPermutation(m, true); err != nil || !res.Exact {
			b.Fatal(res, err)
		}
	}
}

// BenchmarkFriedmanPermutationMonteCarlo: the paper's size, ten datasets
// of twelve methods, beyond the enumeration.
func BenchmarkFriedmanPermutationMonteCarlo(b *testing.B) {
	m := make([][]float64, 10)
	for i := range m {
		m[i] = make([]float64, 12)
		for j := range m[i] {
			m[i][j] = float64((i*7+j*5)%12) / 12
		}
	}
	for i := 0; i < b.N; i++ {
		if res, err := FriedmanPermutation(m, true); err != nil || res.Exact {
			b.Fatal(res, err)
		}
	}
}
