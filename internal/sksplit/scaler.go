package sksplit

import (
	"errors"
	"fmt"
	"math"

	"github.com/fgrtbench/fgrtbench/internal/npsum"
)

// StandardScaler is sklearn's StandardScaler (with_mean, with_std, no sample
// weights) restricted to a subset of columns of a row-major matrix. The
// fitted statistics are computed per column in numpy's column-major pairwise
// order, so they match sklearn fitted on DataFrame.values[:, cols] bit for
// bit.
type StandardScaler struct {
	Cols  []int     // columns scaled, in the order given to Fit
	Mean  []float64 // per entry of Cols
	Var   []float64 // population variance (ddof 0)
	Scale []float64 // sqrt(Var), or 1 for a (numerically) constant column
	N     int       // number of rows fitted
}

// Fit computes mean, variance and scale of the columns cols of X.
// It returns an error for empty X, ragged rows, out-of-range columns or NaN
// values (sklearn's NaN handling is not reproduced).
func (s *StandardScaler) Fit(X [][]float64, cols []int) error {
	n := len(X)
	if n == 0 {
		return errors.New("StandardScaler: no rows to fit")
	}
	for _, j := range cols {
		for i, row := range X {
			if j < 0 || j >= len(row) {
				return fmt.Errorf("StandardScaler: column %d out of range in row %d (width %d)", j, i, len(row))
			}
			if math.IsNaN(row[j]) {
				return fmt.Errorf("StandardScaler: NaN in row %d column %d", i, j)
			}
		}
	}
	s.Cols = append([]int(nil), cols...)
	s.Mean = make([]float64, len(cols))
	s.Var = make([]float64, len(cols))
	s.Scale = make([]float64, len(cols))
	s.N = n
	nf := float64(n)
	const eps = 2.220446049250313e-16
	col := make([]float64, n)
	tmp := make([]float64, n)
	for c, j := range cols {
		for i, row := range X {
			col[i] = row[j]
		}
		sum := npsum.Sum(col)
		// _incremental_mean_and_var on a first call: T = new_sum / count
		// centres the data; the stored mean is (last_sum + new_sum) / count
		// with last_sum = 0.0 (identical except for the sign of a zero).
		t := sum / nf
		for i, v := range col {
			tmp[i] = v - t
		}
		correction := npsum.Sum(tmp)
		for i, v := range tmp {
			tmp[i] = v * v
		}
		q := npsum.Sum(tmp)
		unnorm := q - correction*correction/nf
		mean := (0.0 + sum) / nf
		variance := unnorm / nf
		s.Mean[c] = mean
		s.Var[c] = variance
		// _is_constant_feature: var <= n*eps*var + (n*mean*eps)**2, evaluated
		// left to right as numpy does.
		nm := nf * mean * eps
		upper := float64(nf*eps*variance) + float64(nm*nm)
		if variance <= upper {
			s.Scale[c] = 1
		} else {
			s.Scale[c] = math.Sqrt(variance)
		}
	}
	return nil
}

// TransformInPlace replaces X[i][Cols[c]] by (x - Mean[c]) / Scale[c]
// (subtract, then divide: two roundings, as numpy's in-place ops).
func (s *StandardScaler) TransformInPlace(X [][]float64) error {
	for i, row := range X {
		for _, j := range s.Cols {
			if j >= len(row) {
				return fmt.Errorf("StandardScaler: row %d has width %d, column %d missing", i, len(row), j)
			}
		}
	}
	for _, row := range X {
		for c, j := range s.Cols {
			d := row[j] - s.Mean[c]
			row[j] = d / s.Scale[c]
		}
	}
	return nil
}

// Transform returns a scaled copy of X; X itself is not modified. A row too
// short to hold a scaled column keeps its values (TransformInPlace reports
// that case as an error).
func (s *StandardScaler) Transform(X [][]float64) [][]float64 {
	out := make([][]float64, len(X))
	for i, row := range X {
		out[i] = append([]float64(nil), row...)
		for c, j := range s.Cols {
			if j < len(row) {
				out[i][j] = (row[j] - s.Mean[c]) / s.Scale[c]
			}
		}
	}
	return out
}

// FitScaler is Fit for callers that have already validated X (no NaN, rows
// wide enough). On invalid input it returns the identity scaler over cols
// (mean 0, scale 1) instead of failing; call Fit to get the error.
func FitScaler(X [][]float64, cols []int) *StandardScaler {
	s := &StandardScaler{}
	if err := s.Fit(X, cols); err != nil {
		s.Cols = append([]int(nil), cols...)
		s.Mean = make([]float64, len(cols))
		s.Var = make([]float64, len(cols))
		s.Scale = make([]float64, len(cols))
		for c := range s.Scale {
			s.Scale[c] = 1
		}
		s.N = len(X)
	}
	return s
}
