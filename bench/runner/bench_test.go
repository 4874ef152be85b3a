package runner

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/datasets"
)

// largeDataset is n rows × d numeric inputs and 3 classes whose means
// differ, built in memory (the benchmark times the runner, not a reader).
func largeDataset(n, d int) *datasets.Dataset {
	rng := rand.New(rand.NewPCG(1, 2))
	ds := &datasets.Dataset{Name: "large", Classes: []string{"a", "b", "c"}}
	for j := 0; j < d; j++ {
		ds.Inputs = append(ds.Inputs, datasets.Attribute{Name: "x" + string(rune('a'+j)), Type: "real", Min: math.NaN(), Max: math.NaN()})
	}
	flat := make([]float64, n*d)
	for i := 0; i < n; i++ {
		c := rng.IntN(3)
		row := flat[i*d : (i+1)*d : (i+1)*d]
		for j := range row {
			row[j] = rng.NormFloat64() + 0.3*float64(c)*float64(j%3)
		}
		ds.X = append(ds.X, row)
		ds.Y = append(ds.Y, c)
	}
	return ds
}

// benchmarkUnit runs one unit (fold 0) of a clean study of method on 10^6
// rows × 20 inputs, the large-data study's shape: plan, scaled fold, fits,
// predictions and the written row. Allocations are reported: a unit's
// memory should be a small multiple of its fold's matrix (160 MB here).
func benchmarkUnit(b *testing.B, method string) {
	if testing.Short() {
		b.Skip("10^6 rows: not in -short")
	}
	d := largeDataset(1_000_000, 20)
	s := study.Study{Protocols: []string{"clean"}, Datasets: []string{"large"}, Methods: []study.MethodSpec{{Name: method}}, Options: protocol.DefaultOptions()}
	load := func(context.Context, string) (*datasets.Dataset, error) { return d, nil }
	b.ReportAllocs()
	for b.Loop() {
		r := &Runner{Load: load, OutDir: b.TempDir(), Jobs: 1, Shard: study.Shard{Index: 0, Count: 5}}
		if _, err := r.Run(context.Background(), s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUnitCART is one CART unit (a single configuration) on 10^6 rows.
func BenchmarkUnitCART(b *testing.B) { benchmarkUnit(b, "cart") }

// BenchmarkUnitFGRT is one FGRT unit (16 configurations chosen by a 5-fold
// inner cross-validation) on 10^6 rows.
func BenchmarkUnitFGRT(b *testing.B) { benchmarkUnit(b, "fgrt") }

// benchmarkInnerCV runs one FGRT unit (its 16 configurations chosen by a
// 5-fold inner cross-validation) of a clean study on n rows × 8 inputs at
// -j jobs: with one unit, the threads beyond the first go to its inner
// folds. It is how the inner loop's need for a threshold was measured:
//
//	go test ./bench/runner -run '^$' -bench 'InnerCV' -benchtime 10x
func benchmarkInnerCV(b *testing.B, n, jobs int) {
	d := largeDataset(n, 8)
	s := study.Study{Protocols: []string{"clean"}, Datasets: []string{"large"}, Methods: []study.MethodSpec{{Name: "fgrt"}}, Options: protocol.DefaultOptions()}
	load := func(context.Context, string) (*datasets.Dataset, error) { return d, nil }
	for b.Loop() {
		r := &Runner{Load: load, OutDir: b.TempDir(), Jobs: jobs, Shard: study.Shard{Index: 0, Count: 10}, NoArtifacts: true}
		if _, err := r.Run(context.Background(), s); err != nil {
			b.Fatal(err)
		}
	}
}

// The paper's datasets are 150 to 7,400 rows; 150 is iris-sized.
func BenchmarkInnerCVSmallJ1(b *testing.B) { benchmarkInnerCV(b, 150, 1) }
func BenchmarkInnerCVSmallJ2(b *testing.B) { benchmarkInnerCV(b, 150, 2) }
func BenchmarkInnerCVLargeJ1(b *testing.B) { benchmarkInnerCV(b, 20_000, 1) }
func BenchmarkInnerCVLargeJ2(b *testing.B) { benchmarkInnerCV(b, 20_000, 2) }
