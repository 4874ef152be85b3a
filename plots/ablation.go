package plots

import (
	"fmt"
	"math"
	"sort"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/fgrtbench/fgrtbench/bench/methods"
	"github.com/fgrtbench/fgrtbench/bench/results"
)

// AblationParams are the FGRT parameters of the ablation figures, as named
// in results.csv's config column (bench/methods/fgrt.go).
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
		cfg, err := methods.ParseConfig(r.Config)
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

// PooledAblation is the paper's grouping (paper-protocol.md section 10):
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

// methodLegend describes a results.csv label of an FGRT variant.
func methodLegend(m string) string {
	switch m {
	case "fgrt", "fgrt@ofat":
		return m + " (reference quirks)"
	case "fgrt-fixed", "fgrt-fixed@ofat":
		return m + " (quirks fixed)"
	}
	return m
}

// AblationFigure draws accuracy (top row) and rule count (bottom row)
// against each parameter (columns), one line with mean +- std error bars
// per method label; parameter values are placed at equal spacing. groups is
// the concatenation of PooledAblation or OFATAblation results.
func AblationFigure(dir, name, title string, groups []AblationGroup) error {
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
	panels := make([][]*plot.Plot, 2)
	// One legend for the whole figure, drawn under the title, so it never
	// hides a panel's data.
	legend := plot.NewLegend()
	legend.TextStyle.Font = fontOf(9)
	legend.Top, legend.Left = true, false
	for pi, param := range AblationParams {
		// Union of the values over methods, numerically sorted.
		var vals []string
		have := map[string]bool{}
		for _, g := range groups {
			if g.Param == param && !have[g.Value] {
				have[g.Value] = true
				vals = append(vals, g.Value)
			}
		}
		sort.Slice(vals, func(i, j int) bool {
			a, _ := strconv.ParseFloat(vals[i], 64)
			b, _ := strconv.ParseFloat(vals[j], 64)
			return a < b
		})
		pos := map[string]int{}
		ticks := make([]plot.Tick, len(vals))
		for i, v := range vals {
			pos[v] = i
			ticks[i] = plot.Tick{Value: float64(i), Label: v}
		}
		for row, metric := range []string{"accuracy", "rules"} {
			ylabel := ""
			if pi == 0 {
				ylabel = map[string]string{"accuracy": "test accuracy", "rules": "rules"}[metric]
			}
			ptitle := ""
			if row == 0 {
				ptitle = param
			}
			p := newPlot(ptitle, "", ylabel)
			p.Title.TextStyle.Font.Size = vg.Points(10)
			if row == 1 {
				p.X.Label.Text = param
			}
			p.X.Tick.Marker = plot.ConstantTicks(ticks)
			p.X.Min, p.X.Max = -0.4, float64(len(vals))-0.6
			for mi, m := range order {
				var xys, errs plotter.XYs
				var yerr plotter.YErrors
				shift := (float64(mi) - float64(len(order)-1)/2) * 0.12
				for _, g := range groups {
					if g.Method != m || g.Param != param {
						continue
					}
					y, e := g.AccMean, g.AccStd
					if metric == "rules" {
						y, e = g.RulesMean, g.RulesStd
					}
					xys = append(xys, plotter.XY{X: float64(pos[g.Value]) + shift, Y: y})
					errs = append(errs, plotter.XY{X: float64(pos[g.Value]) + shift, Y: y})
					yerr = append(yerr, struct{ Low, High float64 }{e, e})
				}
				if len(xys) == 0 {
					continue
				}
				c := colorOf(mi)
				line, pts, err := plotter.NewLinePoints(xys)
				if err != nil {
					return err
				}
				line.Color, line.Width = c, vg.Points(1.5)
				pts.Color, pts.Shape, pts.Radius = c, draw.CircleGlyph{}, vg.Points(2.5)
				eb, err := plotter.NewYErrorBars(struct {
					plotter.XYs
					plotter.YErrors
				}{errs, yerr})
				if err != nil {
					return err
				}
				eb.Color = c
				eb.CapWidth = vg.Points(4)
				p.Add(eb, line, pts)
				if row == 0 && pi == 0 {
					legend.Add(methodLegend(m), line, pts)
				}
			}
			panels[row] = append(panels[row], p)
		}
	}
	return save(dir, name, 30*vg.Centimeter, 17*vg.Centimeter, func(c draw.Canvas) error {
		top := c
		if title != "" {
			sty := draw.TextStyle{Color: plotTextColor, Font: fontOf(11), Handler: plot.DefaultTextHandler, XAlign: draw.XCenter, YAlign: draw.YTop}
			c.FillText(sty, vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: c.Max.Y - vg.Millimeter*2}, title)
			top.Max.Y -= vg.Millimeter * 8
		}
		strip := top
		strip.Max.X -= vg.Millimeter * 4
		legend.Draw(strip)
		top.Max.Y -= vg.Length(len(order))*4*vg.Millimeter + vg.Millimeter
		t := draw.Tiles{Rows: 2, Cols: 3, PadX: vg.Millimeter * 5, PadY: vg.Millimeter * 4,
			PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 3}
		cs := plot.Align(panels, t, top)
		for i := range panels {
			for j := range panels[i] {
				panels[i][j].Draw(cs[i][j])
			}
		}
		return nil
	})
}

// ablationFigureFor draws the groups of every present variant.
func ablationFigureFor(dir, name, title string, recs []results.Record, protocol string, variants []string,
	group func([]results.Record, string, string) ([]AblationGroup, error)) error {
	var all []AblationGroup
	for _, m := range variants {
		g, err := group(recs, m, protocol)
		if err != nil {
			return err
		}
		all = append(all, g...)
	}
	return AblationFigure(dir, name, title, all)
}

// AblationPooled draws the paper's pooled ablation of the 16-configuration
// grid (methods "fgrt" and, when present, "fgrt-fixed", protocol "paper").
func AblationPooled(dir, name string, recs []results.Record) error {
	return ablationFigureFor(dir, name, "Pooled grouping of the 16-configuration grid (paper protocol; mean +- std over pooled rows)",
		recs, "paper", []string{"fgrt", "fgrt-fixed"}, PooledAblation)
}

// AblationOFAT draws the one-factor-at-a-time sweep ("fgrt@ofat" and, when
// present, "fgrt-fixed@ofat", selection "sweep") of the given protocol.
func AblationOFAT(dir, name string, recs []results.Record, protocol string) error {
	return ablationFigureFor(dir, name, "One factor at a time ("+protocol+" protocol; mean +- std over folds of the data-set mean)",
		recs, protocol, []string{"fgrt@ofat", "fgrt-fixed@ofat"}, OFATAblation)
}
