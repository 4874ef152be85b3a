package plots

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	gpalette "gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Heatmap colour bars: every heatmap panel scales its colours between its
// own lowest and highest accuracy, so each gets a bar beside it that says
// which accuracy a colour is.

// heatColorMap is the heatmaps' sequential map as a palette.ColorMap, over
// accuracy in percent: the lowest value of a panel at 0.1 of heatColor's
// ramp, the highest at 0.9 (the cells' own mapping).
type heatColorMap struct {
	min, max, alpha float64
}

func (m *heatColorMap) At(v float64) (color.Color, error) {
	t := 0.5
	if m.max > m.min {
		t = (v - m.min) / (m.max - m.min)
	}
	return heatColor(0.1 + 0.8*t), nil
}
func (m *heatColorMap) Max() float64       { return m.max }
func (m *heatColorMap) SetMax(v float64)   { m.max = v }
func (m *heatColorMap) Min() float64       { return m.min }
func (m *heatColorMap) SetMin(v float64)   { m.min = v }
func (m *heatColorMap) Alpha() float64     { return m.alpha }
func (m *heatColorMap) SetAlpha(a float64) { m.alpha = a }
func (m *heatColorMap) Palette(n int) gpalette.Palette {
	cs := make([]color.Color, n)
	for i := range cs {
		v := m.min
		if n > 1 {
			v += (m.max - m.min) * float64(i) / float64(n-1)
		}
		cs[i], _ = m.At(v)
	}
	return colorList(cs)
}

type colorList []color.Color

func (l colorList) Colors() []color.Color { return l }

// heatBarLabel is the colour bar's axis label; a test finds it in the SVG.
const heatBarLabel = "accuracy (%)"

// heatBarWidth is the room a colour bar takes right of its heatmap.
const heatBarWidth = 2.3 * vg.Centimeter

// colorBarPlot is a vertical colour bar over [lo, hi] (accuracy, 0..1),
// labelled in percent.
func colorBarPlot(lo, hi float64) (*plot.Plot, error) {
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return nil, ErrNoData
	}
	lo, hi = lo*100, hi*100
	if hi <= lo { // one value: a bar needs a range
		lo, hi = lo-0.05, hi+0.05
	}
	p := newPlot("", "", heatBarLabel)
	p.HideX()
	p.Y.Label.TextStyle.Font = fontOf(8)
	p.Y.Tick.Label.Font = fontOf(7)
	p.Add(&plotter.ColorBar{ColorMap: &heatColorMap{min: lo, max: hi, alpha: 1}, Vertical: true, Colors: 64})
	p.Y.Min, p.Y.Max = lo, hi
	return p, nil
}

// drawHeatWithBar draws a heatmap panel and, to its right, its colour bar
// with the bar's data area aligned to the heatmap's rows.
func drawHeatWithBar(c draw.Canvas, heat, bar *plot.Plot) {
	hc := c
	hc.Max.X -= heatBarWidth
	heat.Draw(hc)
	if bar == nil {
		return
	}
	dc := heat.DataCanvas(hc)
	bc := c
	bc.Min.X = c.Max.X - heatBarWidth + vg.Millimeter*3
	// Align the bar's data area with the heatmap's: measure the bar's own
	// axes' room at this size and move its canvas by it.
	bd := bar.DataCanvas(bc)
	below, above := bd.Min.Y-bc.Min.Y, bc.Max.Y-bd.Max.Y
	bc.Min.Y, bc.Max.Y = dc.Min.Y-below, dc.Max.Y+above
	// A bar a few millimetres wide, right of its tick labels.
	left := bd.Min.X - bc.Min.X
	bc.Max.X = bc.Min.X + left + vg.Millimeter*4
	bar.Draw(bc)
}
