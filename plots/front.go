package plots

import (
	"image/color"
	"math"
	"strconv"
	"strings"

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

// minFrontSize is where a rulebase smaller than one condition is drawn on
// the log axis (a model without rules has size 0).
const minFrontSize = 1

// frontMethods lists the methods of the panels, sorted, for colours.
func frontMethods(panels []analysis.FrontPanel, pres results.Presentation) []string {
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
		"Each method has its own colour and marker, the same in every figure. The Pareto-optimal points (no other point is as small and at least as accurate) are ringed in black, joined by the black line and numbered; the key beneath each panel names each number's method (and, for a sweep point, the parameters its method's sweep varies, keys shortened to their initials), whole; optimal points at the same place share a number. " +
		"Under the paper protocol the reported configuration of a test-selected grid is chosen per fold on the test fold, an optimistic estimate."
}

// FrontFigure draws the panels in a grid (three per row) with one legend;
// beneath each panel, the key of its numbered Pareto points.
func FrontFigure(dir, name, title string, panels []analysis.FrontPanel, pres results.Presentation) error {
	if len(panels) == 0 {
		return ErrNoData
	}
	methods := frontMethods(panels, pres)
	styles := methodStyles(pres, methods)
	cols := gridCols(len(panels))
	ps, keys, keyLines, err := frontPanelPlots(panels, styles, cols, pres)
	if err != nil {
		return err
	}
	grid := wrapGrid(ps, cols)
	rows := len(grid)
	legend := frontLegend(methods, styles, pres)
	lw := legendColumnWidth(legend)
	// Every row holds the longest key of the figure, so that the panels'
	// axes stay aligned across rows.
	keyH := vg.Length(keyLines)*keyStep + vg.Millimeter*2
	if keyLines == 0 {
		keyH = 0
	}
	w := vg.Length(cols)*panelWidth + lw
	h := vg.Length(rows)*(7*vg.Centimeter+keyH) + vg.Centimeter
	return save(dir, name, w, h, func(c draw.Canvas) error {
		area := drawTitle(c, title)
		leg := area
		leg.Min.X = area.Max.X - lw
		drawLegendColumn(leg, legend)
		area.Max.X -= lw
		drawKeyedGrid(area, grid, keys, keyH)
		return nil
	})
}

// frontPanelPlots draws each panel's plot (axis labels on the outer ones
// only) and wraps its key; keyLines is the longest key's number of lines.
func frontPanelPlots(panels []analysis.FrontPanel, styles map[string]MethodStyle, cols int, pres results.Presentation) (ps []*plot.Plot, keys [][]keyLine, keyLines int, err error) {
	keys = make([][]keyLine, len(panels))
	for i, pn := range panels {
		entries := frontKey(pn, pres)
		p, err := frontPlot(pn, entries, styles, i%cols == 0, i+cols >= len(panels))
		if err != nil {
			return nil, nil, 0, err
		}
		ps = append(ps, p)
		keys[i] = wrapKey(entries, keyWidth)
		keyLines = max(keyLines, keyRows(keys[i]))
	}
	return ps, keys, keyLines, nil
}

// frontLegend names each method's colour and marker, then the marks of
// the figure (filled, hollow, the front) in black: grey is a method's
// colour.
func frontLegend(methods []string, styles map[string]MethodStyle, pres results.Presentation) []legendEntry {
	var legend []legendEntry
	for _, m := range methods {
		legend = append(legend, legendEntry{Name: pres.DisplayName(m), Color: styles[m].Color, Glyph: styles[m].Marker})
	}
	return append(legend,
		legendEntry{Name: "reported configuration (filled)", Color: color.Black, Glyph: draw.CircleGlyph{}},
		legendEntry{Name: "sweep point (hollow)", Color: color.Black, Glyph: draw.RingGlyph{}},
		legendEntry{Name: "Pareto front (ringed, joined, numbered)", Color: color.Black, Width: vg.Points(1.2)})
}

// drawKeyedGrid draws the panels in area, each with its key in a strip of
// height keyH beneath it.
func drawKeyedGrid(area draw.Canvas, grid [][]*plot.Plot, keys [][]keyLine, keyH vg.Length) {
	t := draw.Tiles{Rows: len(grid), Cols: len(grid[0]), PadX: vg.Millimeter * 5, PadY: vg.Millimeter * 5,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 3}
	cs := plot.Align(grid, t, area)
	for i := range grid {
		for j, p := range grid[i] {
			if p == nil {
				continue
			}
			pc, kc := cs[i][j], cs[i][j]
			pc.Min.Y += keyH
			kc.Max.Y = kc.Min.Y + keyH
			p.Draw(pc)
			drawKey(kc, keys[i*t.Cols+j])
		}
	}
}

// panelWidth is the width of one front panel; keyStep the height of a
// line of its key, keyIndent where the key's names start after their
// numbers, keyColGap the space between its columns, keyWidth the width of
// its names' column when it has one, keyFontSize its size in points.
const (
	panelWidth  = 8 * vg.Centimeter
	keyStep     = vg.Millimeter * 3.1
	keyIndent   = vg.Millimeter * 5
	keyColGap   = vg.Millimeter * 3
	keyWidth    = panelWidth - keyIndent - vg.Millimeter*8
	keyFontSize = 7
)

// frontKeyEntry is one numbered place of a panel's Pareto front: the
// point (data units) and the names of the optimal points there.
type frontKeyEntry struct {
	N    int
	X, Y float64
	Text string
}

// frontKey numbers a panel's Pareto points in front order: each named by
// its method and, for a sweep point, the parameters its method's sweep
// varies, shortened; optimal points at one place (equal size and
// accuracy) share a number, their names joined.
func frontKey(pn analysis.FrontPanel, pres results.Presentation) []frontKeyEntry {
	cfgs := map[string][]string{}
	for _, q := range pn.Points {
		if q.Swept {
			cfgs[q.Method] = append(cfgs[q.Method], q.Config)
		}
	}
	name := func(q analysis.FrontPoint) string {
		text := pres.DisplayName(q.Method)
		if q.Swept {
			if c := shortConfig(q.Config, varyingKeys(cfgs[q.Method])); c != "" {
				text += " " + c
			}
		}
		return text
	}
	var out []frontKeyEntry
	front := pn.Pareto
	for i := 0; i < len(front); {
		q := pn.Points[front[i]]
		names := []string{name(q)}
		j := i + 1
		for j < len(front) && pn.Points[front[j]].Size == q.Size && pn.Points[front[j]].Accuracy == q.Accuracy {
			names = append(names, name(pn.Points[front[j]]))
			j++
		}
		out = append(out, frontKeyEntry{N: len(out) + 1, X: math.Max(q.Size, minFrontSize), Y: q.Accuracy, Text: strings.Join(names, "; ")})
		i = j
	}
	return out
}

// keyLine is one drawn line of a key: the number (on an entry's first
// line only) and text, at a row of a column.
type keyLine struct {
	Number, Text string
	Row, Col     int
}

// keyRows is the number of rows a key takes.
func keyRows(lines []keyLine) int {
	n := 0
	for _, l := range lines {
		n = max(n, l.Row+1)
	}
	return n
}

// maxKeyCols is the most columns a key is set in.
const maxKeyCols = 3

// wrapKey lays a key out in width: in as many columns (up to maxKeyCols)
// as its longest name allows, filled top-down, or in one column whose
// names break into lines no wider than width (at spaces; a word wider
// than the line is broken between letters): a name is never cut short.
func wrapKey(entries []frontKeyEntry, width vg.Length) []keyLine {
	f := fontOf(keyFontSize)
	face := plot.DefaultTextHandler.Cache().Lookup(f, f.Size)
	widest := vg.Length(0)
	for _, e := range entries {
		widest = max(widest, face.Width(e.Text))
	}
	cols := min(maxKeyCols, max(1, int((width+keyIndent)/(widest+keyIndent+keyColGap))))
	var out []keyLine
	if cols > 1 {
		rows := (len(entries) + cols - 1) / cols
		for i, e := range entries {
			out = append(out, keyLine{Number: strconv.Itoa(e.N), Text: e.Text, Row: i % rows, Col: i / rows})
		}
		return out
	}
	for _, e := range entries {
		num := strconv.Itoa(e.N)
		for _, line := range wrapText(e.Text, width, face.Width) {
			out = append(out, keyLine{Number: num, Text: line, Row: len(out)})
			num = ""
		}
	}
	return out
}

// wrapText breaks s into lines no wider than width as measured by
// widthOf, at spaces, and inside a word only where the word alone is
// wider than a line.
func wrapText(s string, width vg.Length, widthOf func(string) vg.Length) []string {
	var lines []string
	cur := ""
	for _, word := range strings.Fields(s) {
		switch {
		case cur == "":
		case widthOf(cur+" "+word) <= width:
			cur += " " + word
			continue
		default:
			lines = append(lines, cur)
		}
		cur = word
		for widthOf(cur) > width && len([]rune(cur)) > 1 {
			r := []rune(cur)
			k := len(r) - 1
			for k > 1 && widthOf(string(r[:k])) > width {
				k--
			}
			lines = append(lines, string(r[:k]))
			cur = string(r[k:])
		}
	}
	if cur != "" || len(lines) == 0 {
		lines = append(lines, cur)
	}
	return lines
}

// drawKey writes a panel's key top-down in c: in each column, numbers
// right-aligned, names beside them.
func drawKey(c draw.Canvas, lines []keyLine) {
	f := fontOf(keyFontSize)
	num := draw.TextStyle{Color: plotTextColor, Font: f, Handler: plot.DefaultTextHandler, XAlign: draw.XRight, YAlign: draw.YTop}
	text := num
	text.XAlign = draw.XLeft
	cols := 0
	for _, l := range lines {
		cols = max(cols, l.Col+1)
	}
	x0 := c.Min.X + vg.Millimeter*2
	colW := (c.Max.X - x0) / vg.Length(max(cols, 1))
	for _, l := range lines {
		y := c.Max.Y - vg.Millimeter - vg.Length(l.Row)*keyStep
		x := x0 + vg.Length(l.Col)*colW
		if l.Number != "" {
			c.FillText(num, vg.Point{X: x + keyIndent - vg.Millimeter*1.5, Y: y}, l.Number)
		}
		c.FillText(text, vg.Point{X: x + keyIndent, Y: y}, l.Text)
	}
}

// frontPlot draws one panel: its axes, every point, and the Pareto front
// ringed, joined and numbered.
func frontPlot(pn analysis.FrontPanel, key []frontKeyEntry, styles map[string]MethodStyle, yLabel, xLabel bool) (*plot.Plot, error) {
	p := newPlot(pn.Title, "", "")
	p.Title.TextStyle.Font.Size = vg.Points(10)
	if yLabel {
		p.Y.Label.Text = "test accuracy"
	}
	p.Add(plotter.NewGrid())
	pts := make([]analysis.FrontPoint, len(pn.Points))
	for i, q := range pn.Points {
		q.Size = math.Max(q.Size, minFrontSize)
		pts[i] = q
	}
	frontAxes(p, pts, xLabel)
	if err := frontPoints(p, pts, styles); err != nil {
		return nil, err
	}
	// The front is the analysis's: the figure draws the points it names.
	if len(pn.Pareto) >= 1 {
		if err := frontMarks(p, pn.Pareto, pts, key); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// frontAxes sets the size axis (logarithmic when the sizes span a decade)
// and the accuracy axis to hold every point.
func frontAxes(p *plot.Plot, pts []analysis.FrontPoint, xLabel bool) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, q := range pts {
		lo, hi = math.Min(lo, q.Size), math.Max(hi, q.Size)
	}
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
}

// frontPoints draws the points in their method's style: sweep points
// first (hollow, small), reported ones on top.
func frontPoints(p *plot.Plot, pts []analysis.FrontPoint, styles map[string]MethodStyle) error {
	for _, swept := range []bool{true, false} {
		for _, q := range pts {
			if q.Swept != swept {
				continue
			}
			s, err := plotter.NewScatter(plotter.XYs{{X: q.Size, Y: q.Accuracy}})
			if err != nil {
				return err
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
	return nil
}

// frontMarks joins the Pareto-optimal points (front, indices into pts) by
// a black line, rings each, and numbers each place of the key.
func frontMarks(p *plot.Plot, front []int, pts []analysis.FrontPoint, key []frontKeyEntry) error {
	xys := make(plotter.XYs, len(front))
	for i, k := range front {
		xys[i] = plotter.XY{X: pts[k].Size, Y: pts[k].Accuracy}
	}
	line, err := plotter.NewLine(xys)
	if err != nil {
		return err
	}
	line.Color, line.Width = color.Black, vg.Points(1.2)
	p.Add(line)
	// Ring each optimal point too: a front of one point draws no line.
	rings, err := plotter.NewScatter(xys)
	if err != nil {
		return err
	}
	rings.Shape, rings.Color, rings.Radius = draw.RingGlyph{}, color.Black, vg.Points(5.5)
	p.Add(rings)
	// Each optimal place numbered beside its point (frontKey): a number is
	// small enough to place clear of every other mark, and the key beneath
	// the panel names it whole.
	labels := labelPlotter{Size: keyFontSize}
	for _, e := range key {
		labels.Labels = append(labels.Labels, pointLabel{X: e.X, Y: e.Y, Text: strconv.Itoa(e.N), Color: color.Black})
	}
	labels.Line = labels.Labels
	for _, q := range pts {
		labels.Avoid = append(labels.Avoid, pointLabel{X: q.Size, Y: q.Accuracy})
	}
	p.Add(labels)
	return nil
}
