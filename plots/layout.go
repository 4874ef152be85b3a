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

// pointLabel is a text to write beside a data point.
type pointLabel struct {
	X, Y  float64
	Text  string
	Color color.Color
}

// labelPlotter writes point labels beside their points (placeLabels).
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
	var obstacles []vg.Rectangle
	// Every point is an obstacle for every label: a labelled point with
	// its ring (radius 5.5 points), another with its marker.
	box := func(l pointLabel, r vg.Length) vg.Rectangle {
		p := vg.Point{X: trX(l.X), Y: trY(l.Y)}
		return vg.Rectangle{Min: vg.Point{X: p.X - r, Y: p.Y - r}, Max: vg.Point{X: p.X + r, Y: p.Y + r}}
	}
	for _, l := range lp.Labels {
		obstacles = append(obstacles, box(l, 6))
	}
	for _, l := range lp.Avoid {
		obstacles = append(obstacles, box(l, 4))
	}
	// The line is sampled into small boxes along each segment.
	for i := 1; i < len(lp.Line); i++ {
		a := vg.Point{X: trX(lp.Line[i-1].X), Y: trY(lp.Line[i-1].Y)}
		b := vg.Point{X: trX(lp.Line[i].X), Y: trY(lp.Line[i].Y)}
		for k := 1; k < 12; k++ {
			f := vg.Length(k) / 12
			q := vg.Point{X: a.X + (b.X-a.X)*f, Y: a.Y + (b.Y-a.Y)*f}
			obstacles = append(obstacles, vg.Rectangle{Min: vg.Point{X: q.X - 1, Y: q.Y - 1}, Max: vg.Point{X: q.X + 1, Y: q.Y + 1}})
		}
	}
	anchors := make([]vg.Point, len(lp.Labels))
	widths := make([]vg.Length, len(lp.Labels))
	for i, l := range lp.Labels {
		anchors[i], widths[i] = vg.Point{X: trX(l.X), Y: trY(l.Y)}, face.Width(l.Text)
	}
	boxes, far := placeLabels(c.Rectangle, anchors, widths, vg.Points(lp.Size)*1.1, obstacles)
	for i, l := range lp.Labels {
		p, r := anchors[i], boxes[i]
		if far[i] {
			// Leader from the point to the nearest point of the label's box.
			end := vg.Point{X: max(r.Min.X, min(p.X, r.Max.X)), Y: max(r.Min.Y, min(p.Y, r.Max.Y))}
			c.StrokeLine2(draw.LineStyle{Color: color.Gray{Y: 110}, Width: vg.Points(0.4)}, p.X, p.Y, end.X, end.Y)
		}
		sty := draw.TextStyle{Color: l.Color, Font: f, Handler: plot.DefaultTextHandler, XAlign: draw.XLeft, YAlign: draw.YBottom}
		c.FillText(sty, r.Min, l.Text)
	}
}

// labelGaps are the distances from its point at which placeLabels tries
// a label, nearest first (in units of labelGap); beyond the first, a
// leader line joins label and point.
var labelGaps = []vg.Length{1, 2, 3.2, 4.6, 6.2, 8}

const labelGap = vg.Length(5) // points

// placeLabels places labels of the given widths and height h beside their
// anchors in frame, in order: each tries eight positions around its
// anchor (right, left, above, below, then the diagonals) at each of
// labelGaps, and takes the first whose box overlaps neither a label
// placed before it nor an obstacle and lies inside frame; when every
// position collides it takes the nearest clear place anywhere in the
// frame (nearestClear), and only where there is none the position with
// the least overlap. far reports the positions beyond the nearest ring,
// which get a leader line.
func placeLabels(frame vg.Rectangle, anchors []vg.Point, widths []vg.Length, h vg.Length, obstacles []vg.Rectangle) (boxes []vg.Rectangle, far []bool) {
	placed := append([]vg.Rectangle(nil), obstacles...)
	for i, p := range anchors {
		w := widths[i]
		var best vg.Rectangle
		bestCost, bestFar := vg.Length(math.Inf(1)), false
	search:
		for ring, k := range labelGaps {
			g := k * labelGap
			for _, q := range []vg.Point{
				{X: p.X + g, Y: p.Y - h/2}, {X: p.X - g - w, Y: p.Y - h/2},
				{X: p.X - w/2, Y: p.Y + g}, {X: p.X - w/2, Y: p.Y - g - h},
				{X: p.X + g, Y: p.Y + g}, {X: p.X + g, Y: p.Y - g - h},
				{X: p.X - g - w, Y: p.Y + g}, {X: p.X - g - w, Y: p.Y - g - h},
			} {
				r := vg.Rectangle{Min: q, Max: vg.Point{X: q.X + w, Y: q.Y + h}}
				cost := outside(r, frame) * 4
				for _, o := range placed {
					cost += overlap(r, o)
				}
				if ring > 0 {
					cost += vg.Length(ring) // farther only when it gains something
				}
				if cost < bestCost {
					best, bestCost, bestFar = r, cost, ring > 0
				}
				if cost == vg.Length(ring) && outside(r, frame) == 0 {
					break search // clear of everything: the nearest such place
				}
			}
		}
		if outside(best, frame) > 0 || collides(best, placed) {
			// Crowded: the nearest clear place anywhere in the frame,
			// joined to its point by a leader line.
			if r, ok := nearestClear(frame, p, w, h, placed); ok {
				best, bestFar = r, true
			}
		}
		placed = append(placed, best)
		boxes, far = append(boxes, best), append(far, bestFar)
	}
	return boxes, far
}

// collides reports whether r overlaps any of rs.
func collides(r vg.Rectangle, rs []vg.Rectangle) bool {
	for _, o := range rs {
		if overlap(r, o) > 0 {
			return true
		}
	}
	return false
}

// nearestClear scans frame on a 1-point grid for the w×h box overlapping
// none of placed whose centre is nearest p (false: there is none).
func nearestClear(frame vg.Rectangle, p vg.Point, w, h vg.Length, placed []vg.Rectangle) (vg.Rectangle, bool) {
	var best vg.Rectangle
	bestD, found := vg.Length(math.Inf(1)), false
	for y := frame.Min.Y; y+h <= frame.Max.Y; y++ {
		for x := frame.Min.X; x+w <= frame.Max.X; x++ {
			r := vg.Rectangle{Min: vg.Point{X: x, Y: y}, Max: vg.Point{X: x + w, Y: y + h}}
			dx, dy := x+w/2-p.X, y+h/2-p.Y
			if d := dx*dx + dy*dy; d < bestD && !collides(r, placed) {
				best, bestD, found = r, d, true
			}
		}
	}
	return best, found
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
