package plots

import (
	"gonum.org/v1/plot/vg"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/results"
)

// AblationFigure draws accuracy (top row) and rule count (bottom row)
// against each parameter (columns), one line with mean +- std error bars
// per method label; parameter values are placed at equal spacing and the
// panels of a row share their y range. groups is the concatenation of
// PooledAblation or OFATAblation results. It is an instance of the panel
// grid that also draws the sweep figures.
func AblationFigure(dir, name, title string, groups []analysis.AblationGroup, pres results.Presentation) error {
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
	for pi, param := range analysis.AblationParams {
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
				shift := (float64(mi) - float64(len(order)-1)/2) * 0.12
				pn.Series = append(pn.Series, ablationSeries(groups, m, param, metric, axis, styles[m], shift))
			}
			rows[row] = append(rows[row], pn)
		}
	}
	f := panelFigure{Title: title, Panels: rows, Legend: legend, ShareY: true, Width: 34 * vg.Centimeter, Height: 17 * vg.Centimeter}
	return f.save(dir, name)
}

// ablationSeries is one method's line against one parameter: the mean of
// the metric ("accuracy" or "rules") at each value, with mean ± std as
// error bars, shifted along the axis so that methods do not overlap.
func ablationSeries(groups []analysis.AblationGroup, m, param, metric string, axis paramAxis, st MethodStyle, shift float64) panelSeries {
	s := panelSeries{Name: m, Color: st.Color, Dashes: st.Dashes, Marker: st.Marker, Width: vg.Points(1.5), ErrBars: true, Shift: shift}
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
	return s
}
