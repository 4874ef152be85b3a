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
// and the optimised ones (fgrt-opt), and the analysis's difference
// (Optimised − Default).
type PartitionImpactRow struct {
	Dataset                  string
	Default, Optimised, Diff float64
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
	for i, r := range rows {
		names[i] = r.Dataset
	}
	top, err := accuracyBars(title, rows)
	if err != nil {
		return err
	}
	bottom, err := differenceBars(rows, meanDiff)
	if err != nil {
		return err
	}
	for _, p := range []*plot.Plot{top, bottom} {
		p.NominalX(names...)
		p.X.Min, p.X.Max = -0.6, float64(len(rows))-0.4
		p.X.Tick.Label.Rotation = math.Pi / 6
		p.X.Tick.Label.XAlign = draw.XRight
		p.X.Tick.Label.YAlign = draw.YCenter
	}
	w := vg.Length(math.Max(14, 1.6*float64(len(rows))+4)) * vg.Centimeter
	return saveGrid(dir, name, w, 16*vg.Centimeter, 2, 1, [][]*plot.Plot{{top}, {bottom}})
}

// impactBarWidth is the width of one bar of the accuracy panel.
const impactBarWidth = vg.Length(9)

// accuracyBars is the top panel: the default and optimised accuracy of
// each data set side by side.
func accuracyBars(title string, rows []PartitionImpactRow) (*plot.Plot, error) {
	def, opt := make(plotter.Values, len(rows)), make(plotter.Values, len(rows))
	for i, r := range rows {
		def[i], opt[i] = r.Default, r.Optimised
	}
	width := impactBarWidth
	top := newPlot(title, "", "mean test accuracy")
	bd, err := plotter.NewBarChart(def, width)
	if err != nil {
		return nil, err
	}
	bd.Color, bd.LineStyle.Width, bd.Offset = colorOf(0), 0, -width/2
	bo, err := plotter.NewBarChart(opt, width)
	if err != nil {
		return nil, err
	}
	bo.Color, bo.LineStyle.Width, bo.Offset = colorOf(1), 0, width/2
	top.Add(bd, bo)
	top.Legend.Add("default partitions (fgrt)", bd)
	top.Legend.Add("optimised partitions (fgrt-opt)", bo)
	top.Legend.Top, top.Legend.Left = true, false
	top.Y.Min, top.Y.Max = 0, 1.15
	top.Add(plotter.NewGrid())
	return top, nil
}

// differenceBars is the bottom panel: each data set's difference as a
// gain or a loss bar, with the zero line and the mean difference dashed.
func differenceBars(rows []PartitionImpactRow, meanDiff float64) (*plot.Plot, error) {
	gain, loss := make(plotter.Values, len(rows)), make(plotter.Values, len(rows))
	for i, r := range rows {
		if r.Diff >= 0 {
			gain[i] = r.Diff
		} else {
			loss[i] = r.Diff
		}
	}
	bottom := newPlot("", "", "optimised - default")
	bg, err := plotter.NewBarChart(gain, 2*impactBarWidth)
	if err != nil {
		return nil, err
	}
	bg.Color, bg.LineStyle.Width = colorOf(2), 0
	bl, err := plotter.NewBarChart(loss, 2*impactBarWidth)
	if err != nil {
		return nil, err
	}
	// Losses get a colour of their own: the top panel's legend gives
	// colorOf(1) to fgrt-opt, and a loss is not fgrt-opt's bar.
	bl.Color, bl.LineStyle.Width = colorOf(3), 0
	zero, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: 0}, {X: float64(len(rows)) - 0.5, Y: 0}})
	if err != nil {
		return nil, err
	}
	zero.Color = colorOf(6)
	meanLine, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: meanDiff}, {X: float64(len(rows)) - 0.5, Y: meanDiff}})
	if err != nil {
		return nil, err
	}
	meanLine.Color, meanLine.Dashes = colorOf(6), []vg.Length{vg.Points(4), vg.Points(3)}
	bottom.Add(bg, bl, zero, meanLine)
	bottom.Legend.Add("optimised better", bg)
	bottom.Legend.Add("optimised worse", bl)
	bottom.Legend.Add(fmt.Sprintf("mean difference %+.4f", meanDiff), meanLine)
	bottom.Legend.Top = true
	lo, hi := 0.0, 0.0
	for i := range rows {
		lo, hi = math.Min(lo, loss[i]), math.Max(hi, gain[i])
	}
	pad := math.Max(hi-lo, 0.01) * 0.25
	// Headroom for the three-line legend above the bars.
	bottom.Y.Min, bottom.Y.Max = lo-pad, hi+2*pad
	return bottom, nil
}
