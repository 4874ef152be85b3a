package plots

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/results"
)

// CDData is the input of a critical-difference diagram.
type CDData struct {
	Methods []string
	// Names, when set, names a ranked entry otherwise than its display
	// name: an entry that stands for several labels with identical
	// results (analysis.Tests.EntryName).
	Names map[string]string
	// Baselines are the display names of the methods left out of the
	// ranking as reference points (analysis.Tests.Baselines), which the
	// caption names.
	Baselines []string
	// References are baselines drawn as dashed reference lines at their
	// mean rank among the ranked methods (analysis.Tests.BaselineRanks,
	// up to k + 1, where the axis then ends).
	References []CDReference
	AvgRanks   []float64 // 1 = best
	// CD is the Nemenyi critical difference at Alpha over NDatasets;
	// Cliques the groups of methods the Nemenyi test cannot tell apart
	// (analysis.NemenyiCliques: labels in rank order), drawn as bars.
	CD        float64
	Cliques   [][]string
	Alpha     float64
	NDatasets int
	// FriedmanP is the omnibus test's p-value (shown in the title when
	// positive or zero; NaN hides it). From an analysis (CDDataOf) it is
	// the p-value of the test that decided, Test names that test and
	// Verdict says "significant" or "not significant"; Exploratory marks
	// the Nemenyi comparisons as exploratory (the omnibus test not
	// significant). Test "" means FriedmanP is the χ² approximation's.
	FriedmanP   float64
	Test        string
	Verdict     string
	Exploratory bool
}

// CDReference is a baseline's reference line: its display name and mean
// rank among the ranked methods.
type CDReference struct {
	Name string
	Rank float64
}

// omnibusText states the omnibus test as the title and caption print it,
// with the p-value written as REPORT.md writes it ("" when FriedmanP is NaN).
func (d CDData) omnibusText() string {
	if math.IsNaN(d.FriedmanP) {
		return ""
	}
	if d.Test == "" {
		return "Friedman " + analysis.PText(d.FriedmanP) + " (chi-square, tie-corrected)"
	}
	return d.Test + ", " + analysis.PText(d.FriedmanP) + ": " + d.Verdict + " at alpha = 0.05"
}

// CDCaption is the caption of a protocol's critical-difference diagram: the
// ranks it shows, the CD, and the omnibus verdict with the same test and
// p-value as REPORT.md's significance line.
func CDCaption(protocol string, d CDData) string {
	s := fmt.Sprintf("Critical-difference diagram (%s protocol): average ranks of the methods' mean accuracy over %d data sets "+
		"(1 = best), for exactly the %d methods of the ranks table; methods joined by a bar are not significantly different by the Nemenyi test at alpha = 0.05 "+
		"(CD = %.3f).", protocol, d.NDatasets, len(d.Methods), d.CD)
	if o := d.omnibusText(); o != "" {
		s += " Omnibus test: " + o + "."
	}
	if d.Exploratory {
		s += " The omnibus test is not significant, so the Nemenyi comparisons are exploratory."
	}
	if len(d.Baselines) > 0 {
		s += " Not ranked, being baselines: " + strings.Join(d.Baselines, ", ") + "."
	}
	if len(d.References) > 0 {
		s += " A dashed line marks where a baseline would stand if each data set ranked it with the methods (theirs then unchanged)."
	}
	return s
}

// CDFigure draws Demšar's critical-difference diagram: an axis of average
// ranks (1, the best, on the left), every method's name and rank joined to
// its position (better half on the left, the rest on the right), the CD
// interval above the axis, and thick bars joining methods whose ranks differ
// by less than CD.
func CDFigure(dir, name string, d CDData, pres results.Presentation) error {
	if err := checkCD(d); err != nil {
		return err
	}
	l, err := newCDLayout(d, pres)
	if err != nil {
		return err
	}
	row := 5 * vg.Millimeter
	height := 30*vg.Millimeter + vg.Length(len(l.cliques))*2.5*vg.Millimeter + vg.Length(l.nLeft)*row + 2*vg.Millimeter
	if len(d.References) > 0 {
		height += vg.Length(len(d.References)) * row
	}
	width := max(18*vg.Centimeter, l.marginL+l.marginR+9*vg.Centimeter)
	return save(dir, name, width, height, func(c draw.Canvas) error {
		cc := cdCanvas{cdLayout: l, c: c, x0: c.Min.X + l.marginL, x1: c.Max.X - l.marginR, row: row}
		top := c.Max.Y - 4*vg.Millimeter
		c.FillText(cdText(10, draw.XCenter, draw.YTop), vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: top}, cdTitle(d))
		cdY := top - 10*vg.Millimeter
		cc.interval(cdY)
		axisY := cdY - 10*vg.Millimeter
		cc.axis(axisY)
		y := cc.cliqueBars(axisY - 3*vg.Millimeter)
		cc.labels(axisY, y-3*vg.Millimeter)
		cc.references(axisY, y-3*vg.Millimeter-vg.Length(l.nLeft)*row)
		return nil
	})
}

// checkCD refuses data the diagram cannot show: fewer than two methods
// (ErrNoData), a rank per method missing or outside [1, k], a CD that is
// not positive.
func checkCD(d CDData) error {
	k := len(d.Methods)
	if k < 2 {
		return ErrNoData
	}
	if len(d.AvgRanks) != k {
		return fmt.Errorf("plots: CD diagram: %d methods but %d ranks", k, len(d.AvgRanks))
	}
	for i, r := range d.AvgRanks {
		if !(r >= 1 && r <= float64(k)) {
			return fmt.Errorf("plots: CD diagram: rank %v of %s is outside [1, %d]", r, d.Methods[i], k)
		}
	}
	if !(d.CD > 0) {
		return fmt.Errorf("plots: CD diagram: critical difference %v is not positive", d.CD)
	}
	for _, r := range d.References {
		if !(r.Rank >= 1 && r.Rank <= float64(k+1)) {
			return fmt.Errorf("plots: CD diagram: reference rank %v of %s is outside [1, %d]", r.Rank, r.Name, k+1)
		}
	}
	return nil
}

// cdLayout is the diagram's arrangement: the methods in rank order, the
// better half labelled on the left, the cliques as ranges of that order,
// and the side margins that hold the labels.
type cdLayout struct {
	d     CDData
	pres  results.Presentation
	k     int
	order []int // indices of d.Methods, best average rank first
	// sorted are the average ranks in that order; cliques the analysis's
	// cliques as [first, last] positions in it.
	sorted  []float64
	cliques [][2]int
	// span is the axis' last rank: k, or k + 1 when a reference line
	// stands beyond k.
	span             int
	nLeft            int
	marginL, marginR vg.Length
}

func newCDLayout(d CDData, pres results.Presentation) (*cdLayout, error) {
	k := len(d.Methods)
	l := &cdLayout{d: d, pres: pres, k: k, span: k, order: make([]int, k), sorted: make([]float64, k), nLeft: (k + 1) / 2}
	for _, r := range d.References {
		if r.Rank > float64(k) {
			l.span = k + 1
		}
	}
	for i := range l.order {
		l.order[i] = i
	}
	sort.SliceStable(l.order, func(a, b int) bool { return d.AvgRanks[l.order[a]] < d.AvgRanks[l.order[b]] })
	for i, o := range l.order {
		l.sorted[i] = d.AvgRanks[o]
	}
	var err error
	if l.cliques, err = l.cliqueRanges(); err != nil {
		return nil, err
	}
	// Each side's margin holds its longest label (long display names such
	// as "C4.5 (entropy, paper)@text" were cut at the canvas edge); the
	// rank axis keeps 9 cm, and the figure widens rather than clip.
	l.marginL, l.marginR = 45*vg.Millimeter, 45*vg.Millimeter
	for i, o := range l.order {
		need := cdText(9, draw.XLeft, draw.YCenter).Width(l.labelOf(o)) + 8*vg.Millimeter
		if i < l.nLeft {
			l.marginL = max(l.marginL, need)
		} else {
			l.marginR = max(l.marginR, need)
		}
	}
	return l, nil
}

// cliqueRanges turns the analysis's cliques (Tests.Cliques) into ranges of
// the rank-sorted order; a clique that is not a run of it is an error.
func (l *cdLayout) cliqueRanges() ([][2]int, error) {
	pos := make(map[string]int, l.k)
	for i, o := range l.order {
		pos[l.d.Methods[o]] = i
	}
	var out [][2]int
	for _, cl := range l.d.Cliques {
		lo, okLo := pos[cl[0]]
		hi, okHi := pos[cl[len(cl)-1]]
		if len(cl) < 2 || !okLo || !okHi || hi-lo != len(cl)-1 {
			return nil, fmt.Errorf("plots: CD diagram: clique %v is not a run of the rank-sorted methods", cl)
		}
		out = append(out, [2]int{lo, hi})
	}
	return out, nil
}

// labelOf is a method's label: its name and average rank.
func (l *cdLayout) labelOf(o int) string {
	name := l.pres.DisplayName(l.d.Methods[o])
	if n, ok := l.d.Names[l.d.Methods[o]]; ok {
		name = n
	}
	return fmt.Sprintf("%s (%.2f)", name, l.d.AvgRanks[o])
}

// cdTitle names the test, the data and, when known, the omnibus p-value.
func cdTitle(d CDData) string {
	title := fmt.Sprintf("Nemenyi critical difference (alpha = %g, %d data sets, %d methods)", d.Alpha, d.NDatasets, len(d.Methods))
	if !math.IsNaN(d.FriedmanP) {
		if d.Test == "" {
			title += "; Friedman " + analysis.PText(d.FriedmanP) + " (chi-square)"
		} else {
			title += "; omnibus " + analysis.PText(d.FriedmanP) + ", " + d.Verdict
		}
	}
	return title
}

// cdText is the diagram's text style at a size and alignment.
func cdText(size float64, xa draw.XAlignment, ya draw.YAlignment) draw.TextStyle {
	return draw.TextStyle{Color: plotTextColor, Font: fontOf(size), Handler: plot.DefaultTextHandler, XAlign: xa, YAlign: ya}
}

// cdThin is the style of the diagram's axis, ticks and label elbows.
var cdThin = draw.LineStyle{Color: plotTextColor, Width: vg.Points(0.8)}

// cdCanvas draws a layout on a canvas whose rank axis runs from x0 (rank
// 1) to x1 (rank k); labels stand row apart.
type cdCanvas struct {
	*cdLayout
	c           draw.Canvas
	x0, x1, row vg.Length
}

func (cc cdCanvas) xOf(rank float64) vg.Length {
	return cc.x0 + (cc.x1-cc.x0)*vg.Length((rank-1)/float64(cc.span-1))
}

// interval draws the CD as an interval from rank 1 at height y.
func (cc cdCanvas) interval(y vg.Length) {
	c := cc.c
	cdEnd := math.Min(1+cc.d.CD, float64(cc.span))
	c.StrokeLine2(cdThin, cc.xOf(1), y, cc.xOf(cdEnd), y)
	c.StrokeLine2(cdThin, cc.xOf(1), y-vg.Millimeter, cc.xOf(1), y+vg.Millimeter)
	c.StrokeLine2(cdThin, cc.xOf(cdEnd), y-vg.Millimeter, cc.xOf(cdEnd), y+vg.Millimeter)
	c.FillText(cdText(8, draw.XCenter, draw.YBottom), vg.Point{X: (cc.xOf(1) + cc.xOf(cdEnd)) / 2, Y: y + 1.2*vg.Millimeter},
		"CD = "+strconv.FormatFloat(cc.d.CD, 'f', 3, 64))
}

// axis draws the rank axis at height y, ticks at integers and half ranks.
func (cc cdCanvas) axis(y vg.Length) {
	c := cc.c
	c.StrokeLine2(cdThin, cc.x0, y, cc.x1, y)
	for r := 1.0; r <= float64(cc.span)+1e-9; r += 0.5 {
		tick := vg.Millimeter
		if r == math.Trunc(r) {
			tick = 2 * vg.Millimeter
			c.FillText(cdText(8, draw.XCenter, draw.YBottom), vg.Point{X: cc.xOf(r), Y: y + tick + 0.5*vg.Millimeter}, strconv.Itoa(int(r)))
		}
		c.StrokeLine2(cdThin, cc.xOf(r), y, cc.xOf(r), y+tick)
	}
	c.FillText(cdText(7, draw.XLeft, draw.YCenter), vg.Point{X: cc.x1 + 3*vg.Millimeter, Y: y}, "average rank")
	c.FillText(cdText(7, draw.XRight, draw.YCenter), vg.Point{X: cc.x0 - 3*vg.Millimeter, Y: y}, "best")
}

// cliqueBars draws the cliques as thick bars from height y down, slightly
// widened so a clique of tied methods still shows; it returns the height
// below the last bar.
func (cc cdCanvas) cliqueBars(y vg.Length) vg.Length {
	bar := draw.LineStyle{Color: plotTextColor, Width: vg.Points(2.5)}
	for _, cl := range cc.cliques {
		cc.c.StrokeLine2(bar, cc.xOf(cc.sorted[cl[0]])-vg.Millimeter, y, cc.xOf(cc.sorted[cl[1]])+vg.Millimeter, y)
		y -= 2.5 * vg.Millimeter
	}
	return y
}

// labels joins each method's place on the axis (at axisY) by an elbow to
// its label in the left or right margin, rows from height y down.
func (cc cdCanvas) labels(axisY, y vg.Length) {
	c := cc.c
	for i, o := range cc.order {
		label := cc.labelOf(o)
		x := cc.xOf(cc.d.AvgRanks[o])
		if i < cc.nLeft {
			ly := y - vg.Length(i)*cc.row
			c.StrokeLines(cdThin, []vg.Point{{X: x, Y: axisY}, {X: x, Y: ly}, {X: cc.x0 - 5*vg.Millimeter, Y: ly}})
			c.FillText(cdText(9, draw.XRight, draw.YCenter), vg.Point{X: cc.x0 - 6*vg.Millimeter, Y: ly}, label)
			continue
		}
		ly := y - vg.Length(cc.k-1-i)*cc.row
		c.StrokeLines(cdThin, []vg.Point{{X: x, Y: axisY}, {X: x, Y: ly}, {X: cc.x1 + 5*vg.Millimeter, Y: ly}})
		c.FillText(cdText(9, draw.XLeft, draw.YCenter), vg.Point{X: cc.x1 + 6*vg.Millimeter, Y: ly}, label)
	}
}

// references draws each baseline's reference line: dashed, from the axis
// (at axisY) down to its label, rows from height y down, beside the line.
func (cc cdCanvas) references(axisY, y vg.Length) {
	dash := draw.LineStyle{Color: plotTextColor, Width: vg.Points(0.8), Dashes: []vg.Length{vg.Points(3), vg.Points(2)}}
	for i, r := range cc.d.References {
		x, ly := cc.xOf(r.Rank), y-vg.Length(i)*cc.row
		cc.c.StrokeLine2(dash, x, axisY, x, ly)
		cc.c.FillText(cdText(9, draw.XRight, draw.YCenter), vg.Point{X: x - 1.5*vg.Millimeter, Y: ly},
			fmt.Sprintf("%s (%.2f): baseline, not ranked", r.Name, r.Rank))
	}
}
