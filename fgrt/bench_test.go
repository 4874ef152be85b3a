package fgrt

import (
	"math/rand/v2"
	"testing"

	"github.com/fgrtbench/fgrtbench/fgrt/fuzzy"
	"github.com/fgrtbench/fgrtbench/fgrt/partopt"
	"github.com/fgrtbench/fgrtbench/internal/benchcpu"
)

// synthetic builds n rows of d Gaussian features with a ring-like two-class
// target (class 1 when the first two features lie outside a circle), 10% of
// labels flipped.
func synthetic(seed uint64, n, d int) ([][]float64, []int) {
	r := rand.New(rand.NewPCG(seed, 7))
	X := make([][]float64, n)
	y := make([]int, n)
	for i := range X {
		X[i] = make([]float64, d)
		for j := range X[i] {
			X[i][j] = r.NormFloat64()
		}
		if X[i][0]*X[i][0]+X[i][1]*X[i][1] > 1.4 {
			y[i] = 1
		}
		if r.Float64() < 0.1 {
			y[i] = 1 - y[i]
		}
	}
	return X, y
}

var benchGrow = GrowOptions{MaxRules: 15, CoverageThreshold: 0.01, MinImprovement: 0.01, Patience: 3}

func BenchmarkFit(b *testing.B) {
	X, y := synthetic(1, 5920, 20)
	parts, err := fuzzy.FitPartitions(X, make([]bool, 20), fuzzy.QuantileStyle)
	if err != nil {
		b.Fatal(err)
	}
	defer benchcpu.Start(b)()
	for i := 0; i < b.N; i++ {
		if _, err := FitTree(X, y, 2, parts, benchGrow); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPredict(b *testing.B) {
	X, y := synthetic(1, 5920, 20)
	Xte, _ := synthetic(2, 1480, 20)
	parts, _ := fuzzy.FitPartitions(X, make([]bool, 20), fuzzy.QuantileStyle)
	m, err := FitTree(X, y, 2, parts, benchGrow)
	if err != nil {
		b.Fatal(err)
	}
	defer benchcpu.Start(b)()
	for i := 0; i < b.N; i++ {
		m.Predict(Xte)
	}
}

func BenchmarkGridOptimize(b *testing.B) {
	X, y := synthetic(3, 3677, 57)
	parts, _ := fuzzy.FitPartitions(X, make([]bool, 57), fuzzy.QuantileStyle)
	defer benchcpu.Start(b)()
	for i := 0; i < b.N; i++ {
		if _, _, err := partopt.Optimize(X, y, parts, partopt.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
