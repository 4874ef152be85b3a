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

// configPairs splits a configuration ("k=v;k=v", also ',' or ' '
// separated) into its key=value items, in order.
func configPairs(cfg string) []string {
	return strings.FieldsFunc(cfg, func(r rune) bool { return r == ';' || r == ',' || r == ' ' })
}

// varyingKeys returns the keys whose values differ between configurations
// (an item without '=' counts as its own key).
func varyingKeys(cfgs []string) map[string]bool {
	vals := map[string]map[string]bool{}
	present := map[string]int{}
	for _, c := range cfgs {
		for _, kv := range configPairs(c) {
			k, v, _ := strings.Cut(kv, "=")
			if vals[k] == nil {
				vals[k] = map[string]bool{}
			}
			vals[k][v] = true
			present[k]++
		}
	}
	out := map[string]bool{}
	for k, vs := range vals {
		if len(vs) > 1 || present[k] != len(cfgs) {
			out[k] = true
		}
	}
	return out
}

// initials abbreviates a key to the first letters of its words
// ("coverage_threshold" → "ct").
func initials(k string) string {
	var b strings.Builder
	for _, w := range strings.FieldsFunc(k, func(r rune) bool { return r == '_' || r == '-' || r == '.' }) {
		b.WriteByte(w[0])
	}
	return b.String()
}

// maxLabelRunes caps a point label: longer ones end in "…".
const maxLabelRunes = 30

// shortConfig shortens a configuration for a label: only the keys in keep
// (all when keep is nil), each abbreviated to its initials unless two
// kept keys share them ("max_rules=15;coverage_threshold=0.01" → "mr=15
// ct=0.01").
func shortConfig(cfg string, keep map[string]bool) string {
	pairs := configPairs(cfg)
	count := map[string]int{}
	for _, kv := range pairs {
		k, _, _ := strings.Cut(kv, "=")
		if keep == nil || keep[k] {
			count[initials(k)]++
		}
	}
	var parts []string
	for _, kv := range pairs {
		k, v, ok := strings.Cut(kv, "=")
		if keep != nil && !keep[k] {
			continue
		}
		if !ok {
			parts = append(parts, kv)
			continue
		}
		if ini := initials(k); count[ini] == 1 {
			k = ini
		}
		parts = append(parts, k+"="+v)
	}
	return strings.Join(parts, " ")
}

// capLabel shortens a label to maxLabelRunes.
func capLabel(s string) string {
	r := []rune(s)
	if len(r) <= maxLabelRunes {
		return s
	}
	return string(r[:maxLabelRunes-1]) + "…"
}

// pointLabel is a text to write beside a data point.
type pointLabel struct {
	X, Y  float64
	Text  string
	Color color.Color
}

// labelPlotter writes point labels beside their points. Each label tries
// eight positions around its point (right, left, above, below, then the
// diagonals), then the same eight three times farther out with a leader
// line, and takes the first whose box overlaps neither a label placed
// before it nor a point or the front's line nor the plot's edge; when
// every position collides it takes the one with the least overlap.
type labelPlotter struct {
	Labels []pointLabel
	Size   float64 // font size in points
	// Line, when set, is a polyline (the front) labels should not cover;
	// Avoid are further points they should not cover.
	Line, Avoid []pointLabel
}

func (lp labelPlotter) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	f := fontOf(lp.Size)
	face := plot.DefaultTextHandler.Cache().Lookup(f, f.Size)
	h := vg.Points(lp.Size) * 1.1
	gap := vg.Points(5)
	var placed []vg.Rectangle
	// Every labelled point is an obstacle for every label.
	for _, l := range append(append([]pointLabel(nil), lp.Labels...), lp.Avoid...) {
		p := vg.Point{X: trX(l.X), Y: trY(l.Y)}
		placed = append(placed, vg.Rectangle{Min: vg.Point{X: p.X - 3, Y: p.Y - 3}, Max: vg.Point{X: p.X + 3, Y: p.Y + 3}})
	}
	// The line is sampled into small boxes along each segment.
	for i := 1; i < len(lp.Line); i++ {
		a := vg.Point{X: trX(lp.Line[i-1].X), Y: trY(lp.Line[i-1].Y)}
		b := vg.Point{X: trX(lp.Line[i].X), Y: trY(lp.Line[i].Y)}
		for k := 1; k < 12; k++ {
			f := vg.Length(k) / 12
			q := vg.Point{X: a.X + (b.X-a.X)*f, Y: a.Y + (b.Y-a.Y)*f}
			placed = append(placed, vg.Rectangle{Min: vg.Point{X: q.X - 1, Y: q.Y - 1}, Max: vg.Point{X: q.X + 1, Y: q.Y + 1}})
		}
	}
	for _, l := range lp.Labels {
		p := vg.Point{X: trX(l.X), Y: trY(l.Y)}
		w := face.Width(l.Text)
		// Near positions first, then the same directions farther out
		// (joined to the point by a thin leader line).
		var cands []vg.Point // lower-left corners
		for _, g := range []vg.Length{gap, 3.2 * gap} {
			cands = append(cands,
				vg.Point{X: p.X + g, Y: p.Y - h/2}, vg.Point{X: p.X - g - w, Y: p.Y - h/2},
				vg.Point{X: p.X - w/2, Y: p.Y + g}, vg.Point{X: p.X - w/2, Y: p.Y - g - h},
				vg.Point{X: p.X + g, Y: p.Y + g}, vg.Point{X: p.X + g, Y: p.Y - g - h},
				vg.Point{X: p.X - g - w, Y: p.Y + g}, vg.Point{X: p.X - g - w, Y: p.Y - g - h})
		}
		best, bestCost, far := cands[0], vg.Length(math.Inf(1)), false
		for i, q := range cands {
			r := vg.Rectangle{Min: q, Max: vg.Point{X: q.X + w, Y: q.Y + h}}
			cost := outside(r, c.Rectangle) * 4
			for _, o := range placed {
				cost += overlap(r, o)
			}
			if i >= 8 {
				cost += 2 // a far place only when it gains something
			}
			if cost < bestCost {
				best, bestCost, far = q, cost, i >= 8
			}
			if cost == 0 {
				break
			}
		}
		r := vg.Rectangle{Min: best, Max: vg.Point{X: best.X + w, Y: best.Y + h}}
		placed = append(placed, r)
		if far {
			// Leader from the point to the nearest point of the label's box.
			end := vg.Point{X: max(r.Min.X, min(p.X, r.Max.X)), Y: max(r.Min.Y, min(p.Y, r.Max.Y))}
			c.StrokeLine2(draw.LineStyle{Color: color.Gray{Y: 110}, Width: vg.Points(0.4)}, p.X, p.Y, end.X, end.Y)
		}
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
