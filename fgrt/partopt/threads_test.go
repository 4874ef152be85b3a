package partopt

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/fuzzy"
	"github.com/fgrtbench/fgrtbench/internal/par"
)

// tiedMatrix is n rows of d features with ties: feature 0 drives the
// class, feature 1 takes five values, the last is constant but for one
// row, and every fourth row repeats the one before.
func tiedMatrix(n, d int) ([][]float64, []int) {
	r := rand.New(rand.NewPCG(9, uint64(n)))
	X := make([][]float64, n)
	y := make([]int, n)
	for i := range X {
		col, lab := testColumn(r, 1, 3, false)
		X[i] = make([]float64, d)
		X[i][0], y[i] = col[0], lab[0]
		for j := 1; j < d-1; j++ {
			X[i][j] = math.Round(r.NormFloat64()*4) / 4
		}
		X[i][1] = float64(r.IntN(5))
		if i%4 == 3 {
			copy(X[i], X[i-1])
			y[i] = y[i-1]
		}
		X[i][d-1] = 2
	}
	X[n/2][d-1] = 3
	return X, y
}

// optimizeOn runs Optimize with the budget b (nil: serially).
func optimizeOn(b *par.Budget, X [][]float64, y []int, parts []fuzzy.Partition, o Config) (out []fuzzy.Partition, evals int, err error) {
	o.Threads = b
	b.Do(func() { out, evals, err = Optimize(X, y, parts, o) })
	return
}

// TestOptimizeThreadsMatchesSerial requires the same partitions (every
// bit), the same evaluation count and the same error with a budget of
// four threads as serially, for every strategy, below and above
// parallelRows; above it the budget must have run several threads.
func TestOptimizeThreadsMatchesSerial(t *testing.T) {
	for _, rows := range []int{parallelRows / 4, parallelRows + 1} {
		X, y := tiedMatrix(rows, 6)
		nominal := []bool{false, false, false, true, false, false}
		parts, err := fuzzy.FitPartitions(X, nominal, fuzzy.QuantileStyle)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range []Config{{Strategy: Grid}, {Strategy: Coordinate}, {Strategy: Hybrid, ExtendLow: true}, {IntegerMemberships: true}} {
			t.Run(fmt.Sprintf("rows=%d/%v/int=%v", rows, o.Strategy, o.IntegerMemberships), func(t *testing.T) {
				want, wantEvals, err := optimizeOn(nil, X, y, parts, o)
				if err != nil {
					t.Fatal(err)
				}
				b := par.NewBudget(4).Oversubscribe()
				got, gotEvals, err := optimizeOn(b, X, y, parts, o)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) || gotEvals != wantEvals {
					t.Errorf("parallel: %d evaluations, partitions\n%v\nserial: %d evaluations\n%v", gotEvals, got, wantEvals, want)
				}
				if spread := rows >= parallelRows; spread != (b.Peak() > 1) {
					t.Errorf("peak of %d busy threads, want spread=%v", b.Peak(), spread)
				}
			})
		}
	}
}

// TestOptimizeThreadsReportsFirstError: with bad values in two columns,
// the parallel optimisation reports the first column's, as the serial.
func TestOptimizeThreadsReportsFirstError(t *testing.T) {
	X, y := tiedMatrix(parallelRows+1, 6)
	parts, err := fuzzy.FitPartitions(X, make([]bool, 6), fuzzy.QuantileStyle)
	if err != nil {
		t.Fatal(err)
	}
	X[100][4] = math.Inf(1)
	X[7][2] = math.NaN()
	_, _, want := optimizeOn(nil, X, y, parts, Config{})
	_, _, got := optimizeOn(par.NewBudget(4).Oversubscribe(), X, y, parts, Config{})
	if want == nil || got == nil || got.Error() != want.Error() {
		t.Fatalf("parallel error %v, serial %v", got, want)
	}
	if msg := "row 7 column 2"; !strings.Contains(want.Error(), msg) {
		t.Errorf("error %q does not name %s", want, msg)
	}
}

// BenchmarkOptimizeThreads optimises the grid strategy's partitions at 1
// and 2 threads, on columns below and above parallelRows (fgrt's
// BenchmarkFitThreads times FGRT* on 4×10^5 rows):
//
//	go test ./fgrt/partopt -run '^$' -bench OptimizeThreads -benchtime 5x
func BenchmarkOptimizeThreads(b *testing.B) {
	for _, size := range [][2]int{{parallelRows / 2, 57}, {2 * parallelRows, 57}} {
		X, y := tiedMatrix(size[0], size[1])
		parts, err := fuzzy.FitPartitions(X, make([]bool, size[1]), fuzzy.QuantileStyle)
		if err != nil {
			b.Fatal(err)
		}
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("rows=%d/threads=%d", size[0], threads), func(b *testing.B) {
				budget := par.NewBudget(threads).Oversubscribe()
				b.ReportAllocs()
				for b.Loop() {
					if _, _, err := optimizeOn(budget, X, y, parts, Config{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
