package plots

import (
	"fmt"
	"math"
	"sort"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/results"
)

// CDData is the input of a critical-difference diagram.
type CDData struct {
	Methods  []string
	AvgRanks []float64 // 1 = best
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
	return s
}

// CDFigure draws Demšar's critical-difference diagram: an axis of average
// ranks (1, the best, on the left), every method's name and rank joined to
// its position (better half on the left, the rest on the right), the CD
// interval above the axis, and thick bars joining methods whose ranks differ
// by less than CD.
func CDFigure(dir, name string, d CDData, pres results.Presentation) error {
	k := len(d.Methods)
	if k < 2 || len(d.AvgRanks) != k {
		if k < 2 {
			return ErrNoData
		}
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
	order := make([]int, k)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return d.AvgRanks[order[a]] < d.AvgRanks[order[b]] })
	sorted := make([]float64, k)
	for i, o := range order {
		sorted[i] = d.AvgRanks[o]
	}
	// The cliques are the analysis's (Tests.Cliques), drawn here as ranges
	// of the rank-sorted order.
	pos := make(map[string]int, k)
	for i, o := range order {
		pos[d.Methods[o]] = i
	}
	var cliques [][2]int
	for _, cl := range d.Cliques {
		lo, okLo := pos[cl[0]]
		hi, okHi := pos[cl[len(cl)-1]]
		if len(cl) < 2 || !okLo || !okHi || hi-lo != len(cl)-1 {
			return fmt.Errorf("plots: CD diagram: clique %v is not a run of the rank-sorted methods", cl)
		}
		cliques = append(cliques, [2]int{lo, hi})
	}
	nLeft := (k + 1) / 2
	rowsPerSide := nLeft
	row := 5 * vg.Millimeter
	height := 30*vg.Millimeter + vg.Length(len(cliques))*2.5*vg.Millimeter + vg.Length(rowsPerSide)*row + 2*vg.Millimeter
	text := func(size float64, xa draw.XAlignment, ya draw.YAlignment) draw.TextStyle {
		return draw.TextStyle{Color: plotTextColor, Font: fontOf(size), Handler: plot.DefaultTextHandler, XAlign: xa, YAlign: ya}
	}
	labelOf := func(o int) string {
		return fmt.Sprintf("%s (%.2f)", pres.DisplayName(d.Methods[o]), d.AvgRanks[o])
	}
	// Each side's margin holds its longest label (long display names such
	// as "C4.5 (entropy, paper)@text" were cut at the canvas edge); the
	// rank axis keeps 9 cm, and the figure widens rather than clip.
	marginL, marginR := 45*vg.Millimeter, 45*vg.Millimeter
	for i, o := range order {
		need := text(9, draw.XLeft, draw.YCenter).Width(labelOf(o)) + 8*vg.Millimeter
		if i < nLeft {
			marginL = max(marginL, need)
		} else {
			marginR = max(marginR, need)
		}
	}
	width := max(18*vg.Centimeter, marginL+marginR+9*vg.Centimeter)
	return save(dir, name, width, height, func(c draw.Canvas) error {
		thin := draw.LineStyle{Color: plotTextColor, Width: vg.Points(0.8)}
		x0, x1 := c.Min.X+marginL, c.Max.X-marginR
		xOf := func(rank float64) vg.Length {
			return x0 + (x1-x0)*vg.Length((rank-1)/float64(k-1))
		}
		top := c.Max.Y - 4*vg.Millimeter
		title := fmt.Sprintf("Nemenyi critical difference (alpha = %g, %d data sets, %d methods)", d.Alpha, d.NDatasets, k)
		if !math.IsNaN(d.FriedmanP) {
			if d.Test == "" {
				title += "; Friedman " + analysis.PText(d.FriedmanP) + " (chi-square)"
			} else {
				title += "; omnibus " + analysis.PText(d.FriedmanP) + ", " + d.Verdict
			}
		}
		c.FillText(text(10, draw.XCenter, draw.YTop), vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: top}, title)
		// CD interval.
		cdY := top - 10*vg.Millimeter
		cdEnd := math.Min(1+d.CD, float64(k))
		c.StrokeLine2(thin, xOf(1), cdY, xOf(cdEnd), cdY)
		c.StrokeLine2(thin, xOf(1), cdY-vg.Millimeter, xOf(1), cdY+vg.Millimeter)
		c.StrokeLine2(thin, xOf(cdEnd), cdY-vg.Millimeter, xOf(cdEnd), cdY+vg.Millimeter)
		c.FillText(text(8, draw.XCenter, draw.YBottom), vg.Point{X: (xOf(1) + xOf(cdEnd)) / 2, Y: cdY + 1.2*vg.Millimeter},
			"CD = "+strconv.FormatFloat(d.CD, 'f', 3, 64))
		// Rank axis with ticks at integers and half ranks.
		axisY := cdY - 10*vg.Millimeter
		c.StrokeLine2(thin, x0, axisY, x1, axisY)
		for r := 1.0; r <= float64(k)+1e-9; r += 0.5 {
			tick := vg.Millimeter
			if r == math.Trunc(r) {
				tick = 2 * vg.Millimeter
				c.FillText(text(8, draw.XCenter, draw.YBottom), vg.Point{X: xOf(r), Y: axisY + tick + 0.5*vg.Millimeter}, strconv.Itoa(int(r)))
			}
			c.StrokeLine2(thin, xOf(r), axisY, xOf(r), axisY+tick)
		}
		c.FillText(text(7, draw.XLeft, draw.YCenter), vg.Point{X: x1 + 3*vg.Millimeter, Y: axisY}, "average rank")
		c.FillText(text(7, draw.XRight, draw.YCenter), vg.Point{X: x0 - 3*vg.Millimeter, Y: axisY}, "best")
		// Cliques: thick bars under the axis, slightly widened so a clique
		// of tied methods still shows.
		bar := draw.LineStyle{Color: plotTextColor, Width: vg.Points(2.5)}
		y := axisY - 3*vg.Millimeter
		for _, cl := range cliques {
			c.StrokeLine2(bar, xOf(sorted[cl[0]])-vg.Millimeter, y, xOf(sorted[cl[1]])+vg.Millimeter, y)
			y -= 2.5 * vg.Millimeter
		}
		// Method labels: elbows from the axis to the left or right margin.
		y -= 3 * vg.Millimeter
		for i, o := range order {
			label := labelOf(o)
			x := xOf(d.AvgRanks[o])
			var ly vg.Length
			if i < nLeft {
				ly = y - vg.Length(i)*row
				c.StrokeLines(thin, []vg.Point{{X: x, Y: axisY}, {X: x, Y: ly}, {X: x0 - 5*vg.Millimeter, Y: ly}})
				c.FillText(text(9, draw.XRight, draw.YCenter), vg.Point{X: x0 - 6*vg.Millimeter, Y: ly}, label)
			} else {
				ly = y - vg.Length(k-1-i)*row
				c.StrokeLines(thin, []vg.Point{{X: x, Y: axisY}, {X: x, Y: ly}, {X: x1 + 5*vg.Millimeter, Y: ly}})
				c.FillText(text(9, draw.XLeft, draw.YCenter), vg.Point{X: x1 + 6*vg.Millimeter, Y: ly}, label)
			}
		}
		return nil
	})
}
