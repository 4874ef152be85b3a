package ripper

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/fgrtbench/fgrtbench/learn"
)

// ringLike mimics KEEL ring's shape (the largest benchmark fit): 5,920
// training rows (80% of 7,400), 20 numeric features, two classes drawn from
// Gaussians of different spread (class 0: N(0, 4I), class 1: N(a, I) with
// a = 2/sqrt(20)).
func ringLike(n, d int, seed uint64) ([][]float64, []int, learn.Schema) {
	rng := rand.New(rand.NewPCG(seed, 99))
	a := 2 / math.Sqrt(float64(d))
	X := make([][]float64, n)
	y := make([]int, n)
	for i := range X {
		row := make([]float64, d)
		c := i % 2
		for j := range row {
			if c == 0 {
				row[j] = 2 * rng.NormFloat64()
			} else {
				row[j] = a + rng.NormFloat64()
			}
			row[j] = math.Round(row[j]*1000) / 1000
		}
		X[i], y[i] = row, c
	}
	s := learn.Schema{Classes: []string{"0", "1"}}
	for j := 0; j < d; j++ {
		s.Features = append(s.Features, learn.Feature{Name: "A" + strconv.Itoa(j+1)})
	}
	return X, y, s
}

// BenchmarkFitRing: target <= 200 ms/op on one core
// (go test -bench=. -cpu 1 ./baselines/ripper).
func BenchmarkFitRing(b *testing.B) {
	X, y, s := ringLike(5920, 20, 1)
	tr, err := New(DefaultConfig())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tr.Fit(X, y, s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFitThreeClass exercises one-vs-rest (three binary problems).
func BenchmarkFitThreeClass(b *testing.B) {
	X, y, s := ringLike(3000, 10, 2)
	for i := range y {
		if X[i][0] > 1.5 {
			y[i] = 2
		}
	}
	s.Classes = []string{"0", "1", "2"}
	tr, _ := New(DefaultConfig())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tr.Fit(X, y, s); err != nil {
			b.Fatal(err)
		}
	}
}
