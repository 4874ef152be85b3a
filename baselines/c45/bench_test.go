package c45

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fgrtbench/fgrtbench/internal/benchcpu"
	"github.com/fgrtbench/fgrtbench/internal/par"
	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/learn/learntest"
)

// ringLike draws a two-class set shaped like KEEL's ring (Breiman's
// ringnorm): class 0 ~ N(0, 4I), class 1 ~ N(a, I) with a = 2/sqrt(20).
func ringLike(n, d int, seed uint64) ([][]float64, []int, learn.Schema) {
	rng := rand.New(rand.NewPCG(seed, 7))
	a := 2 / math.Sqrt(float64(d))
	X := make([][]float64, n)
	y := make([]int, n)
	for i := range X {
		row := make([]float64, d)
		y[i] = i % 2
		for j := range row {
			if y[i] == 0 {
				row[j] = 2 * rng.NormFloat64()
			} else {
				row[j] = a + rng.NormFloat64()
			}
			// KEEL stores four decimals; ties matter for cut-point counts.
			row[j] = math.Round(row[j]*1e4) / 1e4
		}
		X[i] = row
	}
	s := learn.Schema{Features: make([]learn.Feature, d), Classes: []string{"0", "1"}}
	return X, y, s
}

func BenchmarkFitRing(b *testing.B) {
	X, y, s := ringLike(5920, 20, 1)
	tr := mustNew(b, DefaultConfig())
	defer benchcpu.Start(b)()
	for b.Loop() {
		if _, err := tr.Fit(X, y, s); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPredictRing(b *testing.B) {
	X, y, s := ringLike(5920, 20, 1)
	m, err := mustNew(b, DefaultConfig()).Fit(X, y, s)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		m.Predict(X)
	}
}

// BenchmarkFitLarge times one J48 fit (default options) on 4·10⁵ rows ×
// 10 columns with a budget of 1 and of 2 threads. Run it with
//
//	go test -run XXX -bench FitLarge -benchtime 3x ./baselines/c45/
func BenchmarkFitLarge(b *testing.B) {
	X, y, s := learntest.LargeProblem(400000, 10)
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			budget := par.NewBudget(threads)
			tr := learn.WithThreads(mustNew(b, DefaultConfig()), budget)
			defer benchcpu.Start(b)()
			for b.Loop() {
				var err error
				budget.Do(func() { _, err = tr.Fit(X, y, s) })
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFitSmall times one J48 fit on a paper-size dataset (ring's
// 5,920 rows × 20 columns) with a budget of 1 and of 2 threads; with 1 it
// must be as fast as BenchmarkFitRing (no budget).
func BenchmarkFitSmall(b *testing.B) {
	X, y, s := ringLike(5920, 20, 1)
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			budget := par.NewBudget(threads)
			tr := learn.WithThreads(mustNew(b, DefaultConfig()), budget)
			defer benchcpu.Start(b)()
			for b.Loop() {
				var err error
				budget.Do(func() { _, err = tr.Fit(X, y, s) })
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
