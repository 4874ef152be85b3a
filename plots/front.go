package plots

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/results"
)

// The accuracy–interpretability front: every method's reported
// configuration and every sweep point as (rulebase size, accuracy), per
// dataset and pooled, with the Pareto-optimal points joined.

// FrontPoint is one point of a front panel.
type FrontPoint = analysis.FrontPoint

// minFrontSize is where a rulebase smaller than one condition is drawn on
// the log axis (a model without rules has size 0).
const minFrontSize = 1

// FrontPanel is one dataset's (or the pooled) points.
type FrontPanel = analysis.FrontPanel

// frontMethods lists the methods of the panels, sorted, for colours.
func frontMethods(panels []FrontPanel, pres results.Presentation) []string {
	seen := map[string]bool{}
	var out []string
	for _, pn := range panels {
		for _, p := range pn.Points {
			if !seen[p.Method] {
				seen[p.Method] = true
				out = append(out, p.Method)
			}
		}
	}
	pres.Sort(out)
	return out
}

// FrontCaption describes the front figure of a protocol.
func FrontCaption(protocol string) string {
	return "Accuracy–interpretability front (" + protocol + " protocol): mean test accuracy against mean rulebase size " +
		"(conditions in the rulebase; log scale when the sizes span a decade) of every method's reported configuration (filled) and of every sweep point " +
		"(hollow), one panel per dataset and a pooled one (means over the datasets, for the points present on all of them). " +
		"Each method has its own colour and marker, the same in every figure. The Pareto-optimal points (no other point is as small and at least as accurate) are ringed in black, joined by the black line and labelled with the method (and, for a sweep point, the parameters its method's sweep varies, keys shortened to their initials; a (+N) counts further optimal points at the same place). " +
		"Under the paper protocol the reported configuration of a test-selected grid is chosen per fold on the test fold, an optimistic estimate."
}

// FrontFigure draws the panels in a grid (four per row) with one legend.
func FrontFigure(dir, name, title string, panels []FrontPanel, pres results.Presentation) error {
	if len(panels) == 0 {
		return ErrNoData
	}
	methods := frontMethods(panels, pres)
	styles := methodStyles(pres, methods)
	cols := gridCols(len(panels))
	var ps []*plot.Plot
	for i, pn := range panels {
		p, err := frontPlot(pn, styles, pres, i%cols == 0, i+cols >= len(panels))
		if err != nil {
			return err
		}
		ps = append(ps, p)
	}
	grid := wrapGrid(ps, cols)
	rows := len(grid)
	var legend []legendEntry
	for _, m := range methods {
		legend = append(legend, legendEntry{Name: pres.DisplayName(m), Color: styles[m].Color, Glyph: styles[m].Marker})
	}
	// The marker key in black: grey is a method's colour.
	grey := color.Black
	legend = append(legend,
		legendEntry{Name: "reported configuration (filled)", Color: grey, Glyph: draw.CircleGlyph{}},
		legendEntry{Name: "sweep point (hollow)", Color: grey, Glyph: draw.RingGlyph{}},
		legendEntry{Name: "Pareto front (ringed, joined, labelled)", Color: color.Black, Width: vg.Points(1.2)})
	lw := legendColumnWidth(legend)
	w := vg.Length(cols)*8*vg.Centimeter + lw
	h := vg.Length(rows)*7*vg.Centimeter + vg.Centimeter
	return save(dir, name, w, h, func(c draw.Canvas) error {
		area := drawTitle(c, title)
		leg := area
		leg.Min.X = area.Max.X - lw
		drawLegendColumn(leg, legend)
		area.Max.X -= lw
		drawGrid(area, grid, vg.Millimeter*5)
		return nil
	})
}

func frontPlot(pn FrontPanel, styles map[string]MethodStyle, pres results.Presentation, yLabel, xLabel bool) (*plot.Plot, error) {
	p := newPlot(pn.Title, "", "")
	p.Title.TextStyle.Font.Size = vg.Points(10)
	if yLabel {
		p.Y.Label.Text = "test accuracy"
	}
	p.Add(plotter.NewGrid())
	pts := make([]FrontPoint, len(pn.Points))
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, q := range pn.Points {
		q.Size = math.Max(q.Size, minFrontSize)
		pts[i] = q
		lo, hi = math.Min(lo, q.Size), math.Max(hi, q.Size)
	}
	// A log axis when the sizes span a decade, else a linear one.
	if spansDecadeRange(lo, hi) {
		setLogAxis(&p.X, lo, hi)
		if xLabel {
			p.X.Label.Text = "rulebase size (log scale)"
		}
	} else {
		if lo == hi {
			lo, hi = lo/2, hi*2
		}
		pad := (hi - lo) * 0.08
		p.X.Min, p.X.Max = math.Max(lo-pad, 0), hi+pad
		if xLabel {
			p.X.Label.Text = "rulebase size"
		}
	}
	ylo, yhi := math.Inf(1), math.Inf(-1)
	for _, q := range pts {
		ylo, yhi = math.Min(ylo, q.Accuracy), math.Max(yhi, q.Accuracy)
	}
	ypad := math.Max(yhi-ylo, 0.01) * 0.08
	p.Y.Min, p.Y.Max = ylo-ypad, yhi+ypad
	// Sweep points first (hollow, small), reported ones on top.
	for _, swept := range []bool{true, false} {
		for _, q := range pts {
			if q.Swept != swept {
				continue
			}
			s, err := plotter.NewScatter(plotter.XYs{{X: q.Size, Y: q.Accuracy}})
			if err != nil {
				return nil, err
			}
			st := styles[q.Method]
			s.Color = st.Color
			if swept {
				s.Shape, s.Radius = st.Hollow, vg.Points(2.6)
			} else {
				s.Shape, s.Radius = st.Marker, vg.Points(3.4)
			}
			p.Add(s)
		}
	}
	// The front is the analysis's: the figure draws the points it names.
	front := pn.Pareto
	if len(front) >= 1 {
		xys := make(plotter.XYs, len(front))
		for i, k := range front {
			xys[i] = plotter.XY{X: pts[k].Size, Y: pts[k].Accuracy}
		}
		line, err := plotter.NewLine(xys)
		if err != nil {
			return nil, err
		}
		line.Color, line.Width = color.Black, vg.Points(1.2)
		p.Add(line)
		// Ring each optimal point too: a front of one point draws no line.
		rings, err := plotter.NewScatter(xys)
		if err != nil {
			return nil, err
		}
		rings.Shape, rings.Color, rings.Radius = draw.RingGlyph{}, color.Black, vg.Points(5.5)
		p.Add(rings)
		// Each optimal point named directly: the method, and for a sweep
		// point the parameters its method's sweep varies, shortened.
		// Optimal points at one place (equal size and accuracy) get one
		// label that counts the others.
		cfgs := map[string][]string{}
		for _, q := range pts {
			if q.Swept {
				cfgs[q.Method] = append(cfgs[q.Method], q.Config)
			}
		}
		labels := labelPlotter{Size: 6.5}
		for i := 0; i < len(front); {
			k := front[i]
			j := i + 1
			for j < len(front) && pts[front[j]].Size == pts[k].Size && pts[front[j]].Accuracy == pts[k].Accuracy {
				j++
			}
			text := pres.DisplayName(pts[k].Method)
			if pts[k].Swept {
				if c := shortConfig(pts[k].Config, varyingKeys(cfgs[pts[k].Method])); c != "" {
					text += " " + c
				}
			}
			text = capLabel(text)
			if j-i > 1 {
				text += fmt.Sprintf(" (+%d)", j-i-1)
			}
			labels.Labels = append(labels.Labels, pointLabel{X: pts[k].Size, Y: pts[k].Accuracy, Text: text, Color: color.Black})
			i = j
		}
		labels.Line = labels.Labels
		for _, q := range pts {
			labels.Avoid = append(labels.Avoid, pointLabel{X: q.Size, Y: q.Accuracy})
		}
		p.Add(labels)
	}
	return p, nil
}
