package plots

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/internal/safename"
	"github.com/fgrtbench/fgrtbench/results"
)

// Figures of hyperparameter sweeps (analysis.Sweep, computed by package
// analysis): one swept parameter gives curves, two give heatmaps, more give
// one-factor-at-a-time panels around the best pooled configuration.

// SweepFigureName is the file stem of a sweep's figure.
func SweepFigureName(s analysis.Sweep) string {
	return safename.Component("sweep_" + s.Protocol + "_" + s.Method)
}

// SweepCaption describes the figure SweepFigure draws for s.
func SweepCaption(s analysis.Sweep, pres results.Presentation) string {
	datasets := fmt.Sprintf("%d datasets", len(s.Datasets))
	if len(s.Datasets) == 1 {
		datasets = "1 dataset"
	}
	head := fmt.Sprintf("Sweep of %s (%s protocol, %s): ", pres.DisplayName(s.Method), s.Protocol, datasets)
	switch len(s.Params) {
	case 0:
		return head + "a single configuration; nothing varies."
	case 1:
		return head + fmt.Sprintf("mean test accuracy (left) and rulebase size (right) against %s, one line per dataset (mean over folds × repeats), "+
			"the pooled mean over datasets in black with an approximate 95%% confidence band of it (datasets fixed, folds × repeats as samples)%s%s.",
			s.Params[0], logNote(s, 0), refsNote(s, ", for comparison", pres))
	case 2:
		return head + fmt.Sprintf("mean test accuracy (%%, first line of each cell) and rulebase size (second line) for every %s × %s, one heatmap per dataset "+
			"and one of the means over datasets; colours run from the panel's lowest accuracy (light) to its highest (dark), read off the colour bar beside each panel; the best cell is framed; "+
			"blank cells were not run.", s.Params[0], s.Params[1])
	default:
		return head + fmt.Sprintf("one factor at a time around %s (the configuration with the most one-parameter neighbours in the sweep, ties broken by the best mean rank over datasets): "+
			"each column varies one parameter with the others held there; mean test accuracy (top) and rulebase size (bottom), "+
			"one line per dataset, pooled mean in black with an approximate 95%% confidence band (datasets fixed, folds × repeats as samples)%s.",
			centerText(s), refsNote(s, "", pres))
	}
}

// refsNote explains the dashed references, when the figure has any.
func refsNote(s analysis.Sweep, why string, pres results.Presentation) string {
	if len(selectedRefs(s, pres)) == 0 {
		return ""
	}
	return "; dashed: the pooled mean of each selected variant of the method in these results" + why
}

// logNote says when the x axis is logarithmic (or equally spaced).
func logNote(s analysis.Sweep, j int) string {
	vals := make([]string, len(s.Configs))
	for i := range s.Configs {
		vals[i] = s.Values[i][j]
	}
	switch ax := newParamAxis(distinct(vals), false); {
	case ax.Log:
		return "; log x axis"
	case ax.Ordinal:
		return "; the values equally spaced on the x axis"
	}
	return ""
}

func distinct(vals []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, v := range vals {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// center is the configuration the one-factor panels vary around: the one
// with the most configurations that differ from it in one parameter only
// (the hub of a grid that is not a full product, such as the paper's 16
// configurations), ties broken by the best mean rank over datasets, then by
// grid order.
func center(s analysis.Sweep) int {
	_, rank := s.Ranks()
	best, bestN := 0, -1
	for i := range s.Configs {
		n := 0
		for k := range s.Configs {
			diff := 0
			for j := range s.Params {
				if s.Values[i][j] != s.Values[k][j] {
					diff++
				}
			}
			if diff == 1 {
				n++
			}
		}
		better := n > bestN
		if n == bestN && !math.IsNaN(rank[i]) && (math.IsNaN(rank[best]) || rank[i] < rank[best]-1e-12) {
			better = true
		}
		if better {
			best, bestN = i, n
		}
	}
	return best
}

func centerText(s analysis.Sweep) string {
	if len(s.Configs) == 0 {
		return ""
	}
	return s.Label(center(s))
}

// SweepFigure draws the figure of one sweep (see SweepCaption); ErrNoData
// for a sweep without points or without a swept parameter.
func SweepFigure(dir, name string, s analysis.Sweep, pres results.Presentation) error {
	if len(s.Configs) == 0 || len(s.Datasets) == 0 || len(s.Params) == 0 {
		return ErrNoData
	}
	switch len(s.Params) {
	case 1:
		return sweepCurves(dir, name, s, pres)
	case 2:
		return sweepHeatmaps(dir, name, s, pres)
	default:
		return sweepOFAT(dir, name, s, pres)
	}
}

// datasetStyle gives dataset i its line: a palette colour, solid for the
// first eight, dashed after.
func datasetStyle(i int) (color.Color, []vg.Length) {
	var dashes []vg.Length
	if i >= len(palette) {
		dashes = []vg.Length{vg.Points(4), vg.Points(2)}
	}
	return colorOf(i), dashes
}

var pooledColor = color.NRGBA{0, 0, 0, 255}

// metric picks a value of a point.
type metric struct {
	label string
	value func(analysis.Point) float64
	// half is the analysis's 95% half-width of the pooled mean.
	half func(analysis.PooledCI) float64
	// lo and hi bound the metric's possible values; a confidence band is
	// clipped to them.
	lo, hi float64
}

var sweepMetrics = []metric{
	{"test accuracy", func(p analysis.Point) float64 { return p.Accuracy }, func(c analysis.PooledCI) float64 { return c.Accuracy }, 0, 1},
	{"rulebase size", func(p analysis.Point) float64 { return p.RulebaseSize }, func(c analysis.PooledCI) float64 { return c.RulebaseSize }, 0, math.Inf(1)},
}

// pooledSeries is the mean over datasets of a metric along configs (indices
// into s.Configs), with the analysis's approximate 95% confidence band of
// that mean (Sweep.PooledCI95), drawn only when every configuration shown
// has one. Configurations missing on some dataset are left out.
func pooledSeries(s analysis.Sweep, configs []int, xs []float64, m metric) panelSeries {
	ps := panelSeries{Name: "pooled mean", Color: pooledColor, Width: vg.Points(2.2)}
	band := true
	for n, i := range configs {
		pooled, complete := s.Pooled(i)
		if !complete {
			continue
		}
		mean := m.value(pooled)
		half := m.half(s.PooledCI95(i))
		if math.IsNaN(half) {
			band = false
		}
		ps.X, ps.Y = append(ps.X, xs[n]), append(ps.Y, mean)
		ps.Lo, ps.Hi = append(ps.Lo, math.Max(mean-half, m.lo)), append(ps.Hi, math.Min(mean+half, m.hi))
	}
	if !band {
		ps.Lo, ps.Hi = nil, nil
	}
	return ps
}

// datasetSeries is one dataset's metric along configs.
func datasetSeries(s analysis.Sweep, d int, configs []int, xs []float64, m metric) panelSeries {
	c, dashes := datasetStyle(d)
	ps := panelSeries{Name: s.Datasets[d], Color: c, Dashes: dashes, Width: vg.Points(1)}
	for n, i := range configs {
		if p := s.Points[d][i]; p.N > 0 {
			ps.X, ps.Y = append(ps.X, xs[n]), append(ps.Y, m.value(p))
		}
	}
	return ps
}

// selectedRef is a selected variant of the swept method with its mean
// over the sweep's datasets (the analysis's selected_pooled).
type selectedRef struct {
	name   string
	dashes []vg.Length
	pooled analysis.Point
}

func (r selectedRef) value(m metric) float64 { return m.value(r.pooled) }

// refColor draws the selected variants' references.
var refColor = color.NRGBA{60, 60, 60, 255}

// selectedRefs lists the selected variants present on every dataset of the
// sweep (a mean over fewer datasets would not compare with the pooled
// line), in the sweep's order, each with its own dash pattern.
func selectedRefs(s analysis.Sweep, pres results.Presentation) []selectedRef {
	patterns := [][]vg.Length{{vg.Points(5), vg.Points(3)}, {vg.Points(1.5), vg.Points(2)}, {vg.Points(8), vg.Points(2), vg.Points(2), vg.Points(2)}}
	var out []selectedRef
	for _, sp := range s.SelectedMeans() {
		out = append(out, selectedRef{name: fmt.Sprintf("%s (%s), pooled mean", pres.DisplayName(sp.Method), sp.Selection), dashes: patterns[len(out)%len(patterns)],
			pooled: analysis.Point{Accuracy: sp.Accuracy, RulebaseSize: sp.RulebaseSize}})
	}
	return out
}

func sweepLegend(s analysis.Sweep, pres results.Presentation) []legendEntry {
	var out []legendEntry
	for d, ds := range s.Datasets {
		c, dashes := datasetStyle(d)
		out = append(out, legendEntry{Name: ds, Color: c, Dashes: dashes, Width: vg.Points(1)})
	}
	out = append(out, legendEntry{Name: "pooled mean (95% CI)", Color: pooledColor, Width: vg.Points(2.2), Band: true})
	for _, r := range selectedRefs(s, pres) {
		out = append(out, legendEntry{Name: r.name, Color: refColor, Width: vg.Points(1.2), Dashes: r.dashes})
	}
	return out
}

// axisPanels builds the accuracy and size panels of one parameter varying
// along the given configurations.
func axisPanels(s analysis.Sweep, param int, configs []int, pres results.Presentation) (acc, size *panel) {
	var vals []string
	for _, i := range configs {
		vals = append(vals, s.Values[i][param])
	}
	axis := newParamAxis(distinct(vals), false)
	xs := make([]float64, len(configs))
	for n, i := range configs {
		xs[n], _ = axis.at(s.Values[i][param])
	}
	out := make([]*panel, 2)
	for mi, m := range sweepMetrics {
		pn := &panel{XLabel: s.Params[param], YLabel: m.label, Axis: axis}
		if axis.Log {
			pn.XLabel += " (log scale)"
		} else if axis.Ordinal {
			pn.XLabel += " (equally spaced)"
		}
		// The selected variants' pooled means as flat references, then the
		// pooled line, so that a dataset on it stays visible.
		for _, ref := range selectedRefs(s, pres) {
			if len(axis.Pos) > 0 {
				v := ref.value(m)
				pn.Series = append(pn.Series, panelSeries{Name: ref.name, Color: refColor, Width: vg.Points(1.2), Dashes: ref.dashes,
					X: []float64{axis.Pos[0], axis.Pos[len(axis.Pos)-1]}, Y: []float64{v, v}, NoPoints: true})
			}
		}
		pn.Series = append(pn.Series, pooledSeries(s, configs, xs, m))
		for d := range s.Datasets {
			pn.Series = append(pn.Series, datasetSeries(s, d, configs, xs, m))
		}
		out[mi] = pn
	}
	return out[0], out[1]
}

// sortedByValue orders configuration indices by the parameter's value on
// its axis.
func sortedByValue(s analysis.Sweep, param int, configs []int) []int {
	var vals []string
	for _, i := range configs {
		vals = append(vals, s.Values[i][param])
	}
	axis := newParamAxis(distinct(vals), false)
	out := append([]int(nil), configs...)
	pos := func(i int) float64 { x, _ := axis.at(s.Values[i][param]); return x }
	for a := 1; a < len(out); a++ {
		for b := a; b > 0 && pos(out[b]) < pos(out[b-1]); b-- {
			out[b], out[b-1] = out[b-1], out[b]
		}
	}
	return out
}

func sweepCurves(dir, name string, s analysis.Sweep, pres results.Presentation) error {
	all := make([]int, len(s.Configs))
	for i := range all {
		all[i] = i
	}
	acc, size := axisPanels(s, 0, sortedByValue(s, 0, all), pres)
	acc.Title, size.Title = "accuracy", "rulebase size"
	f := panelFigure{
		Title:  fmt.Sprintf("%s: sweep of %s (%s protocol)", pres.DisplayName(s.Method), s.Params[0], s.Protocol),
		Panels: [][]*panel{{acc, size}}, Legend: sweepLegend(s, pres),
		Width: 29 * vg.Centimeter, Height: 11 * vg.Centimeter,
	}
	return f.save(dir, name)
}

func sweepOFAT(dir, name string, s analysis.Sweep, pres results.Presentation) error {
	c := center(s)
	var accRow, sizeRow []*panel
	for j, p := range s.Params {
		var configs []int
		for i := range s.Configs {
			same := true
			for k := range s.Params {
				if k != j && s.Values[i][k] != s.Values[c][k] {
					same = false
				}
			}
			if same {
				configs = append(configs, i)
			}
		}
		acc, size := axisPanels(s, j, sortedByValue(s, j, configs), pres)
		acc.Title = p
		acc.XLabel = ""
		accRow, sizeRow = append(accRow, acc), append(sizeRow, size)
		if j%maxGridCols > 0 { // the first panel of each wrapped row keeps its label
			acc.YLabel, size.YLabel = "", ""
		}
	}
	f := panelFigure{
		Title:  fmt.Sprintf("%s: one factor at a time around %s (%s protocol)", pres.DisplayName(s.Method), centerText(s), s.Protocol),
		Panels: [][]*panel{accRow, sizeRow}, Legend: sweepLegend(s, pres), ShareY: true,
		Width: vg.Length(9*len(s.Params)+6) * vg.Centimeter, Height: 17 * vg.Centimeter,
	}
	return f.save(dir, name)
}

// heatCell is one cell of a heatmap.
type heatCell struct {
	acc, size float64
	ok        bool
}

// heatmapPlotter draws a grid of cells with their values written in, the
// colour scaled between the panel's lowest and highest accuracy.
type heatmapPlotter struct {
	cells    [][]heatCell // [y][x]
	lo, hi   float64
	bestX    int
	bestY    int
	fontSize float64
}

// heatColor maps t in [0,1] from a light to a dark blue (sequential,
// readable in greyscale).
func heatColor(t float64) color.NRGBA {
	t = math.Max(0, math.Min(1, t))
	light := [3]float64{239, 243, 255}
	dark := [3]float64{8, 69, 148}
	var c [3]uint8
	for i := range c {
		c[i] = uint8(math.Round(light[i] + t*(dark[i]-light[i])))
	}
	return color.NRGBA{c[0], c[1], c[2], 255}
}

func (h heatmapPlotter) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	for y, row := range h.cells {
		for x, cell := range row {
			if !cell.ok {
				continue
			}
			min := vg.Point{X: trX(float64(x) - 0.5), Y: trY(float64(y) - 0.5)}
			max := vg.Point{X: trX(float64(x) + 0.5), Y: trY(float64(y) + 0.5)}
			t := 0.5
			if h.hi > h.lo {
				t = (cell.acc - h.lo) / (h.hi - h.lo)
			}
			fill := heatColor(0.1 + 0.8*t)
			c.FillPolygon(fill, []vg.Point{min, {X: max.X, Y: min.Y}, max, {X: min.X, Y: max.Y}})
			ink := color.Color(color.Black)
			if t > 0.55 {
				ink = color.White
			}
			sty := draw.TextStyle{Color: ink, Font: fontOf(h.fontSize), Handler: plot.DefaultTextHandler, XAlign: draw.XCenter, YAlign: draw.YCenter}
			mid := vg.Point{X: (min.X + max.X) / 2, Y: (min.Y + max.Y) / 2}
			gap := vg.Points(h.fontSize * 0.6)
			c.FillText(sty, vg.Point{X: mid.X, Y: mid.Y + gap}, fmt.Sprintf("%.1f", cell.acc*100))
			small := sty
			small.Font = fontOf(h.fontSize * 0.8)
			c.FillText(small, vg.Point{X: mid.X, Y: mid.Y - gap}, fmt.Sprintf("%.0f", cell.size))
			if x == h.bestX && y == h.bestY {
				c.StrokeLines(draw.LineStyle{Color: colorOf(1), Width: vg.Points(2.5)},
					[]vg.Point{min, {X: max.X, Y: min.Y}, max, {X: min.X, Y: max.Y}, min})
			}
		}
	}
}

// heatPanel builds one heatmap plot; values come from cell(xi, yi).
func heatPanel(title, xlabel, ylabel string, xs, ys []string, cell func(xi, yi int) heatCell) (*plot.Plot, heatmapPlotter) {
	p := newPlot(title, xlabel, ylabel)
	p.Title.TextStyle.Font.Size = vg.Points(10)
	h := heatmapPlotter{lo: math.Inf(1), hi: math.Inf(-1), bestX: -1, bestY: -1, fontSize: 8}
	if len(xs) > 6 || len(ys) > 6 {
		h.fontSize = 6.5
	}
	best := math.Inf(-1)
	for yi := range ys {
		var row []heatCell
		for xi := range xs {
			c := cell(xi, yi)
			row = append(row, c)
			if c.ok {
				h.lo, h.hi = math.Min(h.lo, c.acc), math.Max(h.hi, c.acc)
				if c.acc > best+1e-12 {
					best, h.bestX, h.bestY = c.acc, xi, yi
				}
			}
		}
		h.cells = append(h.cells, row)
	}
	p.Add(h)
	tick := func(vals []string) plot.ConstantTicks {
		t := make([]plot.Tick, len(vals))
		for i, v := range vals {
			t[i] = plot.Tick{Value: float64(i), Label: v}
		}
		return t
	}
	p.X.Tick.Marker, p.Y.Tick.Marker = tick(xs), tick(ys)
	p.X.Min, p.X.Max = -0.5, float64(len(xs))-0.5
	p.Y.Min, p.Y.Max = -0.5, float64(len(ys))-0.5
	return p, h
}

func sweepHeatmaps(dir, name string, s analysis.Sweep, pres results.Presentation) error {
	g := newHeatGrid(s)
	panels, bars, err := g.panels()
	if err != nil {
		return err
	}
	xa, ya := g.xa, g.ya
	cols := gridCols(len(panels))
	rows := (len(panels) + cols - 1) / cols
	cell := vg.Length(math.Max(1.1, math.Min(1.8, 9.0/float64(len(xa.Values))))) * vg.Centimeter
	w := max(vg.Length(cols)*(cell*vg.Length(len(xa.Values))+2.5*vg.Centimeter+heatBarWidth), 18*vg.Centimeter)
	h := vg.Length(rows)*(cell*vg.Length(len(ya.Values))+2.6*vg.Centimeter) + vg.Centimeter
	title := fmt.Sprintf("%s: accuracy (%%) and rulebase size over %s × %s (%s protocol)", pres.DisplayName(s.Method), s.Params[0], s.Params[1], s.Protocol)
	return save(dir, name, w, h, func(c draw.Canvas) error {
		area := drawTitle(c, title)
		t := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Millimeter * 6, PadY: vg.Millimeter * 6,
			PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 3}
		for i, p := range panels {
			drawHeatWithBar(t.At(area, i%cols, i/cols), p, bars[i])
		}
		return nil
	})
}

// heatGrid places a two-parameter sweep's configurations on a grid: the
// first parameter's values across, the second's up.
type heatGrid struct {
	s      analysis.Sweep
	xa, ya paramAxis
	index  map[[2]string]int // (x value, y value) → configuration
}

func newHeatGrid(s analysis.Sweep) heatGrid {
	xvals, yvals := make([]string, 0), make([]string, 0)
	for i := range s.Configs {
		xvals, yvals = append(xvals, s.Values[i][0]), append(yvals, s.Values[i][1])
	}
	g := heatGrid{s: s, xa: newParamAxis(distinct(xvals), true), ya: newParamAxis(distinct(yvals), true), index: map[[2]string]int{}}
	for i := range s.Configs {
		g.index[[2]string{s.Values[i][0], s.Values[i][1]}] = i
	}
	return g
}

// datasetCell is the cell of dataset d at grid place (xi, yi); not ok
// where the configuration was not run.
func (g heatGrid) datasetCell(d, xi, yi int) heatCell {
	i, ok := g.index[[2]string{g.xa.Values[xi], g.ya.Values[yi]}]
	if !ok || g.s.Points[d][i].N == 0 {
		return heatCell{}
	}
	p := g.s.Points[d][i]
	return heatCell{acc: p.Accuracy, size: p.RulebaseSize, ok: true}
}

// pooledCell is the cell of the means over datasets at (xi, yi).
func (g heatGrid) pooledCell(xi, yi int) heatCell {
	i, ok := g.index[[2]string{g.xa.Values[xi], g.ya.Values[yi]}]
	if !ok {
		return heatCell{}
	}
	p, ok := g.s.Pooled(i)
	return heatCell{acc: p.Accuracy, size: p.RulebaseSize, ok: ok}
}

// panels draws one heatmap per dataset, and one of the means when there
// are several, each with its colour bar (nil for a panel without cells).
func (g heatGrid) panels() (panels, bars []*plot.Plot, err error) {
	add := func(title string, cell func(xi, yi int) heatCell) error {
		p, h := heatPanel(title, g.s.Params[0], g.s.Params[1], g.xa.Values, g.ya.Values, cell)
		bar, err := colorBarPlot(h.lo, h.hi)
		if err == ErrNoData {
			bar, err = nil, nil // a panel without cells has no scale
		}
		panels, bars = append(panels, p), append(bars, bar)
		return err
	}
	for d, ds := range g.s.Datasets {
		if err := add(ds, func(xi, yi int) heatCell { return g.datasetCell(d, xi, yi) }); err != nil {
			return nil, nil, err
		}
	}
	if len(g.s.Datasets) > 1 {
		if err := add("mean over datasets", g.pooledCell); err != nil {
			return nil, nil, err
		}
	}
	return panels, bars, nil
}
