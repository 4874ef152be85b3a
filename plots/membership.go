package plots

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/fgrtbench/fgrtbench/fuzzy"
)

// MembershipData describes the fuzzy partitions of one numeric feature.
type MembershipData struct {
	Feature string
	// Terms names the sets (e.g. Low, Medium, High).
	Terms []string
	// Default and Optimised hold each term's trapezoid corners a <= b <= c
	// <= d; Optimised may be nil (one panel).
	Default, Optimised [][4]float64
	// DefaultTitle and OptimisedTitle caption the panels (defaults are
	// provided when empty).
	DefaultTitle, OptimisedTitle string
	// XLabel labels the value axis (default: the feature name).
	XLabel string
	// Values are the feature's values, drawn as a rug under the curves.
	Values []float64
	// Standardisation, when set, says that the corners and values are
	// standardised, z = (x - Mean) / Scale: the figure then draws them
	// back in the data's own units (x = z·Scale + Mean), which a reader
	// knows, unless ShowStandardised keeps them as given.
	Standardisation  *Standardisation
	ShowStandardised bool
	// StandardisedXLabel labels the value axis when standardised values
	// are drawn as given (default: XLabel).
	StandardisedXLabel string
}

// Standardisation is a feature's standard scaling.
type Standardisation struct {
	Mean, Scale float64
}

// inDrawnUnits returns d with the corners and values in the units the
// figure draws (see MembershipData.Standardisation).
func (d MembershipData) inDrawnUnits() (MembershipData, error) {
	st := d.Standardisation
	if st == nil {
		return d, nil
	}
	if d.ShowStandardised {
		if d.StandardisedXLabel != "" {
			d.XLabel = d.StandardisedXLabel
		}
		return d, nil
	}
	if !(st.Scale > 0) || math.IsInf(st.Scale, 0) || math.IsNaN(st.Mean) || math.IsInf(st.Mean, 0) {
		return d, fmt.Errorf("plots: membership: standardisation mean %v scale %v, want finite and a positive scale", st.Mean, st.Scale)
	}
	back := func(z float64) float64 { return z*st.Scale + st.Mean }
	conv := func(sets [][4]float64) [][4]float64 {
		if sets == nil {
			return nil
		}
		out := make([][4]float64, len(sets))
		for i, s := range sets {
			for k := range s {
				out[i][k] = back(s[k])
			}
		}
		return out
	}
	d.Default, d.Optimised = conv(d.Default), conv(d.Optimised)
	vals := make([]float64, len(d.Values))
	for i, v := range d.Values {
		vals[i] = back(v)
	}
	d.Values = vals
	return d, nil
}

// rugGlyph draws a short vertical tick, for rugs.
type rugGlyph struct{}

func (rugGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(0.6)})
	var p vg.Path
	p.Move(vg.Point{X: pt.X, Y: pt.Y - sty.Radius})
	p.Line(vg.Point{X: pt.X, Y: pt.Y + sty.Radius})
	c.Stroke(p)
}

func checkCorners(label string, terms []string, sets [][4]float64) error {
	if len(sets) != len(terms) {
		return fmt.Errorf("plots: membership: %d %s sets for %d terms", len(sets), label, len(terms))
	}
	for i, s := range sets {
		for k := 0; k < 4; k++ {
			if math.IsNaN(s[k]) || math.IsInf(s[k], 0) || (k > 0 && s[k] < s[k-1]) {
				return fmt.Errorf("plots: membership: %s set %s has corners %v, want finite a <= b <= c <= d", label, terms[i], s)
			}
		}
	}
	return nil
}

// membershipPanel draws the terms' membership functions as the learner
// evaluates them (fuzzy.Trapezoid, ex-fuzzy's rules: vertical outer
// shoulders are closed, so Low is 0 just below its a), sampled densely and
// at every corner, over [lo, hi], with the rug of values.
func membershipPanel(title, xlabel string, terms []string, sets [][4]float64, rug []float64, lo, hi float64) (*plot.Plot, error) {
	p := newPlot(title, xlabel, "membership")
	p.Title.TextStyle.Font.Size = vg.Points(10)
	p.Y.Min, p.Y.Max = -0.12, 1.45 // headroom above 1 for the legend
	p.X.Min, p.X.Max = lo, hi
	p.Y.Tick.Marker = plot.ConstantTicks([]plot.Tick{{Value: 0, Label: "0"}, {Value: 0.25}, {Value: 0.5, Label: "0.5"}, {Value: 0.75}, {Value: 1, Label: "1"}})
	p.Legend.Top, p.Legend.Left = true, false
	var xs []float64
	const samples = 400
	for i := 0; i <= samples; i++ {
		xs = append(xs, lo+(hi-lo)*float64(i)/samples)
	}
	for _, s := range sets {
		for _, v := range s {
			for _, x := range []float64{v - fuzzy.Eps, v, v + fuzzy.Eps} {
				if x >= lo && x <= hi {
					xs = append(xs, x)
				}
			}
		}
	}
	sort.Float64s(xs)
	for ti, s := range sets {
		tr := fuzzy.Trapezoid{A: s[0], B: s[1], C: s[2], D: s[3]}
		xys := make(plotter.XYs, len(xs))
		for i, x := range xs {
			xys[i] = plotter.XY{X: x, Y: tr.Membership(x)}
		}
		line, err := plotter.NewLine(xys)
		if err != nil {
			return nil, err
		}
		line.Color, line.Width = colorOf(ti), vg.Points(1.6)
		p.Add(line)
		p.Legend.Add(fmt.Sprintf("%s (%.4g, %.4g, %.4g, %.4g)", terms[ti], s[0], s[1], s[2], s[3]), line)
	}
	if len(rug) > 0 {
		xys := make(plotter.XYs, len(rug))
		for i, v := range rug {
			xys[i] = plotter.XY{X: v, Y: -0.06}
		}
		sc, err := plotter.NewScatter(xys)
		if err != nil {
			return nil, err
		}
		sc.Shape, sc.Radius, sc.Color = rugGlyph{}, vg.Points(4), withAlpha(colorOf(6), 160)
		p.Add(sc)
	}
	return p, nil
}

// MembershipFigure draws the membership functions of one feature: the
// default partition and, when given, the optimised one in a second panel on
// the same value axis, each with a rug of the feature's values; in the
// data's own units by default (see MembershipData.Standardisation).
func MembershipFigure(dir, name string, d MembershipData) error {
	if len(d.Terms) == 0 {
		return ErrNoData
	}
	d, err := d.inDrawnUnits()
	if err != nil {
		return err
	}
	if err := checkCorners("default", d.Terms, d.Default); err != nil {
		return err
	}
	if d.Optimised != nil {
		if err := checkCorners("optimised", d.Terms, d.Optimised); err != nil {
			return err
		}
	}
	rug, lo, hi := d.rugAndRange()
	xlabel, defTitle, optTitle := d.labels()
	var panels [][]*plot.Plot
	p, err := membershipPanel(defTitle, xlabel, d.Terms, d.Default, rug, lo, hi)
	if err != nil {
		return err
	}
	panels = append(panels, []*plot.Plot{p})
	if d.Optimised != nil {
		p, err := membershipPanel(optTitle, xlabel, d.Terms, d.Optimised, rug, lo, hi)
		if err != nil {
			return err
		}
		panels = append(panels, []*plot.Plot{p})
	}
	return saveGrid(dir, name, 16*vg.Centimeter, vg.Length(len(panels))*8*vg.Centimeter, len(panels), 1, panels)
}

// rugAndRange returns the distinct finite values for the rug, sorted, and
// the value axis's range: it covers them and every corner, padded.
func (d MembershipData) rugAndRange() (rug []float64, lo, hi float64) {
	seen := map[float64]bool{}
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range d.Values {
		if math.IsNaN(v) || math.IsInf(v, 0) || seen[v] {
			continue
		}
		seen[v] = true
		rug = append(rug, v)
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	sort.Float64s(rug)
	for _, sets := range [][][4]float64{d.Default, d.Optimised} {
		for _, s := range sets {
			lo, hi = math.Min(lo, s[0]), math.Max(hi, s[3])
		}
	}
	pad := (hi - lo) * 0.04
	if pad == 0 {
		pad = 1
	}
	return rug, lo - pad, hi + pad
}

// labels are the value axis's label and the two panels' titles, the
// feature's name where none is given.
func (d MembershipData) labels() (xlabel, defTitle, optTitle string) {
	xlabel, defTitle, optTitle = d.XLabel, d.DefaultTitle, d.OptimisedTitle
	if xlabel == "" {
		xlabel = d.Feature
	}
	if defTitle == "" {
		defTitle = d.Feature + ": default partition"
	}
	if optTitle == "" {
		optTitle = d.Feature + ": optimised partition"
	}
	return xlabel, defTitle, optTitle
}
