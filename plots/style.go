package plots

import (
	"image/color"
	"sort"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/results"
	"github.com/fgrtbench/fgrtbench/results/runtimecsv"
)

// Method styles: every method of a study gets one (colour, marker, dash)
// triple, the same in every figure of a report. The style is a function of
// the method's slot in the study's method order (results.Presentation,
// from the manifest), never of which methods one figure draws: slot k has
// colour k mod 8 of the Okabe–Ito palette, marker shape k/8 (five shapes,
// each with a filled and a hollow form) and, beyond 40 methods, a dash
// pattern k/40. Sixteen methods therefore get sixteen distinct (colour,
// marker) pairs, and a reader matches a method across figures by both.

// MethodStyle is how one method is drawn.
type MethodStyle struct {
	Slot  int
	Color color.NRGBA
	// Marker is the filled glyph (a reported configuration, a line's
	// points); Hollow the same shape unfilled (sweep points).
	Marker, Hollow draw.GlyphDrawer
	// Dashes is the line's dash pattern (nil: solid).
	Dashes []vg.Length
}

// markerShapes are the filled and hollow glyph of each shape, in slot
// order.
var markerShapes = [][2]draw.GlyphDrawer{
	{draw.CircleGlyph{}, draw.RingGlyph{}},
	{draw.BoxGlyph{}, draw.SquareGlyph{}},
	{draw.PyramidGlyph{}, draw.TriangleGlyph{}},
	{diamondGlyph{filled: true}, diamondGlyph{}},
	{downTriangleGlyph{filled: true}, downTriangleGlyph{}},
}

// lineDashes extend the palette and markers beyond 40 methods.
var lineDashes = [][]vg.Length{nil, {vg.Points(5), vg.Points(2)}, {vg.Points(1.5), vg.Points(1.5)}, {vg.Points(6), vg.Points(2), vg.Points(1.5), vg.Points(2)}}

// styleOfSlot is the style of slot k.
func styleOfSlot(k int) MethodStyle {
	n := len(palette)
	shape := markerShapes[(k/n)%len(markerShapes)]
	return MethodStyle{Slot: k, Color: palette[k%n], Marker: shape[0], Hollow: shape[1],
		Dashes: lineDashes[(k/(n*len(markerShapes)))%len(lineDashes)]}
}

// preferredSlot is a label's place in the presentation's order: the full
// label when the order lists it (a variant such as "fgrt@ofat" may be
// listed beside its base), else its base's; ok is false for a label the
// order does not know.
func preferredSlot(pres results.Presentation, label string) (int, bool) {
	base, _ := results.SplitVariant(label)
	for _, key := range []string{label, base} {
		for i, o := range pres.Order {
			if o == key {
				return i, true
			}
		}
	}
	return 0, false
}

// methodStyles gives each label of one figure its style. A label the
// presentation orders keeps its slot; a label that would share a slot with
// another label of the figure (a variant beside its base, or a label the
// presentation does not know) takes the next free slot, in presentation
// order, so that no two methods of a figure look alike. With a complete
// presentation (see completePresentation) only the first case moves a
// label, and the styles agree across every figure.
func methodStyles(pres results.Presentation, labels []string) map[string]MethodStyle {
	ls := append([]string(nil), labels...)
	pres.Sort(ls)
	out := map[string]MethodStyle{}
	taken := map[int]bool{}
	var later []string
	// Labels in the order take their slots first, exact matches before
	// variants that fall back to their base, so that the base keeps its
	// style whatever else the figure draws.
	for pass := 0; pass < 2; pass++ {
		for _, l := range ls {
			if _, done := out[l]; done {
				continue
			}
			k, ok := preferredSlot(pres, l)
			exact := ok && pres.Order[k] == l
			if !ok || (pass == 0 && !exact) {
				continue
			}
			if !taken[k] {
				taken[k] = true
				out[l] = styleOfSlot(k)
			}
		}
	}
	for _, l := range ls {
		if _, done := out[l]; !done {
			later = append(later, l)
		}
	}
	next := len(pres.Order)
	for _, l := range later {
		k := next
		if pk, ok := preferredSlot(pres, l); ok {
			k = pk
		}
		for taken[k] {
			k++
		}
		taken[k] = true
		out[l] = styleOfSlot(k)
	}
	return out
}

// completePresentation appends to the presentation's order every label
// of the study it does not list yet (bases first, then variants, each
// sorted), so that every figure of one report draws a method alike
// whatever subset it shows.
func completePresentation(pres results.Presentation, labels []string) results.Presentation {
	known := map[string]bool{}
	for _, o := range pres.Order {
		known[o] = true
	}
	var bases, variants []string
	for _, l := range labels {
		if known[l] {
			continue
		}
		known[l] = true
		if b, v := results.SplitVariant(l); v == "" && b != "" {
			bases = append(bases, l)
		} else if v != "" {
			variants = append(variants, l)
		}
	}
	sort.Strings(bases)
	sort.Strings(variants)
	out := pres
	out.Order = append(append(append([]string(nil), pres.Order...), bases...), variants...)
	return out
}

// diamondGlyph is a square standing on a corner, filled or hollow.
type diamondGlyph struct{ filled bool }

func (g diamondGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius * 1.25
	pts := []vg.Point{{X: pt.X, Y: pt.Y + r}, {X: pt.X + r, Y: pt.Y}, {X: pt.X, Y: pt.Y - r}, {X: pt.X - r, Y: pt.Y}}
	outline(c, sty, pts, g.filled)
}

// downTriangleGlyph is a triangle pointing down, filled or hollow.
type downTriangleGlyph struct{ filled bool }

func (g downTriangleGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius * 1.15
	pts := []vg.Point{{X: pt.X - r, Y: pt.Y + r*0.6}, {X: pt.X + r, Y: pt.Y + r*0.6}, {X: pt.X, Y: pt.Y - r*1.1}}
	outline(c, sty, pts, g.filled)
}

func outline(c *draw.Canvas, sty draw.GlyphStyle, pts []vg.Point, filled bool) {
	if filled {
		c.FillPolygon(sty.Color, pts)
		return
	}
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(0.5)})
	var p vg.Path
	p.Move(pts[0])
	for _, q := range pts[1:] {
		p.Line(q)
	}
	p.Close()
	c.Stroke(p)
}

// studyLabels lists the method labels of a study's results and timings.
func studyLabels(a *analysis.Analysis, rt []runtimecsv.Row) []string {
	var out []string
	if a != nil {
		for _, m := range a.Methods {
			out = append(out, m.Label)
		}
	}
	for _, r := range rt {
		out = append(out, r.Method)
	}
	return out
}
