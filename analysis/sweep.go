package analysis

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/results"
)

// Hyperparameter sweeps as results of their own. A method's rows form a
// sweep in one protocol when its units record several configurations each:
// selection "sweep" (every point reported, none selected), or a grid
// selected per fold by test accuracy, whose losing configurations are
// recorded too (selected=false) and are sweep points as much as the winner.
// A point is one configuration (results.csv's config column); it is
// aggregated over the folds and repeats of each dataset.

// Point aggregates rows of one method on one dataset: either the rows of
// one configuration of a sweep (Config set), or the selected rows of the
// method (Config empty, Selection the rule that chose them).
type Point struct {
	Protocol, Dataset, Method string
	// Config is the canonical configuration of a sweep point; empty for
	// the selected rows.
	Config string
	// ConfigIndex is the configuration's position in the method's grid or
	// sweep (the lowest over rows), which orders the points.
	ConfigIndex int
	// Selection lists the selection rules of the rows, sorted, '+'-joined.
	Selection string
	// Swept marks a configuration of a sweep (else: the selected rows).
	Swept bool
	// N counts the rows (folds × repeats).
	N int
	// Means over the rows; the accuracy deviations are population ones
	// (ddof 0), as in Cell.
	Accuracy, AccuracyStd                 float64
	BalancedAccuracy, BalancedAccuracyStd float64
	Rules, Antecedents, RulebaseSize      float64
	RulebaseSizeStd                       float64
	FitSeconds                            float64
}

// pointKey identifies a point while aggregating.
type pointKey struct {
	protocol, dataset, method, config string
	sweep                             bool
}

// sweepLabels returns the (protocol, method) pairs whose rows form sweeps:
// selection "sweep", or some unit with rows for two or more configurations.
func sweepLabels(recs []results.Record) map[[2]string]bool {
	perUnit := map[string]int{}
	out := map[[2]string]bool{}
	for _, r := range recs {
		pm := [2]string{r.Protocol, r.Method}
		if r.Selection == "sweep" {
			out[pm] = true
		}
		k := r.Protocol + "\x00" + r.Method + "\x00" + r.Key + "\x00" + r.Dataset + "\x00" + strconv.Itoa(r.Repeat) + "\x00" + strconv.Itoa(r.Fold)
		if perUnit[k]++; perUnit[k] == 2 && r.Selection != "inner-cv" {
			out[pm] = true
		}
	}
	return out
}

// Points aggregates records into the points of every sweep (one per
// protocol, dataset, method and configuration) and the selected rows of
// every method (one per protocol, dataset and method). Points come back
// sorted by protocol, dataset, method, kind (selected first) and
// configuration index. Two rows of a sweep point for the same repeat and
// fold are an error, as are two selected rows of a method.
func Points(recs []results.Record) ([]Point, error) {
	rows := pointRows(recs)
	g, err := groupPoints(rows)
	if err != nil {
		return nil, err
	}
	sums, err := groupMeanStd(g.group, g.columns)
	if err != nil {
		return nil, err
	}
	if len(sums) != len(g.keys) {
		return nil, fmt.Errorf("analysis: aggregation returned %d groups for %d points", len(sums), len(g.keys))
	}
	out := make([]Point, len(sums))
	for i, sum := range sums {
		out[i] = g.point(sum)
	}
	sort.SliceStable(out, func(i, j int) bool { return pointLess(out[i], out[j]) })
	return out, nil
}

// pointRow is a record under the point it counts for.
type pointRow struct {
	key pointKey
	rec results.Record
}

// pointRows files each record under its points: its configuration's, for
// a swept method, and its selection's, when selected. They are in
// canonical order, so that means are reduced in the same order however
// the records were shuffled.
func pointRows(recs []results.Record) []pointRow {
	sweeps := sweepLabels(recs)
	var rows []pointRow
	for _, r := range recs {
		if sweeps[[2]string{r.Protocol, r.Method}] {
			rows = append(rows, pointRow{pointKey{r.Protocol, r.Dataset, r.Method, r.Config, true}, r})
		}
		if r.Selected {
			rows = append(rows, pointRow{pointKey{r.Protocol, r.Dataset, r.Method, "", false}, r})
		}
	}
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a.key != b.key {
			return a.key.less(b.key)
		}
		return withinPoint.Compare(a.rec, b.rec) < 0
	})
	return rows
}

// The columns a point averages, in pointGroups.columns.
const (
	pointAcc = iota
	pointBal
	pointRules
	pointAnt
	pointSize
	pointFit
	pointColumns
)

// pointGroups is the sorted rows as groupMeanStd takes them: each row's
// group (its point's index in keys) and its values by column, with what
// each point gathers besides means.
type pointGroups struct {
	keys       []pointKey
	group      []int
	columns    [][]float64
	minIndex   map[pointKey]int
	selections map[pointKey]map[string]bool
}

// groupPoints groups sorted rows by point, refusing a point with two rows
// for one repeat and fold.
func groupPoints(rows []pointRow) (pointGroups, error) {
	g := pointGroups{group: make([]int, len(rows)), columns: make([][]float64, pointColumns),
		minIndex: map[pointKey]int{}, selections: map[pointKey]map[string]bool{}}
	for c := range g.columns {
		g.columns[c] = make([]float64, len(rows))
	}
	for i, rw := range rows {
		r := rw.rec
		if len(g.keys) == 0 || g.keys[len(g.keys)-1] != rw.key {
			g.keys = append(g.keys, rw.key)
			g.selections[rw.key] = map[string]bool{}
			g.minIndex[rw.key] = r.ConfigIndex
		} else if p := rows[i-1].rec; p.Repeat == r.Repeat && p.Fold == r.Fold {
			what := "two selected rows"
			if rw.key.sweep {
				what = fmt.Sprintf("two rows of configuration %q", r.Config)
			}
			return g, fmt.Errorf("analysis: %s/%s/%s has %s for repeat %d fold %d", r.Protocol, r.Dataset, r.Method, what, r.Repeat, r.Fold)
		}
		g.group[i] = len(g.keys) - 1
		g.selections[rw.key][r.Selection] = true
		g.minIndex[rw.key] = min(g.minIndex[rw.key], r.ConfigIndex)
		g.columns[pointAcc][i] = r.Accuracy
		g.columns[pointBal][i] = r.BalancedAccuracy
		g.columns[pointRules][i] = float64(r.Rules)
		g.columns[pointAnt][i] = float64(r.Antecedents)
		g.columns[pointSize][i] = float64(r.RulebaseSize)
		g.columns[pointFit][i] = r.FitSeconds
	}
	return g, nil
}

// point is the Point of one group's means.
func (g pointGroups) point(sum groupSummary) Point {
	k := g.keys[sum.Group]
	p := Point{
		Protocol: k.protocol, Dataset: k.dataset, Method: k.method, Config: k.config, ConfigIndex: g.minIndex[k],
		Selection: strings.Join(slices.Sorted(maps.Keys(g.selections[k])), "+"), Swept: k.sweep, N: sum.N,
		Accuracy: sum.Mean[pointAcc], AccuracyStd: sum.Std[pointAcc],
		BalancedAccuracy: sum.Mean[pointBal], BalancedAccuracyStd: sum.Std[pointBal],
		Rules: sum.Mean[pointRules], Antecedents: sum.Mean[pointAnt],
		RulebaseSize: sum.Mean[pointSize], RulebaseSizeStd: sum.Std[pointSize], FitSeconds: sum.Mean[pointFit],
	}
	if !k.sweep {
		// A selected point has no single configuration.
		p.Config, p.ConfigIndex = "", 0
	}
	return p
}

// pointLess orders points by protocol, dataset and method, a method's
// selected point before its sweep, and a sweep by configuration.
func pointLess(a, b Point) bool {
	ka := pointKey{a.Protocol, a.Dataset, a.Method, "", false}
	kb := pointKey{b.Protocol, b.Dataset, b.Method, "", false}
	if ka != kb {
		return ka.less(kb)
	}
	if a.Swept != b.Swept {
		return !a.Swept
	}
	if a.ConfigIndex != b.ConfigIndex {
		return a.ConfigIndex < b.ConfigIndex
	}
	return a.Config < b.Config
}

// withinPoint is the order Points reduces the records of one point in.
var withinPoint = results.Order{results.ByRepeat, results.ByFold, results.ByKey}

func (k pointKey) less(o pointKey) bool {
	if k.protocol != o.protocol {
		return k.protocol < o.protocol
	}
	if k.dataset != o.dataset {
		return k.dataset < o.dataset
	}
	if k.method != o.method {
		return k.method < o.method
	}
	if k.sweep != o.sweep {
		return !k.sweep
	}
	return k.config < o.config
}

// Sweep is one method's sweep in one protocol.
type Sweep struct {
	Protocol, Method string
	// Params are the swept parameters (those whose value differs between
	// configurations), sorted by name; empty for a one-point sweep.
	Params []string
	// Configs are the sweep's configurations in grid order, and Values[i]
	// the values of Params in Configs[i].
	Configs []string
	Values  [][]string
	// Datasets in display order.
	Datasets []string
	// Points holds, for each dataset (outer, in Datasets order) and each
	// configuration (inner, in Configs order), the point; a missing point
	// has N = 0.
	Points [][]Point
	// Selected are the selected points, on the sweep's datasets, of the
	// method itself (a test-selected grid) and of every other method label
	// of the same registry method (a variant such as fgrt-fixed), to show
	// beside the sweep.
	Selected []Point

	// Computed once by Sweeps (summarise); the methods Ranks, Pooled, Best
	// and PooledBest return them.
	RankPerDataset [][]float64 `json:"rank_per_dataset"`
	MeanRank       []float64   `json:"mean_rank"`
	BestPerDataset []int       `json:"best_per_dataset"`
	// PooledPoints[i] is configuration i's mean over datasets (N = 0 when
	// it is missing on some dataset); PooledBestConfig the configuration
	// with the lowest mean rank (-1 when none is on every dataset).
	PooledPoints     []Point `json:"pooled"`
	PooledBestConfig int     `json:"pooled_best"`
	// PooledCIs[i] is configuration i's confidence half-widths
	// (sweep_pooled.go); SelectedPooled the selected variants on every
	// dataset with their pooled means, in Selected's order.
	PooledCIs      []PooledCI       `json:"pooled_ci95"`
	SelectedPooled []SelectedPooled `json:"selected_pooled"`
	summarised     bool
}

// summarise stores the sweep's ranks, best points and pooled points.
func (s *Sweep) summarise() {
	s.RankPerDataset, s.MeanRank = s.ranks()
	s.BestPerDataset = s.best()
	s.PooledPoints = make([]Point, len(s.Configs))
	for i := range s.Configs {
		s.PooledPoints[i], _ = s.pooled(i)
	}
	s.PooledBestConfig = s.pooledBest()
	s.PooledCIs = make([]PooledCI, len(s.Configs))
	for i := range s.Configs {
		s.PooledCIs[i] = s.pooledCI(i)
	}
	s.SelectedPooled = s.selectedPooled()
	s.summarised = true
}

// Ranks returns, per dataset, the rank of each configuration by mean
// accuracy (1 = best, ties averaged; NaN where the point is missing), and
// per configuration the mean rank over the datasets, NaN for a
// configuration missing on some dataset (it cannot be ranked fairly).
func (s Sweep) Ranks() (perDataset [][]float64, mean []float64) {
	if s.summarised {
		return s.RankPerDataset, s.MeanRank
	}
	return s.ranks()
}

// Pooled returns configuration i's means over the datasets of the
// per-dataset means (N = datasets; deviations left zero), the pooled point
// of the tables and figures; false when the configuration is missing on
// some dataset (a mean over fewer would not compare).
func (s Sweep) Pooled(i int) (Point, bool) {
	if s.summarised {
		return s.PooledPoints[i], s.PooledPoints[i].N > 0
	}
	return s.pooled(i)
}

// Best returns, per dataset, the index of the configuration with the best
// mean accuracy (ties: the lowest grid index), -1 when none.
func (s Sweep) Best() []int {
	if s.summarised {
		return s.BestPerDataset
	}
	return s.best()
}

// PooledBest returns the configuration with the lowest mean rank (ties: the
// lowest grid index), -1 when no configuration is on every dataset.
func (s Sweep) PooledBest() int {
	if s.summarised {
		return s.PooledBestConfig
	}
	return s.pooledBest()
}

// Label is the short text of configuration i: its swept values as
// "name=value" pairs joined by ", ".
func (s Sweep) Label(i int) string {
	if len(s.Params) == 0 {
		return "(one configuration)"
	}
	parts := make([]string, len(s.Params))
	for j, p := range s.Params {
		parts[j] = p + "=" + s.Values[i][j]
	}
	return strings.Join(parts, ", ")
}

// Sweeps groups points into sweeps, sorted by protocol (paper first) and
// method. base maps a method label to its registry method (labels not in it
// are their own base, with a variant suffix "@…" removed); it decides which
// selected variants are shown beside a sweep.
func Sweeps(points []Point, base map[string]string, pres results.Presentation) ([]Sweep, error) {
	order, bySweep := sweepOrder(points, pres)
	var out []Sweep
	for _, k := range order {
		s := Sweep{Protocol: k.protocol, Method: k.method}
		pts := bySweep[k]
		if err := s.setConfigs(pts); err != nil {
			return nil, err
		}
		inSweep := s.setGrid(pts)
		for _, p := range points {
			if !p.Swept && p.Protocol == k.protocol && inSweep[p.Dataset] && (p.Method == k.method || BaseMethod(p.Method, base) == BaseMethod(k.method, base)) {
				s.Selected = append(s.Selected, p)
			}
		}
		s.summarise()
		out = append(out, s)
	}
	return out, nil
}

// sweepKey names one sweep.
type sweepKey struct{ protocol, method string }

// sweepOrder groups the swept points by sweep, and orders the sweeps:
// the paper protocol, then clean, then the others by name; within one,
// methods in the presentation's order.
func sweepOrder(points []Point, pres results.Presentation) (order []sweepKey, bySweep map[sweepKey][]Point) {
	bySweep = map[sweepKey][]Point{}
	for _, p := range points {
		if !p.Swept {
			continue
		}
		k := sweepKey{p.Protocol, p.Method}
		if _, ok := bySweep[k]; !ok {
			order = append(order, k)
		}
		bySweep[k] = append(bySweep[k], p)
	}
	var labels []string
	for _, k := range order {
		labels = append(labels, k.method)
	}
	pres.Sort(labels)
	methodRank := map[string]int{}
	for i, m := range labels {
		if _, ok := methodRank[m]; !ok {
			methodRank[m] = i
		}
	}
	protoRank := func(p string) int { return rankOf([]string{"paper", "clean"}, p) }
	sort.SliceStable(order, func(i, j int) bool {
		a, b := order[i], order[j]
		if a.protocol != b.protocol {
			if ra, rb := protoRank(a.protocol), protoRank(b.protocol); ra != rb {
				return ra < rb
			}
			return a.protocol < b.protocol
		}
		return methodRank[a.method] < methodRank[b.method]
	})
	return order, bySweep
}

// setConfigs sets the sweep's configurations (by their lowest index, then
// by text), the parameters they sweep and each one's values ("—" where a
// configuration does not set one).
func (s *Sweep) setConfigs(pts []Point) error {
	cfgIndex := map[string]int{}
	for _, p := range pts {
		if i, ok := cfgIndex[p.Config]; !ok || p.ConfigIndex < i {
			cfgIndex[p.Config] = p.ConfigIndex
		}
	}
	for c := range cfgIndex {
		s.Configs = append(s.Configs, c)
	}
	sort.Slice(s.Configs, func(i, j int) bool {
		a, b := s.Configs[i], s.Configs[j]
		if cfgIndex[a] != cfgIndex[b] {
			return cfgIndex[a] < cfgIndex[b]
		}
		return a < b
	})
	parsed := make([]learn.Values, len(s.Configs))
	for i, c := range s.Configs {
		pc, err := learn.ParseValues(c)
		if err != nil {
			return fmt.Errorf("analysis: %s/%s: %v", s.Protocol, s.Method, err)
		}
		parsed[i] = pc
	}
	s.Params = sweptParams(parsed)
	for _, pc := range parsed {
		vals := make([]string, len(s.Params))
		for j, p := range s.Params {
			vals[j] = pc[p]
			if _, ok := pc[p]; !ok {
				vals[j] = "—"
			}
		}
		s.Values = append(s.Values, vals)
	}
	return nil
}

// setGrid sets the sweep's datasets and its points by dataset and
// configuration, and returns the datasets as a set.
func (s *Sweep) setGrid(pts []Point) map[string]bool {
	seen := map[string]bool{}
	for _, p := range pts {
		if !seen[p.Dataset] {
			seen[p.Dataset] = true
			s.Datasets = append(s.Datasets, p.Dataset)
		}
	}
	SortDatasets(s.Datasets)
	row := map[string]int{}
	for i, d := range s.Datasets {
		row[d] = i
	}
	col := map[string]int{}
	for i, c := range s.Configs {
		col[c] = i
	}
	s.Points = make([][]Point, len(s.Datasets))
	for i := range s.Points {
		s.Points[i] = make([]Point, len(s.Configs))
	}
	for _, p := range pts {
		s.Points[row[p.Dataset]][col[p.Config]] = p
	}
	return seen
}

// sweptParams lists the parameters whose values differ between configs.
func sweptParams(cfgs []learn.Values) []string {
	seen := map[string]bool{}
	var names []string
	for _, c := range cfgs {
		for k := range c {
			if !seen[k] {
				seen[k] = true
				names = append(names, k)
			}
		}
	}
	sort.Strings(names)
	var out []string
	for _, n := range names {
		v0, ok0 := cfgs[0][n]
		for _, c := range cfgs[1:] {
			if v, ok := c[n]; ok != ok0 || v != v0 {
				out = append(out, n)
				break
			}
		}
	}
	return out
}

// ranks computes Ranks: per dataset, the rank of each configuration by mean
// accuracy (1 = best, ties averaged; NaN where the point is missing), and
// per configuration the mean rank over the datasets, NaN for a
// configuration missing on some dataset (it cannot be ranked fairly).
func (s Sweep) ranks() (perDataset [][]float64, mean []float64) {
	perDataset = make([][]float64, len(s.Datasets))
	for d, pts := range s.Points {
		perDataset[d] = make([]float64, len(pts))
		for i, p := range pts {
			if p.N == 0 {
				perDataset[d][i] = math.NaN()
				continue
			}
			better, ties := 0, 0
			for j, q := range pts {
				switch {
				case q.N == 0 || j == i:
				case q.Accuracy-p.Accuracy > TieTol:
					better++
				case math.Abs(q.Accuracy-p.Accuracy) <= TieTol:
					ties++
				}
			}
			perDataset[d][i] = float64(better) + 1 + float64(float64(ties)/2)
		}
	}
	mean = make([]float64, len(s.Configs))
	for i := range s.Configs {
		for d := range s.Datasets {
			mean[i] += perDataset[d][i] / float64(len(s.Datasets))
		}
	}
	return perDataset, mean
}

// Pooled returns configuration i's means over the datasets of the
// per-dataset means (N = datasets; deviations left zero), the pooled point
// of the tables and figures; false when the configuration is missing on
// some dataset (a mean over fewer would not compare).
func (s Sweep) pooled(i int) (Point, bool) {
	m := Point{Protocol: s.Protocol, Dataset: "pooled", Method: s.Method, Config: s.Configs[i], Swept: true}
	for d := range s.Datasets {
		p := s.Points[d][i]
		if p.N == 0 {
			return Point{}, false
		}
		m.N++
		m.ConfigIndex = p.ConfigIndex
		m.Accuracy += p.Accuracy
		m.BalancedAccuracy += p.BalancedAccuracy
		m.Rules += p.Rules
		m.Antecedents += p.Antecedents
		m.RulebaseSize += p.RulebaseSize
		m.FitSeconds += p.FitSeconds
	}
	k := float64(m.N)
	m.Accuracy, m.BalancedAccuracy, m.Rules, m.Antecedents, m.RulebaseSize, m.FitSeconds =
		m.Accuracy/k, m.BalancedAccuracy/k, m.Rules/k, m.Antecedents/k, m.RulebaseSize/k, m.FitSeconds/k
	return m, m.N > 0
}

// Best returns, per dataset, the index of the configuration with the best
// mean accuracy (ties: the lowest grid index), -1 when none.
func (s Sweep) best() []int {
	out := make([]int, len(s.Datasets))
	for d, pts := range s.Points {
		out[d] = -1
		for i, p := range pts {
			if p.N > 0 && (out[d] < 0 || p.Accuracy-pts[out[d]].Accuracy > TieTol) {
				out[d] = i
			}
		}
	}
	return out
}

// PooledBest returns the configuration with the lowest mean rank (ties: the
// lowest grid index), -1 when no configuration is on every dataset.
func (s Sweep) pooledBest() int {
	_, mean := s.ranks()
	best := -1
	for i, r := range mean {
		if !math.IsNaN(r) && (best < 0 || r < mean[best]-TieTol) {
			best = i
		}
	}
	return best
}
