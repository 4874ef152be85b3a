package paperruntime

import (
	"math"

	"github.com/fgrtbench/fgrtbench/internal/fmath"
	"github.com/fgrtbench/fgrtbench/internal/nprand"
)

// gaussSource is numpy's legacy RandomState.standard_normal (the polar
// Box-Muller method with one cached deviate) on top of nprand's MT19937, so
// that Synthetic draws the numbers np.random.randn draws after the same seed.
type gaussSource struct {
	rs       *nprand.RandomState
	hasGauss bool
	gauss    float64
}

// double is numpy's legacy 53-bit uniform in [0, 1).
func (g *gaussSource) double() float64 {
	a := g.rs.Uint32() >> 5
	b := g.rs.Uint32() >> 6
	return (float64(float64(a)*67108864.0) + float64(b)) / 9007199254740992.0
}

func (g *gaussSource) next() float64 {
	if g.hasGauss {
		g.hasGauss = false
		return g.gauss
	}
	var x1, x2, r2 float64
	for {
		x1 = 2*g.double() - 1
		x2 = 2*g.double() - 1
		r2 = float64(x1*x1) + float64(x2*x2)
		if r2 < 1 && r2 != 0 {
			break
		}
	}
	f := math.Sqrt(-2 * fmath.Log(r2) / r2)
	g.gauss = f * x1
	g.hasGauss = true
	return f * x2
}

// SyntheticSeed is the seed the authors' generate_synthetic_dataset sets on
// every call (np.random.seed(42)).
const SyntheticSeed = 42

// Synthetic generates the authors' runtime data (performance_analysis.py
// generate_synthetic_dataset): after np.random.seed(42), X = randn(n, d)
// (row-major) and y = randint(0, 3, n). The labels are independent of X, so
// the data is pure noise; the same call always returns the same data.
func Synthetic(n, d int) (X [][]float64, y []int) {
	g := &gaussSource{rs: nprand.New(SyntheticSeed)}
	flat := make([]float64, n*d)
	for i := range flat {
		flat[i] = g.next()
	}
	X = make([][]float64, n)
	for i := range X {
		X[i] = flat[i*d : (i+1)*d : (i+1)*d]
	}
	y = make([]int, n)
	for i := range y {
		y[i] = int(g.rs.Randint(0, 3))
	}
	return X, y
}

// SyntheticTraining returns the 80 % training part of trial 0 of the
// study's synthetic data set of n rows and d features (the rows the study
// fits on at that size).
func SyntheticTraining(n, d int) (X [][]float64, y []int) {
	all, labels := Synthetic(n, d)
	rows := trainRows(n, 42)
	X, y = make([][]float64, len(rows)), make([]int, len(rows))
	for i, r := range rows {
		X[i], y[i] = all[r], labels[r]
	}
	return X, y
}

// trainRows returns the training rows of sklearn's non-stratified
// train_test_split(test_size=0.2, random_state=seed): a permutation from a
// fresh RandomState(seed), the first ceil(0.2 n) rows going to the test set.
func trainRows(n int, seed uint32) []int {
	nTest := int(math.Ceil(0.2 * float64(n)))
	perm := permutation(n, seed)
	return perm[nTest:]
}

func permutation(n int, seed uint32) []int { return nprand.New(seed).Permutation(n) }
