package analysis

// This file is the only one in package analysis that imports gota: it turns
// per-row values into per-group means and standard deviations. Replacing the
// data-frame library means rewriting groupMeanStd alone.

import (
	"fmt"
	"math"
	"sort"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
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
func groupMeanStd(group []int, columns [][]float64) ([]groupSummary, error) {
	if len(group) == 0 {
		return nil, nil
	}
	for c, col := range columns {
		if len(col) != len(group) {
			return nil, fmt.Errorf("analysis: column %d has %d values for %d rows", c, len(col), len(group))
		}
	}
	agg, err := aggregateFrame(group, columns)
	if err != nil {
		return nil, err
	}
	ids, err := agg.Col("g").Int()
	if err != nil {
		return nil, fmt.Errorf("analysis: group ids: %v", err)
	}
	counts := agg.Col("n_COUNT").Float()
	out := make([]groupSummary, len(ids))
	for r, id := range ids {
		out[r] = groupSummary{Group: id, N: int(counts[r]), Mean: make([]float64, len(columns)), Std: make([]float64, len(columns))}
	}
	for c := range columns {
		means := agg.Col(fmt.Sprintf("c%d_MEAN", c)).Float()
		stds := agg.Col(fmt.Sprintf("c%d_STD", c)).Float()
		for r := range out {
			out[r].Mean[c] = means[r]
			out[r].Std[c] = populationStd(stds[r], out[r].N)
		}
	}
	// The frame returns groups in map order; sort them.
	sort.Slice(out, func(a, b int) bool { return out[a].Group < out[b].Group })
	return out, nil
}

// aggregateFrame groups the columns by group ("g") in a data frame and
// aggregates each column's mean and sample deviation (c<i>_MEAN,
// c<i>_STD) and the group sizes (n_COUNT).
func aggregateFrame(group []int, columns [][]float64) (dataframe.DataFrame, error) {
	cols := []series.Series{series.New(group, series.Int, "g")}
	var aggs []dataframe.AggregationType
	var aggCols []string
	for c, col := range columns {
		name := fmt.Sprintf("c%d", c)
		cols = append(cols, series.New(col, series.Float, name))
		aggs = append(aggs, dataframe.Aggregation_MEAN, dataframe.Aggregation_STD)
		aggCols = append(aggCols, name, name)
	}
	// COUNT of the group column itself, so that it exists with zero value columns.
	cols = append(cols, series.New(make([]float64, len(group)), series.Float, "n"))
	aggs = append(aggs, dataframe.Aggregation_COUNT)
	aggCols = append(aggCols, "n")

	df := dataframe.New(cols...)
	if df.Err != nil {
		return df, fmt.Errorf("analysis: building data frame: %v", df.Err)
	}
	groups := df.GroupBy("g")
	if groups.Err != nil {
		return df, fmt.Errorf("analysis: group-by: %v", groups.Err)
	}
	agg := groups.Aggregation(aggs, aggCols)
	if agg.Err != nil {
		return agg, fmt.Errorf("analysis: aggregation: %v", agg.Err)
	}
	return agg, nil
}

// populationStd rescales the frame's sample deviation (n-1) of a group of
// n rows to the population deviation; one row has deviation 0.
func populationStd(sample float64, n int) float64 {
	if n <= 1 || math.IsNaN(sample) {
		return 0
	}
	return sample * math.Sqrt((float64(n)-1)/float64(n))
}
