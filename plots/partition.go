package plots

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// PartitionImpactRow is one data set's mean test accuracy (selected rows,
// mean over folds and repeats) with the default quantile partitions (fgrt)
// and the optimised ones (fgrt-opt).
type PartitionImpactRow struct {
	Dataset            string
	Default, Optimised float64
}

// PartitionImpactFigure draws grouped bars of the default and optimised
// accuracy per data set (top) and their difference, optimised minus default
// (bottom, positive = the optimisation helped), with meanDiff — the
// analysis's partition mean_diff — as a line.
func PartitionImpactFigure(dir, name, title string, rows []PartitionImpactRow, meanDiff float64) error {
	if len(rows) == 0 {
		return ErrNoData
	}
	names := make([]string, len(rows))
	def, opt, gain, loss := make(plotter.Values, len(rows)), make(plotter.Values, len(rows)), make(plotter.Values, len(rows)), make(plotter.Values, len(rows))
	for i, r := range rows {
		names[i] = r.Dataset
		def[i], opt[i] = r.Default, r.Optimised
		d := r.Optimised - r.Default
		if d >= 0 {
			gain[i] = d
		} else {
			loss[i] = d
		}
	}
	width := vg.Points(9)
	top := newPlot(title, "", "mean test accuracy")
	bd, err := plotter.NewBarChart(def, width)
	if err != nil {
		return err
	}
	bd.Color, bd.LineStyle.Width, bd.Offset = colorOf(0), 0, -width/2
	bo, err := plotter.NewBarChart(opt, width)
	if err != nil {
		return err
	}
	bo.Color, bo.LineStyle.Width, bo.Offset = colorOf(1), 0, width/2
	top.Add(bd, bo)
	top.Legend.Add("default partitions (fgrt)", bd)
	top.Legend.Add("optimised partitions (fgrt-opt)", bo)
	top.Legend.Top, top.Legend.Left = true, false
	top.Y.Min, top.Y.Max = 0, 1.15
	top.NominalX(names...)
	top.Add(plotter.NewGrid())

	bottom := newPlot("", "", "optimised - default")
	bg, err := plotter.NewBarChart(gain, 2*width)
	if err != nil {
		return err
	}
	bg.Color, bg.LineStyle.Width = colorOf(2), 0
	bl, err := plotter.NewBarChart(loss, 2*width)
	if err != nil {
		return err
	}
	// Losses get a colour of their own: the top panel's legend gives
	// colorOf(1) to fgrt-opt, and a loss is not fgrt-opt's bar.
	bl.Color, bl.LineStyle.Width = colorOf(3), 0
	zero, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: 0}, {X: float64(len(rows)) - 0.5, Y: 0}})
	if err != nil {
		return err
	}
	zero.Color = colorOf(6)
	meanLine, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: meanDiff}, {X: float64(len(rows)) - 0.5, Y: meanDiff}})
	if err != nil {
		return err
	}
	meanLine.Color, meanLine.Dashes = colorOf(6), []vg.Length{vg.Points(4), vg.Points(3)}
	bottom.Add(bg, bl, zero, meanLine)
	bottom.Legend.Add("optimised better", bg)
	bottom.Legend.Add("optimised worse", bl)
	bottom.Legend.Add(fmt.Sprintf("mean difference %+.4f", meanDiff), meanLine)
	bottom.Legend.Top = true
	bottom.NominalX(names...)
	lo, hi := 0.0, 0.0
	for i := range rows {
		lo, hi = math.Min(lo, loss[i]), math.Max(hi, gain[i])
	}
	pad := math.Max(hi-lo, 0.01) * 0.25
	// Headroom for the three-line legend above the bars.
	bottom.Y.Min, bottom.Y.Max = lo-pad, hi+2*pad
	for _, p := range []*plot.Plot{top, bottom} {
		p.X.Min, p.X.Max = -0.6, float64(len(rows))-0.4
		p.X.Tick.Label.Rotation = math.Pi / 6
		p.X.Tick.Label.XAlign = draw.XRight
		p.X.Tick.Label.YAlign = draw.YCenter
	}
	w := vg.Length(math.Max(14, 1.6*float64(len(rows))+4)) * vg.Centimeter
	return saveGrid(dir, name, w, 16*vg.Centimeter, 2, 1, [][]*plot.Plot{{top}, {bottom}})
}
