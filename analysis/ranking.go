package analysis

import (
	"math"
	"slices"
	"sort"

	"github.com/fgrtbench/fgrtbench/stats"
)

// Ranking is the headline of one protocol: its methods — every method
// label with selected rows under it, grid variants such as cart@text
// included, sweep-only labels not — in the order every view lists them,
// best mean rank of accuracy first. REPORT.md's headline table, the ranks
// table and the terminal's last lines all print this list, so they cannot
// differ in which methods they rank, in their ranks or in their order.
type Ranking struct {
	Protocol string `json:"protocol"`
	// Datasets are those the ranks cover (every method has a cell on
	// each); Excluded those some method lacks.
	Datasets []string `json:"datasets"`
	Excluded []string `json:"excluded,omitempty"`
	Methods  []Ranked `json:"methods"`
}

// Ranked is one method of a Ranking.
type Ranked struct {
	Label   string `json:"label"`
	Display string `json:"display"`
	// MeanRank is the mean rank of the method's accuracy over Datasets (1 =
	// best): the Friedman test's average ranks, or with a single dataset
	// (too few for a test, enough for a ranking) the ranks on it; 1 for
	// the only method of a protocol. NaN (null) when nothing is ranked: no
	// dataset every method has.
	MeanRank float64 `json:"mean_rank"`
	// BestOn counts the datasets of Datasets on which the method has the
	// best accuracy (a tie counts for each tied method).
	BestOn int `json:"best_on"`
}

// headlineProtocol is the protocol the headline shows: clean (every test
// fold used once) when the study ran it, else the first.
func headlineProtocol(protocols []string) string {
	if slices.Contains(protocols, "clean") {
		return "clean"
	}
	if len(protocols) > 0 {
		return protocols[0]
	}
	return ""
}

// RankingOf returns the ranking of a protocol.
func (a *Analysis) RankingOf(protocol string) (Ranking, bool) {
	for _, r := range a.Rankings {
		if r.Protocol == protocol {
			return r, true
		}
	}
	return Ranking{}, false
}

// ComparedMethods lists the method labels the tables compare (those with
// selected rows under some protocol), in display order: the count a
// report gives as the study's methods. Labels with sweep points only are
// in Methods, not here.
func (a *Analysis) ComparedMethods() []string { return MethodsOf(a.Cells, a.pres) }

// computeRankings orders each protocol's tested methods by mean rank,
// ties in display order, unranked methods last.
func computeRankings(a *Analysis) ([]Ranking, error) {
	out := make([]Ranking, 0, len(a.Tests))
	for _, t := range a.Tests {
		r, err := a.rankingOf(t)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// rankingOf ranks every compared method of one protocol, the baselines
// and duplicates the tests leave out (Tests.Baselines, Tests.Merged)
// included: the headline describes every method, the tests rank the
// competitors.
func (a *Analysis) rankingOf(t Tests) (Ranking, error) {
	r := Ranking{Protocol: t.Protocol, Datasets: t.Datasets, Excluded: t.Excluded}
	cells := FilterProtocol(a.Cells, t.Protocol)
	if all := MethodsOf(cells, a.pres); !slices.Equal(all, t.Methods) {
		// The tests rank a subset: rank all over the same datasets.
		t.Methods = all
		t.Friedman.AvgRanks = nil
		if m := accuracyMatrix(cells, t.Protocol, r.Datasets, all); len(m) > 0 && len(all) >= 2 {
			avg, err := stats.AverageRanks(m, true)
			if err != nil {
				return Ranking{}, err
			}
			t.Friedman.AvgRanks = avg
		}
	}
	if len(t.Methods) == 1 {
		// No test compares one method, but it still ranks first on
		// every dataset it has: the headline says so rather than "0
		// datasets".
		r.Datasets = DatasetsOf(cells)
	}
	matrix := accuracyMatrix(cells, t.Protocol, r.Datasets, t.Methods)
	ranks, err := meanRanks(t, matrix)
	if err != nil {
		return Ranking{}, err
	}
	best := bestCounts(matrix, len(t.Methods))
	for j, m := range t.Methods {
		mr := math.NaN()
		if j < len(ranks) {
			mr = ranks[j]
		}
		r.Methods = append(r.Methods, Ranked{Label: m, Display: a.pres.DisplayName(m), MeanRank: mr, BestOn: best[j]})
	}
	sort.SliceStable(r.Methods, func(i, j int) bool {
		ri, rj := r.Methods[i].MeanRank, r.Methods[j].MeanRank
		if math.IsNaN(ri) != math.IsNaN(rj) {
			return !math.IsNaN(ri)
		}
		return ri < rj
	})
	return r, nil
}

// accuracyMatrix holds one row of mean accuracies (in methods order) per
// dataset on which every method has a cell.
func accuracyMatrix(cells []Cell, protocol string, datasets, methods []string) [][]float64 {
	ix := map[foldKey]Cell{}
	for _, c := range cells {
		ix[foldKey{c.Protocol, c.Dataset, c.Method}] = c
	}
	var matrix [][]float64
	for _, d := range datasets {
		row := make([]float64, len(methods))
		complete := true
		for j, m := range methods {
			c, ok := ix[foldKey{protocol, d, m}]
			complete = complete && ok
			row[j] = c.Accuracy
		}
		if complete {
			matrix = append(matrix, row)
		}
	}
	return matrix
}

// meanRanks are the methods' mean ranks: the Friedman test's, or with a
// single complete dataset (too few for a test) the ranks on it, or 1 for
// the only method of a protocol.
func meanRanks(t Tests, matrix [][]float64) ([]float64, error) {
	ranks := t.Friedman.AvgRanks
	if len(ranks) != len(t.Methods) && len(t.Methods) >= 2 && len(matrix) == 1 {
		return stats.AverageRanks(matrix, true)
	}
	if len(t.Methods) == 1 && len(matrix) > 0 {
		ranks = []float64{1}
	}
	return ranks, nil
}

// bestCounts counts, per method, the rows of matrix on which it has the
// best accuracy (a tie counts for each tied method); the only method of a
// protocol is best on every row.
func bestCounts(matrix [][]float64, methods int) []int {
	best := make([]int, methods)
	if methods == 1 {
		best[0] = len(matrix)
		return best
	}
	for _, row := range matrix {
		rk := stats.Rank(row, true)
		top := slices.Min(rk)
		for j, v := range rk {
			if v == top {
				best[j]++
			}
		}
	}
	return best
}

// RankRow is one line of a protocol's ranks table: a tested method, its
// average rank and its distance to the best average rank.
type RankRow struct {
	Method     string
	AvgRank    float64
	DiffToBest float64
	// TiedBest: the average rank is within TieTol of the best.
	TiedBest bool
	// WithinCD05: the method is the best, or within CD05 of it (false
	// when CD05 is not positive).
	WithinCD05 bool
}

// RankRows lists the tested methods of t in the order of its protocol's
// ranking (best mean rank first) with their average ranks and distance to
// the best; false when the ranking does not cover exactly the tested
// methods or the tests hold no average rank for each.
func (a *Analysis) RankRows(t Tests) ([]RankRow, bool) {
	var order []int
	if rk, ok := a.RankingOf(t.Protocol); ok {
		for _, m := range rk.Methods {
			if j := slices.Index(t.Methods, m.Label); j >= 0 {
				order = append(order, j)
			}
		}
	}
	if len(order) != len(t.Methods) || len(t.Friedman.AvgRanks) != len(t.Methods) {
		return nil, false
	}
	// The ranking orders every method; the tests may rank fewer, whose
	// own ranks then decide (ties keep the ranking's order).
	sort.SliceStable(order, func(i, j int) bool { return t.Friedman.AvgRanks[order[i]] < t.Friedman.AvgRanks[order[j]] })
	rows := make([]RankRow, 0, len(order))
	for _, j := range order {
		ar, best := t.Friedman.AvgRanks[j], t.Friedman.AvgRanks[order[0]]
		m := t.Methods[j]
		rows = append(rows, RankRow{Method: m, AvgRank: ar, DiffToBest: ar - best, TiedBest: ar-best <= TieTol,
			WithinCD05: t.CD05 > 0 && (m == t.Best || slices.Contains(t.WithinCD05, m))})
	}
	return rows, true
}
