// Package impute fills missing input cells (NaN) for the missing-value
// policy impute: a numeric cell with the mean, a nominal cell with the most
// frequent code (the smallest on ties) of the rows the imputer is fitted
// on, as scikit-learn's SimpleImputer with strategies "mean" and
// "most_frequent" does, bit for bit. The protocols decide on which rows it
// is fitted (never on a test row).
//
// The mean is SimpleImputer's np.ma.mean(X, axis=0): the column with its
// missing cells set to +0.0 is summed by numpy and divided by the count of
// values. numpy sums pairwise only along the fast axis, so this is the mean
// of a column-major X, the layout a pandas DataFrame hands to
// scikit-learn (and the one sksplit's StandardScaler assumes); a row-major
// numpy array would be summed row after row. See
// docs/data.md#missing-values.
package impute

import (
	"fmt"
	"math"

	"github.com/fgrtbench/fgrtbench/internal/npsum"
)

// Imputer knows which columns of a matrix have missing cells and how to
// fit their values on a subset of its rows.
type Imputer struct {
	x     [][]float64 // the rows, missing cells NaN
	cols  []int       // the columns with at least one missing cell
	names []string    // every column's name
	// levels[j] is the number of codes of nominal column j (0: numeric).
	levels []int
	cells  int
}

// New returns the imputer of rows x, whose column j is nominal with
// levels[j] codes (0 for a numeric column) and named names[j], or nil when
// x has no missing cell: a nil Imputer fills nothing.
func New(x [][]float64, levels []int, names []string) *Imputer {
	m := &Imputer{x: x, levels: levels, names: names}
	missing := make([]int, len(levels))
	for _, row := range x {
		for j, v := range row {
			if j < len(missing) && math.IsNaN(v) {
				missing[j]++
			}
		}
	}
	for j, n := range missing {
		if n > 0 {
			m.cols = append(m.cols, j)
			m.cells += n
		}
	}
	if m.cells == 0 {
		return nil
	}
	return m
}

// Cells is the number of missing cells of the imputer's rows.
func (m *Imputer) Cells() int {
	if m == nil {
		return 0
	}
	return m.cells
}

// Fit returns the value each imputed column takes when fitted on rows
// (NaN for the columns without a missing cell, and for a column with no
// value among rows: see Check), or nil for a nil imputer.
func (m *Imputer) Fit(rows [][]float64) []float64 {
	if m == nil {
		return nil
	}
	fill := make([]float64, len(m.levels))
	for j := range fill {
		fill[j] = math.NaN()
	}
	var col []float64 // one numeric column at a time, missing cells +0.0
	for _, j := range m.cols {
		if m.levels[j] > 0 {
			counts := make([]int, m.levels[j])
			for _, row := range rows {
				if v := row[j]; !math.IsNaN(v) && v >= 0 {
					c := int(v)
					if c >= len(counts) {
						counts = append(counts, make([]int, c+1-len(counts))...)
					}
					counts[c]++
				}
			}
			best := -1
			for c, n := range counts {
				if n > 0 && (best < 0 || n > counts[best]) {
					best = c
				}
			}
			if best >= 0 {
				fill[j] = float64(best)
			}
			continue
		}
		// The zeros stay in the array: they take part in numpy's
		// pairwise blocks, so dropping them would regroup the additions.
		col = col[:0]
		n := 0
		for _, row := range rows {
			v := row[j]
			if math.IsNaN(v) {
				v = 0
			} else {
				n++
			}
			col = append(col, v)
		}
		if n > 0 {
			fill[j] = npsum.Sum(col) / float64(n)
		}
	}
	return fill
}

// Row copies src into dst with each missing cell replaced by its column's
// value in fill.
func Row(dst, src, fill []float64) {
	for j, v := range src {
		if math.IsNaN(v) {
			v = fill[j]
		}
		dst[j] = v
	}
}

// Check refuses a split on which the imputer would have nothing to fit: an
// imputed column with no value among the training rows train (indices of
// the imputer's rows) or, when inner is not nil, among the training rows
// of an inner fold (inner[i] is the inner test fold of train[i]).
func (m *Imputer) Check(train, inner []int) error {
	if m == nil {
		return nil
	}
	for _, j := range m.cols {
		first := -1
		for i, r := range train {
			if !math.IsNaN(m.x[r][j]) {
				first = i
				break
			}
		}
		if first < 0 {
			return fmt.Errorf("column %s has no value in the training rows, so missing-value policy impute has nothing to fill it with (use drop)", m.names[j])
		}
		if inner == nil {
			continue
		}
		// Every inner fold but first's trains on row first; that one
		// needs another row with a value outside it.
		ok := false
		for i, r := range train {
			if inner[i] != inner[first] && !math.IsNaN(m.x[r][j]) {
				ok = true
				break
			}
		}
		if !ok {
			return fmt.Errorf("column %s has no value in the training rows of inner fold %d, so missing-value policy impute has nothing to fill it with (use drop)", m.names[j], inner[first])
		}
	}
	return nil
}
