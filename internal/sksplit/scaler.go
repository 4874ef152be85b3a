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
	if err := checkScalerInput(X, cols); err != nil {
		return err
	}
	s.Cols = append([]int(nil), cols...)
	s.Mean = make([]float64, len(cols))
	s.Var = make([]float64, len(cols))
	s.Scale = make([]float64, len(cols))
	s.N = n
	nf := float64(n)
	const eps = 2.220446049250313e-16
	sums, corrections, qs := columnMoments(X, cols)
	for c, sum := range sums {
		correction, q := corrections[c], qs[c]
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

// checkScalerInput refuses a column out of a row's range or a NaN cell.
// It validates in one row-major pass (a pass per column touches every row
// once per column, which on 10^6 rows is most of a fit's time); the error
// reported is still the first in column-then-row order.
func checkScalerInput(X [][]float64, cols []int) error {
	bad := make([]int, len(cols))
	for c := range bad {
		bad[c] = -1
	}
	for i, row := range X {
		for c, j := range cols {
			if bad[c] < 0 && (j < 0 || j >= len(row) || math.IsNaN(row[j])) {
				bad[c] = i
			}
		}
	}
	for c, i := range bad {
		if i < 0 {
			continue
		}
		if j, row := cols[c], X[i]; j < 0 || j >= len(row) {
			return fmt.Errorf("StandardScaler: column %d out of range in row %d (width %d)", j, i, len(row))
		}
		return fmt.Errorf("StandardScaler: NaN in row %d column %d", i, cols[c])
	}
	return nil
}

// columnMoments returns, for each column of cols, the sum of its values,
// the sum of its values centred on sum/n, and the sum of their squares,
// each summed as numpy sums.
//
// npsum.Sum adds the pairwise sums of consecutive blocks of npsum.Chunk
// values in order, so each column's sums are accumulated block by block:
// the rows of a block are gathered for every column while they are in
// cache, in two passes (the mean first, then the centred sums). Adding
// npsum.Sum of a block equals adding its pairwise sum: the accumulator
// starts at +0 and so is never -0.
func columnMoments(X [][]float64, cols []int) (sums, corrections, qs []float64) {
	n := len(X)
	block := min(n, npsum.Chunk)
	buf := make([]float64, len(cols)*block)
	tmp := make([]float64, block)
	gather := func(lo, hi int) {
		m := hi - lo
		for i, row := range X[lo:hi] {
			for c, j := range cols {
				buf[c*m+i] = row[j]
			}
		}
	}
	sums = make([]float64, len(cols))
	for lo := 0; lo < n; lo += block {
		hi := min(lo+block, n)
		gather(lo, hi)
		m := hi - lo
		for c := range cols {
			sums[c] += npsum.Sum(buf[c*m : (c+1)*m])
		}
	}
	// _incremental_mean_and_var on a first call: T = new_sum / count
	// centres the data; the stored mean is (last_sum + new_sum) / count
	// with last_sum = 0.0 (identical except for the sign of a zero).
	ts := make([]float64, len(cols))
	for c, sum := range sums {
		ts[c] = sum / float64(n)
	}
	corrections, qs = make([]float64, len(cols)), make([]float64, len(cols))
	for lo := 0; lo < n; lo += block {
		hi := min(lo+block, n)
		gather(lo, hi)
		m := hi - lo
		for c := range cols {
			t := tmp[:m]
			for i, v := range buf[c*m : (c+1)*m] {
				t[i] = v - ts[c]
			}
			corrections[c] += npsum.Sum(t)
			for i, v := range t {
				t[i] = v * v
			}
			qs[c] += npsum.Sum(t)
		}
	}
	return sums, corrections, qs
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
