package plots

import (
	"image/color"
	"math"
	"sort"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The panel grid is the one way this package draws a quantity against a
// hyperparameter: sweep curves (one parameter), one-factor-at-a-time
// panels (several), and the paper's ablation figures all build panels of
// series and hand them to drawPanelGrid.

// paramAxis places a parameter's values on an x axis: numeric values at
// their value (on a log scale when positive and spanning a decade or more;
// equally spaced in value order when a zero sits beside values spanning a
// decade), anything else at equal spacing in the given order.
type paramAxis struct {
	Values []string
	Pos    []float64
	Log    bool
	// Categorical: positions are 0..n-1 (values not all numeric, or the
	// caller asked for equal spacing).
	Categorical bool
	// Ordinal: numeric values at equal spacing, which a reader must be
	// told (their distances are not drawn to scale).
	Ordinal bool
}

// newParamAxis orders the values numerically when they all parse as
// numbers (else keeps their order) and chooses the scale.
func newParamAxis(values []string, equalSpacing bool) paramAxis {
	a := paramAxis{Values: append([]string(nil), values...)}
	nums := make([]float64, len(values))
	numeric := true
	for i, v := range values {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			numeric = false
			break
		}
		nums[i] = f
	}
	if numeric {
		idx := make([]int, len(values))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(i, j int) bool { return nums[idx[i]] < nums[idx[j]] })
		sorted, sv := make([]string, len(values)), make([]float64, len(values))
		for i, k := range idx {
			sorted[i], sv[i] = values[k], nums[k]
		}
		a.Values, nums = sorted, sv
	}
	if numeric && len(nums) >= 3 && nums[0] <= 0 && spansDecade(nums) {
		// A zero beside values spanning a decade (0, 0.001, 0.01, 0.1):
		// no log scale holds the zero, and a linear one piles the small
		// values and their labels onto it. Equal spacing, in value order.
		equalSpacing = true
	}
	if !numeric || equalSpacing || len(values) < 2 {
		a.Categorical = true
		a.Ordinal = numeric && len(values) >= 2
		a.Pos = make([]float64, len(values))
		for i := range a.Pos {
			a.Pos[i] = float64(i)
		}
		return a
	}
	a.Pos = nums
	a.Log = nums[0] > 0 && nums[len(nums)-1]/nums[0] >= 10
	return a
}

// spansDecade reports whether the positive values of sorted nums span a
// factor of ten or more.
func spansDecade(nums []float64) bool {
	for _, x := range nums {
		if x > 0 {
			return nums[len(nums)-1]/x >= 10
		}
	}
	return false
}

// at returns the position of a value, false when it is not on the axis.
func (a paramAxis) at(v string) (float64, bool) {
	for i, x := range a.Values {
		if x == v {
			return a.Pos[i], true
		}
	}
	return 0, false
}

// apply sets the plot's x scale, range and ticks (one per value).
func (a paramAxis) apply(p *plot.Plot) {
	ticks := make([]plot.Tick, len(a.Values))
	for i, v := range a.Values {
		ticks[i] = plot.Tick{Value: a.Pos[i], Label: v}
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	if len(a.Pos) == 0 {
		return
	}
	lo, hi := a.Pos[0], a.Pos[len(a.Pos)-1]
	switch {
	case a.Log:
		p.X.Scale = plot.LogScale{}
		pad := math.Pow(hi/lo, 0.06)
		p.X.Min, p.X.Max = lo/pad, hi*pad
	case a.Categorical:
		p.X.Min, p.X.Max = lo-0.4, hi+0.4
	default:
		pad := math.Max(hi-lo, 1e-9) * 0.06
		p.X.Min, p.X.Max = lo-pad, hi+pad
	}
}

// panelSeries is one line of a panel, with an optional spread drawn as a
// band or as error bars.
type panelSeries struct {
	Name   string
	Color  color.Color
	Width  vg.Length
	Dashes []vg.Length
	X, Y   []float64
	// Lo and Hi, when set (same length as Y), bound the spread.
	Lo, Hi  []float64
	ErrBars bool // draw Lo/Hi as error bars instead of a band
	// NoPoints draws the line without markers (a reference level).
	NoPoints bool
	// Marker is the points' glyph (nil: a circle).
	Marker draw.GlyphDrawer
	// Shift moves the series sideways by this fraction of the gap between
	// two categorical positions, so that error bars do not overlap.
	Shift float64
}

// panel is one plot of the grid.
type panel struct {
	Title, XLabel, YLabel string
	Axis                  paramAxis
	Series                []panelSeries
}

// legendEntry is one line of the figure's legend.
type legendEntry struct {
	Name   string
	Color  color.Color
	Width  vg.Length
	Dashes []vg.Length
	Band   bool
	// Glyph, when set, is drawn instead of a line.
	Glyph draw.GlyphDrawer
	// Marker, when set, is drawn on the line.
	Marker draw.GlyphDrawer
}

// panelFigure is a grid of panels under one title, with one legend for the
// whole figure in a column on the right, where it cannot hide data.
type panelFigure struct {
	Title  string
	Panels [][]*panel // rows of panels; nil cells stay empty
	Legend []legendEntry
	// ShareY gives every panel of a row the same y range, so that panels
	// side by side compare at a glance.
	ShareY        bool
	Width, Height vg.Length
}

// build turns a panel into a gonum plot.
func (pn *panel) build() (*plot.Plot, error) {
	p := newPlot(pn.Title, pn.XLabel, pn.YLabel)
	p.Title.TextStyle.Font.Size = vg.Points(10)
	pn.Axis.apply(p)
	p.Add(plotter.NewGrid())
	for _, s := range pn.Series {
		if len(s.X) == 0 {
			continue
		}
		xs := make([]float64, len(s.X))
		for i, x := range s.X {
			xs[i] = x
			if pn.Axis.Categorical {
				xs[i] += s.Shift
			}
		}
		if err := addSeries(p, s, xs); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// addSeries draws one series at xs: its spread as a band (or as error
// bars when it asks for them), then its line and points.
func addSeries(p *plot.Plot, s panelSeries, xs []float64) error {
	if len(s.Lo) == len(s.Y) && len(s.Hi) == len(s.Y) && !s.ErrBars && len(xs) >= 2 {
		if err := addBand(p, s, xs); err != nil {
			return err
		}
	}
	xys := make(plotter.XYs, len(xs))
	for i := range xs {
		xys[i] = plotter.XY{X: xs[i], Y: s.Y[i]}
	}
	line, pts, err := plotter.NewLinePoints(xys)
	if err != nil {
		return err
	}
	line.Color, line.Width, line.Dashes = s.Color, s.Width, s.Dashes
	pts.Color, pts.Shape, pts.Radius = s.Color, draw.GlyphDrawer(draw.CircleGlyph{}), s.Width+vg.Points(1)
	if s.Marker != nil {
		pts.Shape, pts.Radius = s.Marker, s.Width+vg.Points(1.6)
	}
	if s.ErrBars && len(s.Lo) == len(s.Y) {
		if err := addErrorBars(p, s, xys); err != nil {
			return err
		}
	}
	if s.NoPoints {
		p.Add(line)
	} else {
		p.Add(line, pts)
	}
	return nil
}

// addBand draws a series' Lo–Hi spread as a translucent band.
func addBand(p *plot.Plot, s panelSeries, xs []float64) error {
	band := make(plotter.XYs, 0, 2*len(xs))
	for i := range xs {
		band = append(band, plotter.XY{X: xs[i], Y: s.Hi[i]})
	}
	for i := len(xs) - 1; i >= 0; i-- {
		band = append(band, plotter.XY{X: xs[i], Y: s.Lo[i]})
	}
	poly, err := plotter.NewPolygon(band)
	if err != nil {
		return err
	}
	poly.Color = bandColor(s.Color)
	poly.LineStyle.Width = 0
	p.Add(poly)
	return nil
}

// addErrorBars draws a series' Lo–Hi spread as error bars at xys.
func addErrorBars(p *plot.Plot, s panelSeries, xys plotter.XYs) error {
	yerr := make(plotter.YErrors, len(xys))
	for i := range yerr {
		yerr[i].Low, yerr[i].High = s.Y[i]-s.Lo[i], s.Hi[i]-s.Y[i]
	}
	eb, err := plotter.NewYErrorBars(struct {
		plotter.XYs
		plotter.YErrors
	}{xys, yerr})
	if err != nil {
		return err
	}
	eb.Color, eb.CapWidth = s.Color, vg.Points(4)
	p.Add(eb)
	return nil
}

// bandColor is a series colour made translucent for its band.
func bandColor(c color.Color) color.Color {
	r, g, b, _ := c.RGBA()
	return color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 50}
}

// yRange returns the data's y extent in a panel, spread included.
func (pn *panel) yRange() (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, s := range pn.Series {
		for i, y := range s.Y {
			lo, hi = math.Min(lo, y), math.Max(hi, y)
			if len(s.Lo) == len(s.Y) {
				lo, hi = math.Min(lo, s.Lo[i]), math.Max(hi, s.Hi[i])
			}
		}
	}
	return lo, hi
}

// save renders the figure.
func (f panelFigure) save(dir, name string) error {
	if len(f.Panels) == 0 {
		return ErrNoData
	}
	legendWidth := vg.Length(0)
	if len(f.Legend) > 0 {
		legendWidth = legendColumnWidth(f.Legend)
	}
	f = f.wrapped(legendWidth)
	plots := make([][]*plot.Plot, len(f.Panels))
	for i, r := range f.Panels {
		var err error
		if plots[i], err = f.buildRow(r, gridColsOf(f.Panels)); err != nil {
			return err
		}
	}
	return save(dir, name, f.Width, f.Height, func(c draw.Canvas) error {
		area := drawTitle(c, f.Title)
		if legendWidth > 0 {
			leg := area
			leg.Min.X = area.Max.X - legendWidth
			drawLegendColumn(leg, f.Legend)
			area.Max.X -= legendWidth
		}
		drawGrid(area, plots, vg.Millimeter*5)
		return nil
	})
}

// gridColsOf is the number of columns of the widest row.
func gridColsOf(rows [][]*panel) int {
	cols := 0
	for _, r := range rows {
		cols = max(cols, len(r))
	}
	return cols
}

// wrapped wraps rows wider than maxGridCols, keeping each panel's size:
// the figure grows downwards.
func (f panelFigure) wrapped(legendWidth vg.Length) panelFigure {
	rows, cols := len(f.Panels), gridColsOf(f.Panels)
	if cols <= maxGridCols {
		return f
	}
	f.Panels = wrapPanelRows(f.Panels)
	perCol := (f.Width - legendWidth) / vg.Length(cols)
	f.Height = f.Height * vg.Length(len(f.Panels)) / vg.Length(rows)
	f.Width = perCol*maxGridCols + legendWidth
	return f
}

// buildRow builds a row's plots (cols of them, nil where the row has no
// panel) with their y axes: shared across the row when ShareY, and
// logarithmic over a decade or more.
func (f panelFigure) buildRow(r []*panel, cols int) ([]*plot.Plot, error) {
	out := make([]*plot.Plot, cols)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, pn := range r {
		if pn != nil {
			l, h := pn.yRange()
			lo, hi = math.Min(lo, l), math.Max(hi, h)
		}
	}
	for j, pn := range r {
		if pn == nil {
			continue
		}
		p, err := pn.build()
		if err != nil {
			return nil, err
		}
		plo, phi := lo, hi
		if !f.ShareY {
			plo, phi = pn.yRange()
		}
		switch {
		case spansDecadeRange(plo, phi):
			// Values over a decade or more: a log axis, so that the
			// small ones are not flattened onto the bottom.
			setLogAxis(&p.Y, plo, phi)
			if p.Y.Label.Text != "" {
				p.Y.Label.Text += " (log scale)"
			}
		case f.ShareY && hi >= lo:
			pad := math.Max(hi-lo, 1e-9) * 0.06
			p.Y.Min, p.Y.Max = lo-pad, hi+pad
		}
		out[j] = p
	}
	return out, nil
}

// legendColumnWidth is the width drawLegendColumn needs: the longest name
// after the swatch, at least 5.2 cm.
func legendColumnWidth(entries []legendEntry) vg.Length {
	w := 5.2 * vg.Centimeter
	f := fontOf(8)
	face := plot.DefaultTextHandler.Cache().Lookup(f, f.Size)
	for _, e := range entries {
		w = max(w, face.Width(e.Name)+vg.Millimeter*12)
	}
	return w
}

// drawLegendColumn draws legend entries top-down in a column: a short line
// (or a band swatch) and the name.
func drawLegendColumn(c draw.Canvas, entries []legendEntry) {
	sty := draw.TextStyle{Color: plotTextColor, Font: fontOf(8), Handler: plot.DefaultTextHandler, XAlign: draw.XLeft, YAlign: draw.YCenter}
	y := c.Max.Y - vg.Millimeter*8
	x0 := c.Min.X + vg.Millimeter*2
	step := vg.Millimeter * 4.6
	for _, e := range entries {
		if e.Band {
			r := vg.Rectangle{Min: vg.Point{X: x0, Y: y - vg.Millimeter*1.3}, Max: vg.Point{X: x0 + vg.Millimeter*7, Y: y + vg.Millimeter*1.3}}
			c.FillPolygon(bandColor(e.Color), []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}})
		}
		w := e.Width
		if w == 0 {
			w = vg.Points(1.5)
		}
		if e.Glyph != nil {
			c.DrawGlyph(draw.GlyphStyle{Color: e.Color, Radius: vg.Points(3.4), Shape: e.Glyph}, vg.Point{X: x0 + vg.Millimeter*3.5, Y: y})
		} else {
			c.StrokeLine2(draw.LineStyle{Color: e.Color, Width: w, Dashes: e.Dashes}, x0, y, x0+vg.Millimeter*7, y)
			if e.Marker != nil {
				c.DrawGlyph(draw.GlyphStyle{Color: e.Color, Radius: vg.Points(3), Shape: e.Marker}, vg.Point{X: x0 + vg.Millimeter*3.5, Y: y})
			}
		}
		c.FillText(sty, vg.Point{X: x0 + vg.Millimeter*9, Y: y}, e.Name)
		y -= step
	}
}

// drawTitle writes a figure title at the top of c and returns the canvas
// left below it.
func drawTitle(c draw.Canvas, title string) draw.Canvas {
	if title == "" {
		return c
	}
	sty := draw.TextStyle{Color: plotTextColor, Font: fontOf(11), Handler: plot.DefaultTextHandler, XAlign: draw.XCenter, YAlign: draw.YTop}
	c.FillText(sty, vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: c.Max.Y - vg.Millimeter*2}, title)
	c.Max.Y -= vg.Millimeter * 8
	return c
}

// drawGrid draws plots in aligned tiles over c, pad apart; nil cells stay
// empty.
func drawGrid(c draw.Canvas, grid [][]*plot.Plot, pad vg.Length) {
	cols := 0
	for _, r := range grid {
		cols = max(cols, len(r))
	}
	t := draw.Tiles{Rows: len(grid), Cols: cols, PadX: pad, PadY: pad,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 3}
	cs := plot.Align(grid, t, c)
	for i := range grid {
		for j := range grid[i] {
			if grid[i][j] != nil {
				grid[i][j].Draw(cs[i][j])
			}
		}
	}
}

// wrapGrid lays plots out row by row, cols per row; the last row may be
// short (nil cells).
func wrapGrid(ps []*plot.Plot, cols int) [][]*plot.Plot {
	rows := (len(ps) + cols - 1) / cols
	grid := make([][]*plot.Plot, rows)
	for i := range grid {
		grid[i] = make([]*plot.Plot, cols)
	}
	for i, p := range ps {
		grid[i/cols][i%cols] = p
	}
	return grid
}
