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
