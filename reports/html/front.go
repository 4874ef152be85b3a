package html

import (
	"math"
	"strconv"
	"strings"

	"github.com/fgrtbench/fgrtbench/analysis"
)

// Plot geometry of one front panel (SVG user units).
const (
	plotW, plotH                   = 440.0, 300.0
	padL, padR, padT, padB         = 56.0, 14.0, 12.0, 42.0
	innerW, innerH                 = plotW - padL - padR, plotH - padT - padB
	selectedRadius, sweptRadius    = 5.5, 3.0
	paretoStroke, ordinaryStrokeOp = 1.6, 0.55
)

// palette is Okabe and Ito's colour-blind-safe palette (black last); a
// method's colour is palette[i % 8] and its marker shape i / 8, so up to
// 24 methods get distinct pairs.
var palette = []string{"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"}

type frontView struct {
	Protocol, Title, Dataset string
	Pooled                   bool
	LogX                     bool
	Points                   []pointView
	Path                     string // the Pareto line, "M x y L …"
	XTicks, YTicks           []tick
	W, H                     float64
	PlotLeft, PlotBottom     float64
	PlotRight, PlotTop       float64
	// Labels number the places of the Pareto front beside their points;
	// Key names each number, whole, beneath the plot.
	Labels []labelView
	Key    []keyView
}

type labelView struct {
	X, Y                 float64
	Text, Anchor, Method string
}

// keyView is one numbered place of the Pareto front: the names (method
// and configuration) of the optimal points there.
type keyView struct {
	N            int
	Text, Method string
}

type pointView struct {
	analysis.FrontPoint
	Display      string
	X, Y         float64
	R            float64
	Color, Shape string
	Pareto       bool
	// Marker is an SVG path for square and triangle shapes ("" for a circle).
	Marker string
}

type tick struct {
	Pos   float64
	Label string
}

type legendView struct {
	Method, Display, Color, Shape string
}

func legendOf(method, display string, k int) legendView {
	return legendView{Method: method, Display: display, Color: palette[k%len(palette)], Shape: shape(k)}
}

// frontOf lays out one panel: size on x (log scale when the sizes span
// more than a decade), accuracy in percent on y.
func frontOf(protocol string, p analysis.FrontPanel, name func(string) string, methodIndex map[string]int) frontView {
	fv := frontView{Protocol: protocol, Title: p.Title, Dataset: p.Dataset, Pooled: p.Dataset == "", W: plotW, H: plotH,
		PlotLeft: padL, PlotRight: plotW - padR, PlotTop: padT, PlotBottom: plotH - padB}
	if len(p.Points) == 0 {
		return fv
	}
	sc := newFrontScale(p.Points)
	fv.LogX = sc.logX
	pareto := map[int]bool{}
	for _, i := range p.Pareto {
		pareto[i] = true
	}
	for i, pt := range p.Points {
		k := methodIndex[pt.Method]
		pv := pointView{FrontPoint: pt, Display: name(pt.Method), X: sc.sx(pt.Size), Y: sc.sy(pt.Accuracy), Color: palette[k%len(palette)], Shape: shape(k), Pareto: pareto[i]}
		pv.R = selectedRadius
		if pt.Swept {
			pv.R = sweptRadius
		}
		pv.Marker = marker(pv.Shape, pv.X, pv.Y, pv.R)
		fv.Points = append(fv.Points, pv)
	}
	for j, i := range p.Pareto {
		cmd := " L "
		if j == 0 {
			cmd = "M "
		}
		fv.Path += cmd + num(fv.Points[i].X, 1) + " " + num(fv.Points[i].Y, 1)
	}
	fv.Labels, fv.Key = paretoLabels(fv.Points, p.Pareto)
	// Selected rows on top of the sweep clouds: draw swept points first.
	sortPoints(fv.Points)
	fv.XTicks = xTicks(sc.minX, sc.maxX, sc.logX, sc.x0, sc.x1, sc.sx)
	fv.YTicks = linearTicks(sc.y0, sc.y1, func(v float64) float64 { return sc.sy(v / 100) })
	return fv
}

// frontScale maps a panel's sizes (log scale when they span more than a
// decade) and accuracies (in percent) to the plot's coordinates: the
// data's extent, padded, fills the inner plot area.
type frontScale struct {
	logX           bool
	minX, maxX     float64 // the sizes' extent
	x0, x1, y0, y1 float64 // the axes' ends, x transformed, y in percent
}

func newFrontScale(points []analysis.FrontPoint) frontScale {
	minX, maxX := math.Inf(1), math.Inf(-1)
	minY, maxY := math.Inf(1), math.Inf(-1)
	for _, pt := range points {
		minX, maxX = math.Min(minX, pt.Size), math.Max(maxX, pt.Size)
		minY, maxY = math.Min(minY, pt.Accuracy), math.Max(maxY, pt.Accuracy)
	}
	sc := frontScale{logX: minX > 0 && maxX/minX > 10, minX: minX, maxX: maxX}
	x0, x1 := sc.tx(minX), sc.tx(maxX)
	if x1-x0 < 1e-12 {
		x0, x1 = x0-1, x1+1
	}
	padX := (x1 - x0) * 0.05
	x0, x1 = x0-padX, x1+padX
	if !sc.logX && x0 < 0 && minX >= 0 {
		x0 = 0
	}
	y0, y1 := minY*100, maxY*100
	if y1-y0 < 1e-9 {
		y0, y1 = y0-1, y1+1
	}
	padY := (y1 - y0) * 0.08
	sc.x0, sc.x1, sc.y0, sc.y1 = x0, x1, y0-padY, y1+padY
	return sc
}

// tx transforms a size onto the x axis's scale.
func (sc frontScale) tx(v float64) float64 {
	if sc.logX {
		return math.Log10(v)
	}
	return v
}

func (sc frontScale) sx(v float64) float64 {
	return round1(padL + (sc.tx(v)-sc.x0)/(sc.x1-sc.x0)*innerW)
}

func (sc frontScale) sy(v float64) float64 {
	return round1(padT + (1-(v*100-sc.y0)/(sc.y1-sc.y0))*innerH)
}

func shape(k int) string { return []string{"circle", "square", "triangle"}[(k/len(palette))%3] }

func marker(shape string, x, y, r float64) string {
	f := func(v float64) string { return num(v, 1) }
	switch shape {
	case "square":
		return "M" + f(x-r) + " " + f(y-r) + "h" + f(2*r) + "v" + f(2*r) + "h-" + f(2*r) + "z"
	case "triangle":
		return "M" + f(x) + " " + f(y-r*1.2) + "L" + f(x+r*1.1) + " " + f(y+r*0.8) + "L" + f(x-r*1.1) + " " + f(y+r*0.8) + "z"
	}
	return ""
}

func sortPoints(ps []pointView) {
	// A stable partition keeps the analysis's order within each group.
	var swept, sel []pointView
	for _, p := range ps {
		if p.Swept {
			swept = append(swept, p)
		} else {
			sel = append(sel, p)
		}
	}
	copy(ps, append(swept, sel...))
}

func round1(v float64) float64 { return math.Round(v*10) / 10 }

// linearTicks returns about five ticks at 1, 2 or 5 × 10^k steps in [lo, hi].
func linearTicks(lo, hi float64, pos func(float64) float64) []tick {
	step := niceStep((hi - lo) / 5)
	var out []tick
	dec := max(0, int(-math.Floor(math.Log10(step))))
	for v := math.Ceil(lo/step) * step; v <= hi+step*1e-9; v += step {
		out = append(out, tick{Pos: pos(v), Label: strconv.FormatFloat(v, 'f', dec, 64)})
	}
	return out
}

func niceStep(raw float64) float64 {
	if !(raw > 0) {
		return 1
	}
	e := math.Pow(10, math.Floor(math.Log10(raw)))
	switch f := raw / e; {
	case f <= 1:
		return e
	case f <= 2:
		return 2 * e
	case f <= 5:
		return 5 * e
	}
	return 10 * e
}

func xTicks(minX, maxX float64, logX bool, x0, x1 float64, sx func(float64) float64) []tick {
	if !logX {
		return linearTicks(x0, x1, sx)
	}
	var out []tick
	for e := math.Floor(x0); e <= math.Ceil(x1); e++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, e)
			if lv := math.Log10(v); lv >= x0 && lv <= x1 {
				out = append(out, tick{Pos: sx(v), Label: strconv.FormatFloat(v, 'f', -1, 64)})
			}
		}
	}
	return out
}

// InnerW and friends are the template's geometry helpers.
func (f frontView) InnerW() float64 { return f.PlotRight - f.PlotLeft }
func (f frontView) InnerH() float64 { return f.PlotBottom - f.PlotTop }
func (f frontView) MidX() float64   { return (f.PlotLeft + f.PlotRight) / 2 }
func (f frontView) MidY() float64   { return (f.PlotTop + f.PlotBottom) / 2 }

// Label geometry (SVG units at the labels' 10px): a digit's advance, a
// line's height, the gap between a point's edge and its number.
const (
	labelCharW, labelH, labelGap = 6.0, 10.0, 3.0
)

// paretoLabels numbers the places of the Pareto front in front order
// (optimal points that coincide share a number; labelText names them) and
// places each number
// beside its point, clear of the other numbers, every point, the front's
// line and the plot's edge (placeNumbers); the key names each number.
func paretoLabels(pts []pointView, pareto []int) ([]labelView, []keyView) {
	var key []keyView
	var anchors []pointView
	vary := varyingKeys(pts)
	for j := 0; j < len(pareto); j++ {
		p := pts[pareto[j]]
		names := []string{labelText(p, vary)}
		for j+1 < len(pareto) && pts[pareto[j+1]].X == p.X && pts[pareto[j+1]].Y == p.Y {
			j++
			names = append(names, labelText(pts[pareto[j]], vary))
		}
		key = append(key, keyView{N: len(key) + 1, Text: strings.Join(names, "; "), Method: p.Method})
		anchors = append(anchors, p)
	}
	var obstacles []box
	for _, p := range pts {
		r := p.R + 1
		if p.Pareto {
			r += 1.5 // the front's ring
		}
		obstacles = append(obstacles, box{p.X - r, p.Y - r, p.X + r, p.Y + r})
	}
	for i := 1; i < len(anchors); i++ {
		a, b := anchors[i-1], anchors[i]
		for k := 1; k < 16; k++ {
			f := float64(k) / 16
			x, y := a.X+(b.X-a.X)*f, a.Y+(b.Y-a.Y)*f
			obstacles = append(obstacles, box{x - 1, y - 1, x + 1, y + 1})
		}
	}
	frame := box{padL, padT, plotW - padR, plotH - padB}
	var labels []labelView
	for i, p := range anchors {
		text := strconv.Itoa(key[i].N)
		b := placeNumber(frame, p, labelCharW*float64(len(text)), obstacles)
		obstacles = append(obstacles, b)
		// SVG text sits on its baseline: the box's bottom, less the
		// descent of digits (none).
		labels = append(labels, labelView{X: round1(b.x0), Y: round1(b.y1 - 1), Text: text, Anchor: "start", Method: p.Method})
	}
	return labels, key
}

// box is a rectangle in SVG units (y grows downwards).
type box struct{ x0, y0, x1, y1 float64 }

func (a box) overlaps(b box) bool { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1 }

func (a box) inside(f box) bool { return a.x0 >= f.x0 && a.y0 >= f.y0 && a.x1 <= f.x1 && a.y1 <= f.y1 }

// placeNumber places a w-wide number beside point p: at the first clear
// place of eight directions (right, left, above, below, the diagonals)
// at growing distances, else the clear place in the frame nearest p, else
// right of p.
func placeNumber(frame box, p pointView, w float64, obstacles []box) box {
	clear := func(b box) bool {
		if !b.inside(frame) {
			return false
		}
		for _, o := range obstacles {
			if b.overlaps(o) {
				return false
			}
		}
		return true
	}
	for _, k := range []float64{1, 2, 3.5, 5, 7} {
		g := p.R + labelGap*k
		for _, c := range [][2]float64{
			{p.X + g, p.Y - labelH/2}, {p.X - g - w, p.Y - labelH/2}, {p.X - w/2, p.Y - g - labelH}, {p.X - w/2, p.Y + g},
			{p.X + g, p.Y - g - labelH}, {p.X + g, p.Y + g}, {p.X - g - w, p.Y - g - labelH}, {p.X - g - w, p.Y + g},
		} {
			if b := (box{c[0], c[1], c[0] + w, c[1] + labelH}); clear(b) {
				return b
			}
		}
	}
	best, bestD, found := box{}, math.Inf(1), false
	for y := frame.y0; y+labelH <= frame.y1; y++ {
		for x := frame.x0; x+w <= frame.x1; x++ {
			b := box{x, y, x + w, y + labelH}
			dx, dy := x+w/2-p.X, y+labelH/2-p.Y
			if d := dx*dx + dy*dy; d < bestD && clear(b) {
				best, bestD, found = b, d, true
			}
		}
	}
	if found {
		return best
	}
	return box{p.X + p.R + labelGap, p.Y - labelH/2, p.X + p.R + labelGap + w, p.Y + labelH/2}
}

// labelText names a front point in the key: its method and, for a sweep
// point, the settings its method's sweep varies (vary: per method, the
// keys whose values differ between its sweep points), "k=v" apart by
// spaces; the hover shows the whole configuration.
func labelText(p pointView, vary map[string]map[string]bool) string {
	if !p.Swept || p.Config == "" {
		return p.Display
	}
	var kept []string
	for _, kv := range configItems(p.Config) {
		k, _, _ := strings.Cut(kv, "=")
		if vary[p.Method][k] {
			kept = append(kept, kv)
		}
	}
	if len(kept) == 0 {
		return p.Display
	}
	return p.Display + " " + strings.Join(kept, " ")
}

// configItems splits a configuration "k=v;k=v" into its items.
func configItems(cfg string) []string {
	return strings.FieldsFunc(cfg, func(r rune) bool { return r == ';' || r == ',' || r == ' ' })
}

// varyingKeys lists, per method, the configuration keys whose values
// differ between its sweep points (or that some of them lack).
func varyingKeys(pts []pointView) map[string]map[string]bool {
	vals := map[string]map[string]map[string]bool{}
	count, present := map[string]int{}, map[string]map[string]int{}
	for _, p := range pts {
		if !p.Swept {
			continue
		}
		m := p.Method
		if vals[m] == nil {
			vals[m], present[m] = map[string]map[string]bool{}, map[string]int{}
		}
		count[m]++
		for _, kv := range configItems(p.Config) {
			k, v, _ := strings.Cut(kv, "=")
			if vals[m][k] == nil {
				vals[m][k] = map[string]bool{}
			}
			vals[m][k][v] = true
			present[m][k]++
		}
	}
	out := map[string]map[string]bool{}
	for m, keys := range vals {
		out[m] = map[string]bool{}
		for k, vs := range keys {
			if len(vs) > 1 || present[m][k] != count[m] {
				out[m][k] = true
			}
		}
	}
	return out
}
