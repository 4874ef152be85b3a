package fuzzycart_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/fgrtbench/fgrtbench/baselines/fuzzycart"
	"github.com/fgrtbench/fgrtbench/internal/par"
	"github.com/fgrtbench/fgrtbench/learn"
)

// benchData is a seeded numeric data set of n rows, d columns and three
// classes.
func benchData(n, d int) ([][]float64, []int, learn.Schema) {
	r := rand.New(rand.NewPCG(1, 2))
	X := make([][]float64, n)
	y := make([]int, n)
	for i := range X {
		X[i] = make([]float64, d)
		s := 0.0
		for j := range X[i] {
			X[i][j] = r.NormFloat64()
			s += X[i][j] * float64(j%3-1)
		}
		y[i] = min(2, max(0, int(s+1.5+r.NormFloat64()*0.5)))
	}
	return X, y, schemaFor(nil, d, 3)
}

// BenchmarkFit fits FuzzyCART's defaults (cci) and the purity path on
// 2,000 and 8,000 rows of 10 columns (ring and spambase are 7,400 × 20
// and 4,597 × 57).
func BenchmarkFit(b *testing.B) {
	for _, n := range []int{2000, 8000} {
		X, y, s := benchData(n, 10)
		for _, metric := range []fuzzycart.Metric{fuzzycart.CCI, fuzzycart.Purity} {
			cfg := fuzzycart.DefaultConfig()
			cfg.Metric = metric
			tr, err := fuzzycart.New(cfg, 0)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("rows=%d/%s", n, metric), func(b *testing.B) {
				for b.Loop() {
					if _, err := tr.Fit(X, y, s); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkFitKEEL fits FuzzyCART's defaults and the purity path on fold 0
// of the clean protocol on ring and spambase, the folds on which
// docs/fidelity.md#fuzzycart-speed compares it with Ex-Fuzzy's Python fit.
func BenchmarkFitKEEL(b *testing.B) {
	for _, name := range []string{"ring", "spambase"} {
		p := cleanFolds(b, name)
		f := &p.Folds[0]
		xtr, _ := f.Matrices(nil)
		for _, metric := range []fuzzycart.Metric{fuzzycart.CCI, fuzzycart.Purity} {
			cfg := fuzzycart.DefaultConfig()
			cfg.Metric = metric
			tr, err := fuzzycart.New(cfg, 0)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/%s", name, metric), func(b *testing.B) {
				for b.Loop() {
					if _, err := tr.Fit(xtr, f.YTrain, p.Schema); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkFitThreads fits FuzzyCART's defaults on 4×10^4 rows of 10
// columns under a CPU budget of 1 and of 2 threads:
//
//	go test ./baselines/fuzzycart -run '^$' -bench FitThreads -benchtime 3x
func BenchmarkFitThreads(b *testing.B) {
	X, y, s := benchData(40000, 10)
	tr, err := fuzzycart.New(fuzzycart.DefaultConfig(), 0)
	if err != nil {
		b.Fatal(err)
	}
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			budget := par.NewBudget(threads)
			fit := learn.WithThreads(tr, budget)
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
