package sksplit

import (
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
