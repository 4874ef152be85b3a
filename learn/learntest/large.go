package learntest

import (
	"math"
	"math/rand/v2"

	"github.com/fgrtbench/fgrtbench/learn"
)

// LargeProblem is the data of the learners' parallel-fit benchmarks
// (4·10⁵ × 10 in BenchmarkFitLarge of cart and c45): n rows of d ≥ 3
// columns (four decimals, so values tie as in KEEL files) and three
// classes decided by the first three columns with 10 % label noise, from a
// fixed seed, so that every learner is timed on the same rows.
func LargeProblem(n, d int) ([][]float64, []int, learn.Schema) {
	rng := rand.New(rand.NewPCG(400000, 10))
	X, y := make([][]float64, n), make([]int, n)
	for i := range X {
		row := make([]float64, d)
		for f := range row {
			row[f] = math.Round(rng.NormFloat64()*1e4) / 1e4
		}
		switch {
		case row[0]+row[1] > 0.5:
			y[i] = 0
		case row[2] > row[1]:
			y[i] = 1
		default:
			y[i] = 2
		}
		if rng.IntN(10) == 0 {
			y[i] = rng.IntN(3)
		}
		X[i] = row
	}
	s := learn.Schema{Features: make([]learn.Feature, d), Classes: []string{"a", "b", "c"}}
	return X, y, s
}
