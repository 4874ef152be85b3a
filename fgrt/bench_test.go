package fgrt

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/fgrtbench/fgrtbench/fgrt/partopt"
	"github.com/fgrtbench/fgrtbench/fuzzy"
	"github.com/fgrtbench/fgrtbench/internal/benchcpu"
	"github.com/fgrtbench/fgrtbench/internal/par"
	"github.com/fgrtbench/fgrtbench/learn"
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

var benchGrow = GrowConfig{MaxRules: 15, CoverageThreshold: 0.01, MinImprovement: 0.01, Patience: 3}

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
		if _, _, err := partopt.Optimize(X, y, parts, partopt.Config{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGrid fits the paper's 16-configuration grid on one training set
// (as inner cross-validation does): one Fit per configuration, or all at
// once with FitGroup (shared partitions, memberships, growth and class
// sums), which must give the same models (TestFitGroupMatchesSeparateFits).
func BenchmarkGrid(b *testing.B) {
	X, y := synthetic(1, 5920, 20)
	s := schemaFor(20, 2)
	grid := []struct {
		rules    int
		cov, imp float64
	}{
		{5, 0.01, 0.01}, {10, 0.01, 0.01}, {15, 0.01, 0.01}, {20, 0.01, 0.01}, {30, 0.01, 0.01},
		{15, 0, 0.01}, {15, 0.03, 0.01}, {15, 0.05, 0.01}, {15, 0.1, 0.01},
		{15, 0.01, 0}, {15, 0.01, 0.005}, {15, 0.01, 0.02}, {15, 0.01, 0.05},
		{20, 0.03, 0.01}, {10, 0.05, 0.005}, {25, 0.01, 0.005},
	}
	ts := make([]learn.Trainer, len(grid))
	for i, p := range grid {
		o := DefaultConfig()
		o.MaxRules, o.CoverageThreshold, o.MinImprovement = p.rules, p.cov, p.imp
		tr, err := New(o)
		if err != nil {
			b.Fatal(err)
		}
		ts[i] = tr
	}
	b.Run("separate", func(b *testing.B) {
		defer benchcpu.Start(b)()
		for b.Loop() {
			for _, tr := range ts {
				if _, err := tr.Fit(X, y, s); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("group", func(b *testing.B) {
		defer benchcpu.Start(b)()
		for b.Loop() {
			if _, err := ts[0].(*Trainer).FitGroup(ts, X, y, s); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkFitThreads fits FGRT and FGRT* on 4×10^5 rows × 10 features
// under a CPU budget of 1 and of 2 threads (issue 33's target: at least
// 1.5× faster with 2 on a 2-core machine, with identical models, which
// TestThreadsGiveSerialModels checks). cpu-ns/op is the CPU time of both
// threads; on a loaded machine wall time (ns/op) suffers from waiting for
// a descheduled thread at every loop's end. Run it on a quiet machine:
//
//	go test ./fgrt -run '^$' -bench 'FitThreads' -benchtime 5x
func BenchmarkFitThreads(b *testing.B) {
	X, y := synthetic(1, 400000, 10)
	s := schemaFor(10, 2)
	for _, optimize := range []bool{false, true} {
		name := "fgrt"
		if optimize {
			name = "fgrt*"
		}
		o := DefaultConfig()
		o.Optimize = optimize
		tr, err := New(o)
		if err != nil {
			b.Fatal(err)
		}
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/threads=%d", name, threads), func(b *testing.B) {
				budget := par.NewBudget(threads)
				fit := learn.WithThreads(tr, budget)
				defer benchcpu.Start(b)()
				for b.Loop() {
					budget.Do(func() {
						if _, err := fit.Fit(X, y, s); err != nil {
							b.Fatal(err)
						}
					})
				}
			})
		}
	}
}

// BenchmarkFitThreadsSmall is a paper-size fit (5920 × 20, below
// parallelRows) at 1 and 2 threads: it must not be slower with 2.
func BenchmarkFitThreadsSmall(b *testing.B) {
	X, y := synthetic(1, 5920, 20)
	s := schemaFor(20, 2)
	tr, err := New(DefaultConfig())
	if err != nil {
		b.Fatal(err)
	}
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			budget := par.NewBudget(threads)
			fit := learn.WithThreads(tr, budget)
			defer benchcpu.Start(b)()
			for b.Loop() {
				budget.Do(func() {
					if _, err := fit.Fit(X, y, s); err != nil {
						b.Fatal(err)
					}
				})
			}
		})
	}
}
