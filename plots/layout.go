package plots

import (
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Layout rules shared by the figures: at most maxGridCols panels per row,
// a log axis wherever the drawn values span a decade, and direct labels
// placed so that they overlap as little as a greedy search can manage.

// maxGridCols is the most panels a figure puts side by side: wider rows
// shrink each panel below what a page can show.
const maxGridCols = 3

// gridCols is the number of columns for n panels.
func gridCols(n int) int { return max(1, min(n, maxGridCols)) }

// wrapPanelRows wraps a grid whose rows are wider than maxGridCols: the
// columns are cut into chunks of maxGridCols and each chunk repeats every
// row, so that panels of one column (one parameter's accuracy above its
// rulebase size) stay one above the other.
func wrapPanelRows(rows [][]*panel) [][]*panel {
	cols := 0
	for _, r := range rows {
		cols = max(cols, len(r))
	}
	if cols <= maxGridCols {
		return rows
	}
	var out [][]*panel
	for c0 := 0; c0 < cols; c0 += maxGridCols {
		for _, r := range rows {
			var chunk []*panel
			for c := c0; c < c0+maxGridCols && c < len(r); c++ {
				chunk = append(chunk, r[c])
			}
			out = append(out, chunk)
		}
	}
	return out
}

// spansDecadeRange reports whether a positive range covers a factor of
// ten or more, the rule for a log axis.
func spansDecadeRange(lo, hi float64) bool {
	return lo > 0 && !math.IsInf(hi, 0) && hi/lo >= 10
}

// setLogAxis puts an axis on a log scale over [lo, hi] with a small
// margin and 1-2-5 ticks.
func setLogAxis(a *plot.Axis, lo, hi float64) {
	pad := math.Pow(hi/lo, 0.06)
	a.Scale = plot.LogScale{}
	a.Tick.Marker = logTicks125{}
	a.Min, a.Max = lo/pad, hi*pad
}

// shortConfig shortens a configuration for a label: each key to the
// initials of its words ("max_rules=15;coverage_threshold=0.01" → "mr=15
// ct=0.01").
func shortConfig(cfg string) string {
	if cfg == "" {
		return ""
	}
	var parts []string
	for _, kv := range strings.FieldsFunc(cfg, func(r rune) bool { return r == ';' || r == ',' || r == ' ' }) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			parts = append(parts, kv)
			continue
		}
		var ini strings.Builder
		for _, w := range strings.FieldsFunc(k, func(r rune) bool { return r == '_' || r == '-' || r == '.' }) {
			ini.WriteByte(w[0])
		}
		parts = append(parts, ini.String()+"="+v)
	}
	return strings.Join(parts, " ")
}

// pointLabel is a text to write beside a data point.
type pointLabel struct {
	X, Y  float64
	Text  string
	Color color.Color
}

// labelPlotter writes point labels beside their points. Each label tries
// eight positions around its point (right, left, above, below, then the
// diagonals) and takes the first whose box overlaps neither a label
// placed before it nor another labelled point nor the plot's edge; when
// every position collides it takes the one with the least overlap.
type labelPlotter struct {
	Labels []pointLabel
	Size   float64 // font size in points
}

func (lp labelPlotter) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	f := fontOf(lp.Size)
	face := plot.DefaultTextHandler.Cache().Lookup(f, f.Size)
	h := vg.Points(lp.Size) * 1.1
	gap := vg.Points(5)
	var placed []vg.Rectangle
	// Every labelled point is an obstacle for every label.
	for _, l := range lp.Labels {
		p := vg.Point{X: trX(l.X), Y: trY(l.Y)}
		placed = append(placed, vg.Rectangle{Min: vg.Point{X: p.X - 3, Y: p.Y - 3}, Max: vg.Point{X: p.X + 3, Y: p.Y + 3}})
	}
	for _, l := range lp.Labels {
		p := vg.Point{X: trX(l.X), Y: trY(l.Y)}
		w := face.Width(l.Text)
		cands := []vg.Point{ // lower-left corners
			{X: p.X + gap, Y: p.Y - h/2}, {X: p.X - gap - w, Y: p.Y - h/2},
			{X: p.X - w/2, Y: p.Y + gap}, {X: p.X - w/2, Y: p.Y - gap - h},
			{X: p.X + gap, Y: p.Y + gap}, {X: p.X + gap, Y: p.Y - gap - h},
			{X: p.X - gap - w, Y: p.Y + gap}, {X: p.X - gap - w, Y: p.Y - gap - h},
		}
		best, bestCost := cands[0], vg.Length(math.Inf(1))
		for _, q := range cands {
			r := vg.Rectangle{Min: q, Max: vg.Point{X: q.X + w, Y: q.Y + h}}
			cost := outside(r, c.Rectangle) * 4
			for _, o := range placed {
				cost += overlap(r, o)
			}
			if cost < bestCost {
				best, bestCost = q, cost
			}
			if cost == 0 {
				break
			}
		}
		r := vg.Rectangle{Min: best, Max: vg.Point{X: best.X + w, Y: best.Y + h}}
		placed = append(placed, r)
		sty := draw.TextStyle{Color: l.Color, Font: f, Handler: plot.DefaultTextHandler, XAlign: draw.XLeft, YAlign: draw.YBottom}
		c.FillText(sty, best, l.Text)
	}
}

// overlap is the area two rectangles share.
func overlap(a, b vg.Rectangle) vg.Length {
	w := min(a.Max.X, b.Max.X) - max(a.Min.X, b.Min.X)
	h := min(a.Max.Y, b.Max.Y) - max(a.Min.Y, b.Min.Y)
	if w <= 0 || h <= 0 {
		return 0
	}
	return w * h
}

// outside is the area of a that lies outside frame.
func outside(a, frame vg.Rectangle) vg.Length {
	return (a.Max.X-a.Min.X)*(a.Max.Y-a.Min.Y) - overlap(a, frame)
}
