package plots

import (
	"fmt"
	"math"
	"sort"
	"strconv"

	"gonum.org/v1/plot/vg"

	"github.com/fgrtbench/fgrtbench/results"
)

// AblationParams are the FGRT parameters of the ablation figures, as named
// in results.csv's config column (fgrt/spec.go).
var AblationParams = []string{"max_rules", "coverage_threshold", "min_improvement"}

// AblationGroup summarises the rows of one method that share one value of
// one parameter.
type AblationGroup struct {
	Method string // results.csv method label
	Param  string
	Value  string // as written in the config
	// Rows and Configs count the pooled rows and distinct configurations.
	Rows, Configs int
	// AccMean and RulesMean are means over the rows. AccStd and RulesStd
	// are sample standard deviations (ddof 1; 0 for a single value): over
	// the rows for the pooled grouping, over folds for the one-factor sweep
	// (see OFATAblation).
	AccMean, AccStd     float64
	RulesMean, RulesStd float64
}

// ablationRow is one record with its parsed parameters.
type ablationRow struct {
	rec    results.Record
	params map[string]string
}

func ablationRows(recs []results.Record, method, protocol, selection string) ([]ablationRow, error) {
	var out []ablationRow
	for _, r := range recs {
		if r.Method != method || r.Protocol != protocol || (selection != "" && r.Selection != selection) {
			continue
		}
		cfg, err := results.ParseConfig(r.Config)
		if err != nil {
			return nil, fmt.Errorf("plots: %s %s fold %d: %v", r.Dataset, r.Method, r.Fold, err)
		}
		for _, p := range AblationParams {
			if _, err := strconv.ParseFloat(cfg[p], 64); err != nil {
				return nil, fmt.Errorf("plots: %s %s fold %d: config %q has no numeric %s", r.Dataset, r.Method, r.Fold, r.Config, p)
			}
		}
		out = append(out, ablationRow{rec: r, params: cfg})
	}
	return out, nil
}

// sortedValues returns the distinct values of a parameter, numerically.
func sortedValues(rows []ablationRow, param string) []string {
	seen := map[string]bool{}
	var vals []string
	for _, r := range rows {
		if v := r.params[param]; !seen[v] {
			seen[v] = true
			vals = append(vals, v)
		}
	}
	sort.Slice(vals, func(i, j int) bool {
		a, _ := strconv.ParseFloat(vals[i], 64)
		b, _ := strconv.ParseFloat(vals[j], 64)
		return a < b
	})
	return vals
}

// meanStd returns the mean and the ddof-1 standard deviation (0 for fewer
// than two values).
func meanStd(v []float64) (mean, std float64) {
	if len(v) == 0 {
		return math.NaN(), math.NaN()
	}
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	if len(v) < 2 {
		return mean, 0
	}
	var ss float64
	for _, x := range v {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(len(v)-1))
}

func countConfigs(rows []ablationRow) int {
	seen := map[string]bool{}
	for _, r := range rows {
		seen[r.rec.Config] = true
	}
	return len(seen)
}

// PooledAblation is the paper's grouping (docs/protocols.md#ablation-figures):
// every row of method in protocol (all configurations, selected or not) is
// grouped by one parameter value, pooling all configurations that share it,
// so groups have different sizes and the other parameters are not held
// fixed. Means and ddof-1 standard deviations are over the pooled rows.
func PooledAblation(recs []results.Record, method, protocol string) ([]AblationGroup, error) {
	rows, err := ablationRows(recs, method, protocol, "")
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	var out []AblationGroup
	for _, p := range AblationParams {
		for _, v := range sortedValues(rows, p) {
			var sel []ablationRow
			var acc, rules []float64
			for _, r := range rows {
				if r.params[p] == v {
					sel = append(sel, r)
					acc = append(acc, r.rec.Accuracy)
					rules = append(rules, float64(r.rec.Rules))
				}
			}
			g := AblationGroup{Method: method, Param: p, Value: v, Rows: len(sel), Configs: countConfigs(sel)}
			g.AccMean, g.AccStd = meanStd(acc)
			g.RulesMean, g.RulesStd = meanStd(rules)
			out = append(out, g)
		}
	}
	return out, nil
}

// OFATAblation groups a one-factor-at-a-time sweep (rows of method with
// selection "sweep"): each parameter's baseline is its most frequent value
// over the sweep's configurations (ties: the smallest), and the group of
// parameter p at value v holds only the configurations with v and every
// other parameter at its baseline. The spread is over folds: the mean
// accuracy (rule count) over data sets is taken per (repeat, fold), and
// AccStd (RulesStd) is the ddof-1 deviation of those fold means, so it shows
// how stable the value is rather than how different the data sets are.
func OFATAblation(recs []results.Record, method, protocol string) ([]AblationGroup, error) {
	rows, err := ablationRows(recs, method, protocol, "sweep")
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	baseline := map[string]string{}
	for _, p := range AblationParams {
		count := map[string]int{}
		seenCfg := map[string]bool{}
		for _, r := range rows {
			if !seenCfg[r.rec.Config] {
				seenCfg[r.rec.Config] = true
				count[r.params[p]]++
			}
		}
		best := ""
		for _, v := range sortedValues(rows, p) {
			if best == "" || count[v] > count[best] {
				best = v
			}
		}
		baseline[p] = best
	}
	type foldKey struct{ repeat, fold int }
	var out []AblationGroup
	for _, p := range AblationParams {
		for _, v := range sortedValues(rows, p) {
			var sel []ablationRow
			var acc, rules []float64
			fAcc, fRules, fN := map[foldKey]float64{}, map[foldKey]float64{}, map[foldKey]int{}
			for _, r := range rows {
				if r.params[p] != v {
					continue
				}
				atBase := true
				for _, q := range AblationParams {
					if q != p && r.params[q] != baseline[q] {
						atBase = false
					}
				}
				if !atBase {
					continue
				}
				sel = append(sel, r)
				acc = append(acc, r.rec.Accuracy)
				rules = append(rules, float64(r.rec.Rules))
				k := foldKey{r.rec.Repeat, r.rec.Fold}
				fAcc[k] += r.rec.Accuracy
				fRules[k] += float64(r.rec.Rules)
				fN[k]++
			}
			if len(sel) == 0 {
				continue // a value that only occurs off-baseline is not part of the one-factor sweep
			}
			keys := make([]foldKey, 0, len(fN))
			for k := range fN {
				keys = append(keys, k)
			}
			sort.Slice(keys, func(i, j int) bool {
				if keys[i].repeat != keys[j].repeat {
					return keys[i].repeat < keys[j].repeat
				}
				return keys[i].fold < keys[j].fold
			})
			var foldAcc, foldRules []float64
			for _, k := range keys {
				foldAcc = append(foldAcc, fAcc[k]/float64(fN[k]))
				foldRules = append(foldRules, fRules[k]/float64(fN[k]))
			}
			g := AblationGroup{Method: method, Param: p, Value: v, Rows: len(sel), Configs: countConfigs(sel)}
			g.AccMean, _ = meanStd(acc)
			g.RulesMean, _ = meanStd(rules)
			_, g.AccStd = meanStd(foldAcc)
			_, g.RulesStd = meanStd(foldRules)
			out = append(out, g)
		}
	}
	return out, nil
}

// AblationFigure draws accuracy (top row) and rule count (bottom row)
// against each parameter (columns), one line with mean +- std error bars
// per method label; parameter values are placed at equal spacing and the
// panels of a row share their y range. groups is the concatenation of
// PooledAblation or OFATAblation results. It is an instance of the panel
// grid that also draws the sweep figures.
func AblationFigure(dir, name, title string, groups []AblationGroup, pres results.Presentation) error {
	if len(groups) == 0 {
		return ErrNoData
	}
	var order []string
	seen := map[string]bool{}
	for _, g := range groups {
		if !seen[g.Method] {
			seen[g.Method] = true
			order = append(order, g.Method)
		}
	}
	styles := methodStyles(pres, order)
	var legend []legendEntry
	for _, m := range order {
		st := styles[m]
		legend = append(legend, legendEntry{Name: pres.DisplayName(m), Color: st.Color, Width: vg.Points(1.5), Dashes: st.Dashes, Marker: st.Marker})
	}
	rows := make([][]*panel, 2)
	for pi, param := range AblationParams {
		var vals []string
		for _, g := range groups {
			if g.Param == param {
				vals = append(vals, g.Value)
			}
		}
		axis := newParamAxis(distinct(vals), true)
		for row, metric := range []string{"accuracy", "rules"} {
			pn := &panel{Axis: axis}
			if pi == 0 {
				pn.YLabel = map[string]string{"accuracy": "test accuracy", "rules": "rules"}[metric]
			}
			if row == 0 {
				pn.Title = param
			} else {
				pn.XLabel = param
			}
			for mi, m := range order {
				st := styles[m]
				s := panelSeries{Name: m, Color: st.Color, Dashes: st.Dashes, Marker: st.Marker, Width: vg.Points(1.5), ErrBars: true,
					Shift: (float64(mi) - float64(len(order)-1)/2) * 0.12}
				for _, g := range groups {
					if g.Method != m || g.Param != param {
						continue
					}
					y, e := g.AccMean, g.AccStd
					if metric == "rules" {
						y, e = g.RulesMean, g.RulesStd
					}
					x, _ := axis.at(g.Value)
					s.X, s.Y = append(s.X, x), append(s.Y, y)
					s.Lo, s.Hi = append(s.Lo, y-e), append(s.Hi, y+e)
				}
				pn.Series = append(pn.Series, s)
			}
			rows[row] = append(rows[row], pn)
		}
	}
	f := panelFigure{Title: title, Panels: rows, Legend: legend, ShareY: true, Width: 34 * vg.Centimeter, Height: 17 * vg.Centimeter}
	return f.save(dir, name)
}

// ablationFigureFor draws the groups of every present variant.
func ablationFigureFor(dir, name, title string, recs []results.Record, protocol string, variants []string,
	group func([]results.Record, string, string) ([]AblationGroup, error), pres results.Presentation) error {
	var all []AblationGroup
	for _, m := range variants {
		g, err := group(recs, m, protocol)
		if err != nil {
			return err
		}
		all = append(all, g...)
	}
	return AblationFigure(dir, name, title, all, pres)
}

// AblationPooled draws the paper's pooled ablation of the 16-configuration
// grid (methods "fgrt" and, when present, "fgrt-fixed", protocol "paper").
func AblationPooled(dir, name string, recs []results.Record, pres results.Presentation) error {
	return ablationFigureFor(dir, name, "Pooled grouping of the 16-configuration grid (paper protocol; mean +- std over pooled rows)",
		recs, "paper", []string{"fgrt", "fgrt-fixed"}, PooledAblation, pres)
}

// AblationOFAT draws the one-factor-at-a-time sweep ("fgrt@ofat" and, when
// present, "fgrt-fixed@ofat", selection "sweep") of the given protocol.
func AblationOFAT(dir, name string, recs []results.Record, protocol string, pres results.Presentation) error {
	return ablationFigureFor(dir, name, "One factor at a time ("+protocol+" protocol; mean +- std over folds of the data-set mean)",
		recs, protocol, []string{"fgrt@ofat", "fgrt-fixed@ofat"}, OFATAblation, pres)
}
