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
	// Labels name the points of the Pareto front directly.
	Labels []labelView
}

type labelView struct {
	X, Y                 float64
	Text, Anchor, Method string
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
	minX, maxX := math.Inf(1), math.Inf(-1)
	minY, maxY := math.Inf(1), math.Inf(-1)
	for _, pt := range p.Points {
		minX, maxX = math.Min(minX, pt.Size), math.Max(maxX, pt.Size)
		minY, maxY = math.Min(minY, pt.Accuracy), math.Max(maxY, pt.Accuracy)
	}
	fv.LogX = minX > 0 && maxX/minX > 10
	tx := func(v float64) float64 { return v }
	if fv.LogX {
		tx = math.Log10
	}
	x0, x1 := tx(minX), tx(maxX)
	if x1-x0 < 1e-12 {
		x0, x1 = x0-1, x1+1
	}
	padX := (x1 - x0) * 0.05
	x0, x1 = x0-padX, x1+padX
	if !fv.LogX && x0 < 0 && minX >= 0 {
		x0 = 0
	}
	y0, y1 := minY*100, maxY*100
	if y1-y0 < 1e-9 {
		y0, y1 = y0-1, y1+1
	}
	padY := (y1 - y0) * 0.08
	y0, y1 = y0-padY, y1+padY
	sx := func(v float64) float64 { return round1(padL + (tx(v)-x0)/(x1-x0)*innerW) }
	sy := func(v float64) float64 { return round1(padT + (1-(v*100-y0)/(y1-y0))*innerH) }

	pareto := map[int]bool{}
	for _, i := range p.Pareto {
		pareto[i] = true
	}
	for i, pt := range p.Points {
		k := methodIndex[pt.Method]
		pv := pointView{FrontPoint: pt, Display: name(pt.Method), X: sx(pt.Size), Y: sy(pt.Accuracy), Color: palette[k%len(palette)], Shape: shape(k), Pareto: pareto[i]}
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
	fv.Labels = paretoLabels(fv.Points, p.Pareto)
	// Selected rows on top of the sweep clouds: draw swept points first.
	sortPoints(fv.Points)
	fv.XTicks = xTicks(minX, maxX, fv.LogX, x0, x1, sx)
	fv.YTicks = linearTicks(y0, y1, func(v float64) float64 { return sy(v / 100) })
	return fv
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

// paretoLabels names each Pareto point (method, and configuration for a
// sweep point), right of the point, or left of it in the right third of
// the plot; a label that would overlap the previous one is dropped (the
// hover still names the point).
func paretoLabels(pts []pointView, pareto []int) []labelView {
	var out []labelView
	for j := 0; j < len(pareto); j++ {
		p := pts[pareto[j]]
		names := []string{labelText(p)}
		// Points that coincide (equal means) share one label.
		for j+1 < len(pareto) && pts[pareto[j+1]].X == p.X && pts[pareto[j+1]].Y == p.Y {
			j++
			names = append(names, labelText(pts[pareto[j]]))
		}
		text := strings.Join(names, ", ")
		if r := []rune(text); len(r) > 44 {
			text = string(r[:43]) + "…"
		}
		l := labelView{X: p.X + p.R + 3, Y: p.Y - p.R - 1, Text: text, Anchor: "start", Method: p.Method}
		// About 5.6 units per character at the labels' 10px: a label that
		// would run past the plot's right edge goes left of its point.
		if l.X+5.6*float64(len([]rune(text))) > plotW-padR {
			l.X, l.Anchor = p.X-p.R-3, "end"
		}
		if l.Y < padT+10 {
			l.Y = p.Y + p.R + 11
		}
		if n := len(out); n > 0 && math.Abs(out[n-1].Y-l.Y) < 11 && math.Abs(out[n-1].X-l.X) < 90 {
			continue
		}
		out = append(out, l)
	}
	return out
}

func labelText(p pointView) string {
	if p.Config != "" {
		return p.Display + " " + p.Config
	}
	return p.Display
}
