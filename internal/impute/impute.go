// Package impute fills missing input cells (NaN) for the missing-value
// policy impute: a numeric cell with the mean, a nominal cell with the most
// frequent code (the smallest on ties) of the rows the imputer is fitted
// on, as scikit-learn's SimpleImputer with strategies "mean" and
// "most_frequent" does. The protocols decide on which rows it is fitted
// (never on a test row).
package impute

import (
	"fmt"
	"math"
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
		sum, n := 0.0, 0
		for _, row := range rows {
			if v := row[j]; !math.IsNaN(v) {
				sum += v
				n++
			}
		}
		if n > 0 {
			fill[j] = sum / float64(n)
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
