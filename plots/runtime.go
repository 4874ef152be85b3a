package plots

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/fgrtbench/fgrtbench/results"
	"github.com/fgrtbench/fgrtbench/results/runtimecsv"
)

// ErrNoData is returned by a figure function whose input holds nothing it
// can draw; RenderAll skips such figures.
var ErrNoData = errors.New("plots: no data for this figure")

// minSeconds floors fit times before taking logarithms: a fit timed at 0
// (below the clock's resolution) would otherwise have no logarithm.
const minSeconds = 1e-6

// ScalingSeries is one method's timings along one size axis.
type ScalingSeries struct {
	Method string
	// Sizes are the distinct sizes, ascending; Min, Mean, Max the fit time
	// over trials at each size.
	Sizes          []float64
	Min, Mean, Max []float64
	// Exponent and Intercept are the least-squares fit of log10(time) on
	// log10(size) over every trial (HasFit is false with fewer than
	// MinFitSizes sizes or fewer than MinFitPoints timings).
	Exponent, Intercept float64
	HasFit              bool
}

// MinFitSizes is the fewest distinct sizes a scaling exponent is fitted
// from: through two sizes any trials give a line, and its slope says
// nothing about how time scales.
const MinFitSizes = 3

// ScalingSeriesOf groups rows of one study by method (in order of first
// appearance) and size (sizeOf picks the axis), and fits each method's
// scaling exponent through FitLogLog.
func ScalingSeriesOf(rows []runtimecsv.Row, sizeOf func(runtimecsv.Row) int) ([]ScalingSeries, error) {
	var order []string
	times := map[string]map[int][]float64{}
	for _, r := range rows {
		if times[r.Method] == nil {
			times[r.Method] = map[int][]float64{}
			order = append(order, r.Method)
		}
		times[r.Method][sizeOf(r)] = append(times[r.Method][sizeOf(r)], math.Max(r.FitSeconds, minSeconds))
	}
	var out []ScalingSeries
	for _, m := range order {
		s := ScalingSeries{Method: m}
		var sizes []int
		for n := range times[m] {
			sizes = append(sizes, n)
		}
		sort.Ints(sizes)
		var fx, fy []float64
		for _, n := range sizes {
			ts := times[m][n]
			lo, hi, sum := math.Inf(1), math.Inf(-1), 0.0
			for _, t := range ts {
				lo, hi, sum = math.Min(lo, t), math.Max(hi, t), sum+t
				fx, fy = append(fx, float64(n)), append(fy, t)
			}
			s.Sizes = append(s.Sizes, float64(n))
			s.Min, s.Max, s.Mean = append(s.Min, lo), append(s.Max, hi), append(s.Mean, sum/float64(len(ts)))
		}
		if len(sizes) >= MinFitSizes && len(fx) >= MinFitPoints {
			slope, icept, err := FitLogLog(fx, fy)
			if err != nil {
				return nil, fmt.Errorf("plots: %s: %v", m, err)
			}
			s.Exponent, s.Intercept, s.HasFit = slope, icept, true
		}
		out = append(out, s)
	}
	return out, nil
}

// scalingPanel draws one log-log panel: a min-max band and a mean line per
// method, the fitted exponent in the legend.
func scalingPanel(title, xlabel string, series []ScalingSeries, styles map[string]MethodStyle, headroom bool, pres results.Presentation) (*plot.Plot, error) {
	p := newPlot(title, xlabel, "training time (s)")
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.Y.Tick.Marker = logTicks125{}
	p.Legend.Left = true
	var sizes []float64
	for _, s := range series {
		if err := addScalingSeries(p, s, styles[s.Method], pres); err != nil {
			return nil, err
		}
		sizes = append(sizes, s.Sizes...)
	}
	widenSinglePoint(&p.X)
	widenSinglePoint(&p.Y)
	if headroom {
		legendHeadroom(p, series)
	}
	p.X.Tick.Marker = plot.ConstantTicks(sizeTicks(sizes))
	return p, nil
}

// widenSinglePoint gives a log axis whose data are one value (one sample
// size, or one fit time) a decade around it: gonum widens an empty range by
// ±1, which on a log axis goes below zero for any value under 1 and panics.
func widenSinglePoint(a *plot.Axis) {
	if a.Min == a.Max && a.Min > 0 {
		a.Min, a.Max = a.Min/math.Sqrt(10), a.Max*math.Sqrt(10)
	}
}

// addScalingSeries draws one method's min-max band (with two sizes or
// more) and mean line, and names it in the legend with its exponent.
func addScalingSeries(p *plot.Plot, s ScalingSeries, st MethodStyle, pres results.Presentation) error {
	c := st.Color
	if len(s.Sizes) >= 2 {
		band := make(plotter.XYs, 0, 2*len(s.Sizes))
		for i := range s.Sizes {
			band = append(band, plotter.XY{X: s.Sizes[i], Y: s.Max[i]})
		}
		for i := len(s.Sizes) - 1; i >= 0; i-- {
			band = append(band, plotter.XY{X: s.Sizes[i], Y: s.Min[i]})
		}
		poly, err := plotter.NewPolygon(band)
		if err != nil {
			return err
		}
		poly.Color = withAlpha(c, 60)
		poly.LineStyle.Width = 0
		p.Add(poly)
	}
	mean := make(plotter.XYs, len(s.Sizes))
	for i := range s.Sizes {
		mean[i] = plotter.XY{X: s.Sizes[i], Y: s.Mean[i]}
	}
	line, pts, err := plotter.NewLinePoints(mean)
	if err != nil {
		return err
	}
	line.Color, line.Width, line.Dashes = c, vg.Points(1.5), st.Dashes
	pts.Color, pts.Shape, pts.Radius = c, st.Marker, vg.Points(2.5)
	p.Add(line, pts)
	label := pres.DisplayName(s.Method)
	switch {
	case s.HasFit:
		label += fmt.Sprintf("  (slope %.2f)", s.Exponent)
	case len(s.Sizes) >= 2:
		label += fmt.Sprintf("  (no slope: %d sizes)", len(s.Sizes))
	}
	p.Legend.Add(label, line, pts)
	return nil
}

// legendHeadroom raises the top of the time axis to leave room above the
// data for the legend (top left): the data keep the lower part of the
// log axis.
func legendHeadroom(p *plot.Plot, series []ScalingSeries) {
	ylo, yhi := math.Inf(1), math.Inf(-1)
	for _, s := range series {
		for i := range s.Sizes {
			ylo, yhi = math.Min(ylo, s.Min[i]), math.Max(yhi, s.Max[i])
		}
	}
	if len(series) > 0 && ylo > 0 {
		decades := math.Max(math.Log10(yhi/ylo), 0.5)
		legend := math.Min(0.045*float64(len(series))+0.04, 0.6)
		p.Y.Min = ylo / math.Pow(10, 0.05*decades)
		p.Y.Max = ylo * math.Pow(10, decades/(1-legend))
	}
}

// sizeTicks labels the size axis at every size measured. Labels closer
// than a twelfth of the axis (in decades) would run into each other: the
// larger size's label is kept (the whole data set is the last).
func sizeTicks(sizes []float64) []plot.Tick {
	seen := map[float64]bool{}
	var ticks []plot.Tick
	for _, x := range sizes {
		if !seen[x] {
			seen[x] = true
			ticks = append(ticks, plot.Tick{Value: x, Label: strconv.FormatFloat(x, 'f', -1, 64)})
		}
	}
	sort.Slice(ticks, func(i, j int) bool { return ticks[i].Value < ticks[j].Value })
	if n := len(ticks); n >= 2 {
		span := math.Log10(ticks[n-1].Value / ticks[0].Value)
		kept := ticks[n-1].Value
		for i := n - 2; i >= 0; i-- {
			if math.Log10(kept/ticks[i].Value) < span/12 {
				ticks[i].Label = ""
			} else {
				kept = ticks[i].Value
			}
		}
	}
	return ticks
}

// runtimeStyles gives each method of the rows its study-wide style.
func runtimeStyles(rows []runtimecsv.Row, pres results.Presentation) map[string]MethodStyle {
	seen := map[string]bool{}
	var labels []string
	for _, r := range rows {
		if !seen[r.Method] {
			seen[r.Method] = true
			labels = append(labels, r.Method)
		}
	}
	return methodStyles(pres, labels)
}

// RuntimeScaling draws the paper's two-panel runtime figure from runtime.csv
// rows: training time against the number of samples (study "samples") and
// against the number of features (study "features"), log-log, a mean line
// and a min-max band over trials per method, and the fitted scaling exponent
// (slope of log time on log size) in the legend. A study without rows is left
// out; with neither, ErrNoData.
func RuntimeScaling(dir, name string, rows []runtimecsv.Row, pres results.Presentation) error {
	colors := runtimeStyles(rows, pres)
	var samples, features []runtimecsv.Row
	for _, r := range rows {
		switch r.Study {
		case runtimecsv.StudySamples:
			samples = append(samples, r)
		case runtimecsv.StudyFeatures:
			features = append(features, r)
		}
	}
	var panels []*plot.Plot
	if len(samples) > 0 {
		ss, err := ScalingSeriesOf(samples, func(r runtimecsv.Row) int { return r.NSamples })
		if err != nil {
			return err
		}
		p, err := scalingPanel(fmt.Sprintf("(a) vs samples (%d features)", samples[0].NFeatures), "number of samples", ss, colors, true, pres)
		if err != nil {
			return err
		}
		panels = append(panels, p)
	}
	if len(features) > 0 {
		ss, err := ScalingSeriesOf(features, func(r runtimecsv.Row) int { return r.NFeatures })
		if err != nil {
			return err
		}
		p, err := scalingPanel(fmt.Sprintf("(b) vs features (%d samples)", features[0].NSamples), "number of features", ss, colors, true, pres)
		if err != nil {
			return err
		}
		panels = append(panels, p)
	}
	if len(panels) == 0 {
		return ErrNoData
	}
	return saveGrid(dir, name, vg.Length(len(panels))*11*vg.Centimeter, 10*vg.Centimeter, 1, len(panels), [][]*plot.Plot{panels})
}

// RuntimeReal draws training time against subsample size on real data sets
// (studies "real/<dataset>"), one log-log panel per data set (three per
// row), with a mean line and min-max band per method and the fitted
// exponent in each panel's legend. Data sets are not pooled: their widths
// and sizes differ, and pooling would mix them differently at every size.
func RuntimeReal(dir, name string, rows []runtimecsv.Row, pres results.Presentation) error {
	names, byData, real := realStudies(rows)
	if len(names) == 0 {
		return ErrNoData
	}
	colors := runtimeStyles(real, pres)
	cols := 3
	if len(names) < cols {
		cols = len(names)
	}
	nrows := (len(names) + cols - 1) / cols
	var panels []*plot.Plot
	var legends []*plot.Legend
	for _, d := range names {
		ss, err := ScalingSeriesOf(byData[d], func(r runtimecsv.Row) int { return r.NSamples })
		if err != nil {
			return err
		}
		p, err := scalingPanel(fmt.Sprintf("%s (%d features)", d, byData[d][0].NFeatures), "number of samples", ss, colors, false, pres)
		if err != nil {
			return err
		}
		// Each panel's legend goes in a strip under the panel, where it
		// cannot cover ticks or data.
		leg := p.Legend
		leg.Top, leg.Left = true, true
		legends = append(legends, &leg)
		p.Legend = plot.NewLegend()
		panels = append(panels, p)
	}
	strip := vg.Length(len(colors))*3.6*vg.Millimeter + 2*vg.Millimeter
	return save(dir, name, vg.Length(cols)*10*vg.Centimeter, vg.Length(nrows)*9*vg.Centimeter+vg.Length(nrows)*strip, func(c draw.Canvas) error {
		drawStripedPanels(c, panels, legends, nrows, cols, strip)
		return nil
	})
}

// realStudies groups the rows of the real-data studies by data set, in
// the order of the rows; real holds them all.
func realStudies(rows []runtimecsv.Row) (names []string, byData map[string][]runtimecsv.Row, real []runtimecsv.Row) {
	byData = map[string][]runtimecsv.Row{}
	for _, r := range rows {
		if !strings.HasPrefix(r.Study, runtimecsv.RealPrefix) {
			continue
		}
		d := strings.TrimPrefix(r.Study, runtimecsv.RealPrefix)
		if _, ok := byData[d]; !ok {
			names = append(names, d)
		}
		byData[d] = append(byData[d], r)
		real = append(real, r)
	}
	return names, byData, real
}

// drawStripedPanels draws the panels in a grid, each with its legend in a
// strip of height strip beneath it.
func drawStripedPanels(c draw.Canvas, panels []*plot.Plot, legends []*plot.Legend, nrows, cols int, strip vg.Length) {
	t := draw.Tiles{Rows: nrows, Cols: cols, PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 4,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 3}
	for i, p := range panels {
		tile := t.At(c, i%cols, i/cols)
		legArea := tile
		legArea.Max.Y = tile.Min.Y + strip
		legArea.Min.X += vg.Millimeter * 10
		tile.Min.Y += strip
		p.Draw(tile)
		legends[i].Draw(legArea)
	}
}

// logTicks125 labels a log axis at 1, 2 and 5 times powers of ten when it
// spans less than three decades (plain LogTicks would leave a narrow axis
// with one label), and at powers of ten otherwise.
type logTicks125 struct{}

func (logTicks125) Ticks(min, max float64) []plot.Tick {
	if !(min > 0) || !(max > min) {
		return plot.LogTicks{Prec: -1}.Ticks(min, max)
	}
	lo, hi := math.Floor(math.Log10(min)), math.Ceil(math.Log10(max))
	mults := []float64{1, 2, 5}
	if hi-lo > 3 {
		mults = []float64{1}
	}
	var ticks []plot.Tick
	for e := lo; e <= hi; e++ {
		for m := 1.0; m < 10; m++ {
			v := m * math.Pow(10, e)
			if v < min*(1-1e-9) || v > max*(1+1e-9) {
				continue
			}
			label := ""
			for _, k := range mults {
				if m == k {
					label = strconv.FormatFloat(v, 'g', -1, 64)
				}
			}
			ticks = append(ticks, plot.Tick{Value: v, Label: label})
		}
	}
	return ticks
}
