package fga

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fgrtbench/fgrtbench/internal/par"
	"github.com/fgrtbench/fgrtbench/learn"
)

// ringLike builds a data set shaped like KEEL's ring (Delve "ringnorm"):
// class 0 ~ N(0, 4 I), class 1 ~ N(a, I) with a = 2/sqrt(d).
func ringLike(n, d int, seed uint64) ([][]float64, []int, learn.Schema) {
	rng := rand.New(rand.NewPCG(seed, 7))
	X := make([][]float64, n)
	y := make([]int, n)
	a := 2 / math.Sqrt(float64(d))
	for i := range X {
		X[i] = make([]float64, d)
		y[i] = i % 2
		for j := range X[i] {
			if y[i] == 0 {
				X[i][j] = 2 * rng.NormFloat64()
			} else {
				X[i][j] = a + rng.NormFloat64()
			}
		}
	}
	s := learn.Schema{Classes: []string{"a", "b"}}
	for j := 0; j < d; j++ {
		s.Features = append(s.Features, learn.Feature{Name: fmt.Sprintf("x%d", j+1)})
	}
	return X, y, s
}

// BenchmarkFit fits with the paper's settings on a ring-sized training set
// (5 920 x 20, 2 classes), with evolved and with fixed partitions. Workers
// = GOMAXPROCS, so -cpu 1 and -cpu 2 measure the serial time and the
// parallel speed-up. Target for fixed partitions: <= 0.5 s on one core.
func BenchmarkFit(b *testing.B) {
	X, y, s := ringLike(5920, 20, 1)
	for _, mode := range []struct {
		name  string
		fixed bool
	}{{"evolved", false}, {"fixed", true}} {
		b.Run(mode.name, func(b *testing.B) {
			o := DefaultConfig()
			o.Seed, o.Fixed = 42, mode.fixed
			tr, err := New(o)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			cpu0 := cpuTime()
			for i := 0; i < b.N; i++ {
				if _, err := tr.Fit(X, y, s); err != nil {
					b.Fatal(err)
				}
			}
			// The machine is shared: report process CPU seconds per fit as well.
			if used := cpuTime() - cpu0; used > 0 {
				b.ReportMetric(used.Seconds()/float64(b.N), "cpu-s/op")
			}
		})
	}
}

// BenchmarkFitThreads fits FGA (evolved partitions, 20 generations) on a
// ring-like set of 4×10^4 rows × 10 under a CPU budget of 1 and of 2
// threads, the runner's way of spreading a fit (Workers is then unused):
//
//	go test ./baselines/fga -run '^$' -bench FitThreads -benchtime 3x
func BenchmarkFitThreads(b *testing.B) {
	X, y, s := ringLike(40000, 10, 1)
	o := DefaultConfig()
	o.Seed, o.Generations = 42, 20
	tr, err := New(o)
	if err != nil {
		b.Fatal(err)
	}
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			budget := par.NewBudget(threads)
			fit := tr.WithThreads(budget)
			b.ReportAllocs()
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
