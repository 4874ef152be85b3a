package sksplit

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/internal/npsum"
)

// columnMajorFit is Fit as numpy computes it, one whole column at a time
// (npsum.Sum of the column, of the centred column, of its squares): the
// reference that the block-wise Fit must match bit for bit.
func columnMajorFit(X [][]float64, cols []int) (mean, variance []float64) {
	n := float64(len(X))
	for _, j := range cols {
		col := make([]float64, len(X))
		for i, row := range X {
			col[i] = row[j]
		}
		sum := npsum.Sum(col)
		t := sum / n
		tmp := make([]float64, len(col))
		for i, v := range col {
			tmp[i] = v - t
		}
		correction := npsum.Sum(tmp)
		for i, v := range tmp {
			tmp[i] = v * v
		}
		q := npsum.Sum(tmp)
		mean = append(mean, (0.0+sum)/n)
		variance = append(variance, (q-correction*correction/n)/n)
	}
	return mean, variance
}

func TestFitBlocksMatchColumnMajor(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 7, 8191, 8192, 8193, 20000, 40961} {
		X := make([][]float64, n)
		for i := range X {
			X[i] = []float64{rng.NormFloat64()*1e6 + 3e9, rng.Float64(), float64(rng.IntN(3)), -rng.ExpFloat64() * 1e-12, math.Copysign(0, -1)}
		}
		cols := []int{4, 0, 1, 3}
		var s StandardScaler
		if err := s.Fit(X, cols); err != nil {
			t.Fatal(err)
		}
		mean, variance := columnMajorFit(X, cols)
		for c := range cols {
			if math.Float64bits(s.Mean[c]) != math.Float64bits(mean[c]) || math.Float64bits(s.Var[c]) != math.Float64bits(variance[c]) {
				t.Errorf("n=%d column %d: mean %v var %v, column-major %v %v", n, cols[c], s.Mean[c], s.Var[c], mean[c], variance[c])
			}
		}
	}
}

// TestFitReportsFirstErrorInColumnOrder: validation scans rows once but
// reports the error the column-by-column scan met first.
func TestFitReportsFirstErrorInColumnOrder(t *testing.T) {
	X := [][]float64{{1, 2, 3}, {4, math.NaN(), 6}, {7, 8}, {math.NaN(), 1, 2}}
	cases := []struct {
		cols []int
		want string
	}{
		{[]int{0, 1, 2}, "NaN in row 3 column 0"},
		{[]int{1, 0}, "NaN in row 1 column 1"},
		{[]int{2, 0}, "column 2 out of range in row 2"},
		{[]int{5}, "column 5 out of range in row 0"},
	}
	for _, c := range cases {
		var s StandardScaler
		err := s.Fit(X, c.cols)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("cols %v: error %v, want %q", c.cols, err, c.want)
		}
	}
}

// firstBadReference is the validation as a scan of its own: the first
// row, column by column, where the column is out of range or NaN.
func firstBadReference(X [][]float64, cols []int) string {
	for _, j := range cols {
		for i, row := range X {
			if j < 0 || j >= len(row) {
				return fmt.Sprintf("StandardScaler: column %d out of range in row %d (width %d)", j, i, len(row))
			}
			if math.IsNaN(row[j]) {
				return fmt.Sprintf("StandardScaler: NaN in row %d column %d", i, j)
			}
		}
	}
	return ""
}

// TestFitErrorsAcrossBlocks: the validation folded into the first pass
// reports what a scan of its own would, with NaNs and short rows spread
// over several of the pass's blocks.
func TestFitErrorsAcrossBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for trial := 0; trial < 400; trial++ {
		n := []int{3, 40, 8193, 20000}[trial%4]
		X := make([][]float64, n)
		for i := range X {
			X[i] = []float64{rng.Float64(), rng.Float64(), rng.Float64()}
		}
		for k := rng.IntN(12); k > 0; k-- {
			i := rng.IntN(n)
			if rng.IntN(2) == 0 {
				X[i] = X[i][:rng.IntN(3)]
			} else if j := rng.IntN(3); j < len(X[i]) {
				X[i][j] = math.NaN()
			}
		}
		cols := [][]int{{0, 1, 2}, {2, 0}, {1}, {2, 1, 0}, {0, -1}, {3, 0}}[rng.IntN(6)]
		want := firstBadReference(X, cols)
		var s StandardScaler
		err := s.Fit(X, cols)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != want {
			t.Fatalf("trial %d (n=%d, cols %v): error %q, want %q", trial, n, cols, got, want)
		}
	}
}

// BenchmarkScalerFit fits a scaler on 800,000 of 10^6 rows × 20 columns,
// taken in row order from one flat matrix as a training fold's rows are:
// the rows a fit reads are scattered through memory.
func BenchmarkScalerFit(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	const n, d = 1_000_000, 20
	flat := make([]float64, n*d)
	for i := range flat {
		flat[i] = rng.NormFloat64()
	}
	var X [][]float64
	for i := 0; i < n; i++ {
		if i%5 != 0 {
			X = append(X, flat[i*d:(i+1)*d:(i+1)*d])
		}
	}
	cols := make([]int, d)
	for j := range cols {
		cols[j] = j
	}
	b.ReportAllocs()
	for b.Loop() {
		var s StandardScaler
		if err := s.Fit(X, cols); err != nil {
			b.Fatal(err)
		}
	}
}
