package analysis

// This file is the only one in package analysis that imports gota: it turns
// per-row values into per-group means and standard deviations. Replacing the
// data-frame library means rewriting groupFrames alone.

import (
	"fmt"
	"math"
	"sort"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"

	"github.com/fgrtbench/fgrtbench/internal/fmath"
)

// groupSummary holds, for one group, the row count and each column's mean
// and population standard deviation (ddof 0, as numpy's std in the authors'
// driver).
type groupSummary struct {
	Group int
	N     int
	Mean  []float64
	Std   []float64
}

// groupMeanStd aggregates columns[c][i] by group[i]. Groups are integer ids
// chosen by the caller (so no key string ever goes through the data frame's
// type inference); the result is sorted by group id. Within a group, rows
// are reduced in input order, so equal inputs give bit-identical outputs.
// The data frame groups the rows; each group's mean and deviation come from
// fmath.MeanStdDev, gonum's stat.MeanStdDev as amd64 computes it, since the
// frame's own MEAN and STD aggregations call gonum, whose sum is assembly on
// amd64 and a plain loop (another order) elsewhere
// (docs/fidelity.md#portability).
func groupMeanStd(group []int, columns [][]float64) ([]groupSummary, error) {
	if len(group) == 0 {
		return nil, nil
	}
	for c, col := range columns {
		if len(col) != len(group) {
			return nil, fmt.Errorf("analysis: column %d has %d values for %d rows", c, len(col), len(group))
		}
	}
	frames, err := groupFrames(group, columns)
	if err != nil {
		return nil, err
	}
	out := make([]groupSummary, 0, len(frames))
	for _, f := range frames {
		ids, err := f.Col("g").Int()
		if err != nil || len(ids) == 0 {
			return nil, fmt.Errorf("analysis: group ids: %v", err)
		}
		s := groupSummary{Group: ids[0], N: f.Nrow(), Mean: make([]float64, len(columns)), Std: make([]float64, len(columns))}
		for c := range columns {
			mean, sample := fmath.MeanStdDev(f.Col(fmt.Sprintf("c%d", c)).Float())
			s.Mean[c] = mean
			s.Std[c] = populationStd(sample, s.N)
		}
		out = append(out, s)
	}
	// The frame returns groups in map order; sort them.
	sort.Slice(out, func(a, b int) bool { return out[a].Group < out[b].Group })
	return out, nil
}

// groupFrames puts the group ids ("g") and the columns (c<i>) in a data
// frame and splits it by group, each group's rows in input order.
func groupFrames(group []int, columns [][]float64) (map[string]dataframe.DataFrame, error) {
	cols := []series.Series{series.New(group, series.Int, "g")}
	for c, col := range columns {
		cols = append(cols, series.New(col, series.Float, fmt.Sprintf("c%d", c)))
	}
	df := dataframe.New(cols...)
	if df.Err != nil {
		return nil, fmt.Errorf("analysis: building data frame: %v", df.Err)
	}
	groups := df.GroupBy("g")
	if groups.Err != nil {
		return nil, fmt.Errorf("analysis: group-by: %v", groups.Err)
	}
	return groups.GetGroups(), nil
}

// populationStd rescales the frame's sample deviation (n-1) of a group of
// n rows to the population deviation; one row has deviation 0.
func populationStd(sample float64, n int) float64 {
	if n <= 1 || math.IsNaN(sample) {
		return 0
	}
	return sample * math.Sqrt((float64(n)-1)/float64(n))
}
