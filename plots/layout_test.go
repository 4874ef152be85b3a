package plots

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/analysis"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/fgrtbench/fgrtbench/results"
)

func TestWrapPanelRowsAtMostThreeColumns(t *testing.T) {
	mk := func(n int, tag string) []*panel {
		var out []*panel
		for i := 0; i < n; i++ {
			out = append(out, &panel{Title: tag + string(rune('0'+i))})
		}
		return out
	}
	tests := []struct {
		name  string
		rows  [][]*panel
		want  [][]string
		wantN int
	}{
		{"three stay", [][]*panel{mk(3, "a")}, [][]string{{"a0", "a1", "a2"}}, 1},
		{"five in two rows", [][]*panel{mk(5, "a"), mk(5, "s")},
			[][]string{{"a0", "a1", "a2"}, {"s0", "s1", "s2"}, {"a3", "a4"}, {"s3", "s4"}}, 4},
		{"seven in one row", [][]*panel{mk(7, "a")}, [][]string{{"a0", "a1", "a2"}, {"a3", "a4", "a5"}, {"a6"}}, 3},
	}
	for _, tc := range tests {
		got := wrapPanelRows(tc.rows)
		if len(got) != tc.wantN {
			t.Fatalf("%s: %d rows, want %d", tc.name, len(got), tc.wantN)
		}
		for i, r := range got {
			if len(r) > maxGridCols {
				t.Errorf("%s: row %d has %d panels", tc.name, i, len(r))
			}
			var titles []string
			for _, p := range r {
				titles = append(titles, p.Title)
			}
			if strings.Join(titles, ",") != strings.Join(tc.want[i], ",") {
				t.Errorf("%s: row %d = %v, want %v", tc.name, i, titles, tc.want[i])
			}
		}
	}
	for n := 1; n <= 13; n++ {
		if c := gridCols(n); c < 1 || c > maxGridCols || c > n {
			t.Errorf("gridCols(%d) = %d", n, c)
		}
	}
}

func TestLogAxisWhenSpanningADecade(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		want   bool
	}{{1, 10, true}, {0.001, 5, true}, {1, 9.99, false}, {0, 100, false}, {-1, 100, false}, {5, 5, false}} {
		if got := spansDecadeRange(tc.lo, tc.hi); got != tc.want {
			t.Errorf("spansDecadeRange(%v, %v) = %v, want %v", tc.lo, tc.hi, got, tc.want)
		}
	}
	// The front's size axis follows the rule.
	for _, tc := range []struct {
		sizes []float64
		log   bool
	}{{[]float64{3, 12, 40}, true}, {[]float64{5, 12, 40}, false}} {
		var pn analysis.FrontPanel
		for i, s := range tc.sizes {
			pn.Points = append(pn.Points, analysis.FrontPoint{Method: "m", Size: s, Accuracy: 0.5 + 0.1*float64(i)})
		}
		p, err := frontPlot(pn, frontKey(pn, paperMethods), methodStyles(paperMethods, []string{"m"}), true, true)
		if err != nil {
			t.Fatal(err)
		}
		if _, isLog := p.X.Scale.(plot.LogScale); isLog != tc.log {
			t.Errorf("front sizes %v: log axis %v, want %v", tc.sizes, isLog, tc.log)
		}
	}
	// A panel grid puts a row whose values span a decade on a log axis
	// (and says so in the axis label), and leaves a narrower one linear.
	for _, tc := range []struct {
		ys  []float64
		log bool
	}{{[]float64{2, 30, 80}, true}, {[]float64{20, 30, 80}, false}} {
		f := panelFigure{Width: 12 * 28.35, Height: 10 * 28.35, Panels: [][]*panel{{{
			YLabel: "rulebase size", Axis: newParamAxis([]string{"1", "2", "3"}, false),
			Series: []panelSeries{{Name: "d", Color: colorOf(0), Width: 1, X: []float64{1, 2, 3}, Y: tc.ys}},
		}}}}
		dir := t.TempDir()
		if err := f.save(dir, "p"); err != nil {
			t.Fatal(err)
		}
		svg, err := os.ReadFile(filepath.Join(dir, "p.svg"))
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(svg), "rulebase size (log scale)"); got != tc.log {
			t.Errorf("values %v: log axis %v, want %v", tc.ys, got, tc.log)
		}
	}
}

func TestHeatmapHasColourBars(t *testing.T) {
	_, s := sweepOf(t, sweepGridRecords(twoParams))
	dir := t.TempDir()
	if err := SweepFigure(dir, "h", s, paperMethods); err != nil {
		t.Fatal(err)
	}
	svg, err := os.ReadFile(filepath.Join(dir, "h.svg"))
	if err != nil {
		t.Fatal(err)
	}
	// One bar per panel: three datasets and their mean. A bar is an
	// embedded image with its axis label.
	panels := len(s.Datasets) + 1
	if n := strings.Count(string(svg), ">"+heatBarLabel+"<"); n != panels {
		t.Errorf("%d colour bar labels, want %d", n, panels)
	}
	if n := strings.Count(string(svg), "<image"); n != panels {
		t.Errorf("%d colour bar images, want %d", n, panels)
	}
}

func TestShortConfig(t *testing.T) {
	for _, tc := range []struct {
		cfg  string
		keep map[string]bool
		want string
	}{
		{"", nil, ""},
		{"max_rules=15", nil, "mr=15"},
		{"max_rules=15;coverage_threshold=0.01", nil, "mr=15 ct=0.01"},
		{"partition=quantile;x", nil, "p=quantile x"},
		{"max_rules=15;coverage_threshold=0.01", map[string]bool{"max_rules": true}, "mr=15"},
		// Two kept keys with the same initials keep their names.
		{"fix_q1=true;fix_q2=false;fuzzy_quirk=true", map[string]bool{"fix_q1": true, "fuzzy_quirk": true}, "fix_q1=true fuzzy_quirk=true"},
	} {
		if got := shortConfig(tc.cfg, tc.keep); got != tc.want {
			t.Errorf("shortConfig(%q, %v) = %q, want %q", tc.cfg, tc.keep, got, tc.want)
		}
	}
	got := varyingKeys([]string{"a=1;b=2;c=3", "a=1;b=5;c=3", "a=1;b=2;c=4"})
	if !reflect.DeepEqual(got, map[string]bool{"b": true, "c": true}) {
		t.Errorf("varyingKeys = %v, want b and c", got)
	}
}

func TestMembershipInDataUnits(t *testing.T) {
	d := membershipData()
	d.Standardisation = &Standardisation{Mean: 700, Scale: 300}
	got, err := d.inDrawnUnits()
	if err != nil {
		t.Fatal(err)
	}
	// z = -0.8 → 700 - 240 = 460; the rug's -1.5 → 250.
	if c := got.Default[0][2]; c < 459.999 || c > 460.001 {
		t.Errorf("Low's c = %v, want 460", c)
	}
	if v := got.Values[0]; v < 249.999 || v > 250.001 {
		t.Errorf("first value %v, want 250", v)
	}
	if d.Default[0][2] != -0.8 {
		t.Error("the caller's corners were changed")
	}
	d.ShowStandardised, d.StandardisedXLabel = true, "z"
	if got, _ := d.inDrawnUnits(); got.Default[0][2] != -0.8 || got.XLabel != "z" {
		t.Errorf("standardised view: c = %v, label %q", got.Default[0][2], got.XLabel)
	}
	d.ShowStandardised = false
	d.Standardisation.Scale = 0
	if err := MembershipFigure(t.TempDir(), "x", d); err == nil {
		t.Error("zero scale: no error")
	}
}

// TestFrontManyMethodsGolden draws thirteen methods (more than the
// palette's eight colours) with crowded Pareto labels, to look at.
func TestFrontManyMethodsGolden(t *testing.T) {
	names := []string{"fgrt", "fgrt-opt", "cart", "c45", "ripper", "fga", "m7", "m8", "m9", "m10", "m11", "m12", "m13"}
	pres := results.Presentation{Order: names}
	var panels []analysis.FrontPanel
	for d := 0; d < 4; d++ {
		pn := analysis.FrontPanel{Title: fmt.Sprintf("dataset %d", d)}
		for i, m := range names {
			// A rising front of reported points, and a cluster of sweep
			// points around the small end.
			pn.Points = append(pn.Points, analysis.FrontPoint{Method: m, Size: 2 + 6*float64(i) + float64(d), Accuracy: 0.6 + 0.025*float64(i) - 0.0008*float64(i*i) + 0.01*float64(d)})
			if i < 3 {
				pn.Points = append(pn.Points, analysis.FrontPoint{Method: m, Swept: true, Config: fmt.Sprintf("max_rules=%d;coverage_threshold=0.01", 5*(i+1)),
					Size: 1.5 + float64(i), Accuracy: 0.59 + 0.01*float64(i)})
				pn.Points = append(pn.Points, analysis.FrontPoint{Method: m, Swept: true, Config: fmt.Sprintf("max_rules=%d;coverage_threshold=0.01", 50+5*i),
					Size: 30 + float64(i), Accuracy: 0.6})
			}
		}
		pn.Pareto = analysis.Pareto(pn.Points) // as the analysis hands it to the figure
		panels = append(panels, pn)
	}
	checkFigure(t, "front_many_methods", func(dir, name string) error {
		return FrontFigure(dir, name, "thirteen methods", panels, pres)
	})
}

func TestLabelOverlapArea(t *testing.T) {
	r := func(x0, y0, x1, y1 float64) vg.Rectangle {
		return vg.Rectangle{Min: vg.Point{X: vg.Length(x0), Y: vg.Length(y0)}, Max: vg.Point{X: vg.Length(x1), Y: vg.Length(y1)}}
	}
	for _, tc := range []struct {
		a, b          vg.Rectangle
		overlap, outs vg.Length
	}{
		{r(0, 0, 2, 2), r(1, 1, 3, 3), 1, 3},
		{r(0, 0, 1, 1), r(2, 2, 3, 3), 0, 1},
		{r(1, 1, 2, 2), r(0, 0, 3, 3), 1, 0},
	} {
		if got := overlap(tc.a, tc.b); got != tc.overlap {
			t.Errorf("overlap(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.overlap)
		}
		if got := outside(tc.a, tc.b); got != tc.outs {
			t.Errorf("outside(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.outs)
		}
	}
}

// TestPlaceLabelsClear: numbers beside a crowded front (thirty points a
// few points apart along a line, as the top of a front of many methods)
// are placed clear of one another, of every point's ring and inside the
// frame.
func TestPlaceLabelsClear(t *testing.T) {
	frame := vg.Rectangle{Max: vg.Point{X: 200, Y: 160}}
	var anchors []vg.Point
	var widths []vg.Length
	var obstacles []vg.Rectangle
	for i := range 30 {
		p := vg.Point{X: 60 + vg.Length(i)*3, Y: 40 + vg.Length(i)*3.5}
		anchors = append(anchors, p)
		widths = append(widths, vg.Length(4+3*len(fmt.Sprint(i+1))))
		obstacles = append(obstacles, vg.Rectangle{Min: vg.Point{X: p.X - 6, Y: p.Y - 6}, Max: vg.Point{X: p.X + 6, Y: p.Y + 6}})
	}
	boxes, _ := placeLabels(frame, anchors, widths, 7.7, obstacles)
	for i, b := range boxes {
		if outside(b, frame) > 0 {
			t.Errorf("label %d at %v leaves the frame", i+1, b)
		}
		for j := range i {
			if overlap(b, boxes[j]) > 0 {
				t.Errorf("labels %d and %d overlap: %v, %v", j+1, i+1, boxes[j], b)
			}
		}
		for j, o := range obstacles {
			if overlap(b, o) > 0 {
				t.Errorf("label %d covers point %d", i+1, j+1)
			}
		}
	}
}

// TestWrapKey: a key's names are never cut: they break at spaces (and a
// word longer than a line between letters) into lines that fit, and the
// lines joined give the name back; short names share columns.
func TestWrapKey(t *testing.T) {
	width := func(s string) vg.Length { return vg.Length(len([]rune(s))) }
	for _, c := range []struct {
		s    string
		w    vg.Length
		want []string
	}{
		{"CART", 10, []string{"CART"}},
		{"C4.5 (entropy, paper)@text ca=0 c=entropy", 16, []string{"C4.5 (entropy,", "paper)@text ca=0", "c=entropy"}},
		{"abcdefghij klm", 4, []string{"abcd", "efgh", "ij", "klm"}},
	} {
		got := wrapText(c.s, c.w, width)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("wrapText(%q, %v) = %q, want %q", c.s, c.w, got, c.want)
		}
		for _, l := range got {
			if width(l) > c.w {
				t.Errorf("line %q is wider than %v", l, c.w)
			}
		}
	}
	short := []frontKeyEntry{{N: 1, Text: "CART"}, {N: 2, Text: "RIPPER"}, {N: 3, Text: "FGRT"}, {N: 4, Text: "C4.5"}}
	lines := wrapKey(short, keyWidth)
	if keyRows(lines) != 2 || lines[3].Col != 1 || lines[3].Row != 1 {
		t.Errorf("short names: %+v, want two rows of columns", lines)
	}
	long := []frontKeyEntry{{N: 1, Text: strings.Repeat("FGRT (Q1+Q2 fixed)@ofat ct=0.01 mr=5 mi=0.01; ", 3)}}
	lines = wrapKey(long, keyWidth)
	var joined []string
	for _, l := range lines {
		joined = append(joined, l.Text)
	}
	if len(lines) < 2 || strings.Join(joined, " ") != strings.TrimSpace(long[0].Text) || lines[0].Number != "1" || lines[1].Number != "" {
		t.Errorf("a long name: %+v", lines)
	}
}
