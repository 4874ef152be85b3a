package plots

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/analysis"

	"github.com/fgrtbench/fgrtbench/results"
)

// sweepGridRecords builds a full-factorial sweep of "fgrt" over the given
// parameters (names sorted, last varying fastest, as the runner expands a
// sweep) on three datasets, two repeats × three folds, with accuracies and
// rulebase sizes that are smooth in the parameters plus a fold wobble, a
// selected variant "fgrt-fixed" and a fixed "cart".
func sweepGridRecords(params map[string][]string) []results.Record {
	names := make([]string, 0, len(params))
	for k := range params {
		names = append(names, k)
	}
	sort.Strings(names)
	configs := [][]string{{}}
	for _, n := range names {
		var next [][]string
		for _, c := range configs {
			for _, v := range params[n] {
				next = append(next, append(append([]string(nil), c...), n+"="+v))
			}
		}
		configs = next
	}
	var recs []results.Record
	for di, ds := range []string{"wine", "pima", "zoo"} {
		for r := 0; r < 2; r++ {
			for f := 0; f < 3; f++ {
				key := fmt.Sprintf("clean/%s/fgrt/r%d/f%d", ds, r, f)
				for ci, c := range configs {
					size := 4 + 3*ci + di
					acc := 0.6 + 0.1*float64(di) + 0.04*math.Sin(float64(ci)) + 0.01*float64(f) - 0.005*float64(r)
					recs = append(recs, results.Record{Protocol: "clean", Dataset: ds, Method: "fgrt", Config: strings.Join(c, ";"),
						ConfigIndex: ci, Selection: "sweep", Repeat: r, Fold: f, Seed: 42, NTest: 20, Accuracy: acc,
						Rules: size / 2, Antecedents: size, RulebaseSize: size, Key: key})
				}
				for mi, m := range []string{"fgrt-fixed", "cart"} {
					recs = append(recs, results.Record{Protocol: "clean", Dataset: ds, Method: m, Config: "x=1", Selected: true, Selection: "fixed",
						Repeat: r, Fold: f, Seed: 42, NTest: 20, Accuracy: 0.62 + 0.1*float64(di) + 0.02*float64(mi), RulebaseSize: 12 + 40*mi,
						Key: fmt.Sprintf("clean/%s/%s/r%d/f%d", ds, m, r, f)})
				}
			}
		}
	}
	return recs
}

func sweepOf(t *testing.T, recs []results.Record) ([]analysis.Point, analysis.Sweep) {
	t.Helper()
	points, sweeps, err := sweepsOf(recs, map[string]string{"fgrt-fixed": "fgrt", "fgrt": "fgrt", "cart": "cart"}, paperMethods)
	if err != nil {
		t.Fatal(err)
	}
	if len(sweeps) != 1 {
		t.Fatalf("%d sweeps", len(sweeps))
	}
	return points, sweeps[0]
}

var (
	oneParam   = map[string][]string{"max_rules": {"5", "10", "20", "40", "80"}}
	twoParams  = map[string][]string{"max_rules": {"5", "10", "20"}, "coverage_threshold": {"0", "0.01", "0.05", "0.1"}}
	fourParams = map[string][]string{"max_rules": {"5", "20"}, "coverage_threshold": {"0", "0.05"}, "min_improvement": {"0", "0.01", "0.05"}, "partition": {"quantile", "paper"}}
)

func TestSweepFiguresGolden(t *testing.T) {
	for _, c := range []struct {
		name   string
		params map[string][]string
	}{{"sweep_curve", oneParam}, {"sweep_heatmap", twoParams}, {"sweep_ofat", fourParams}} {
		_, s := sweepOf(t, sweepGridRecords(c.params))
		checkFigure(t, c.name, func(dir, name string) error { return SweepFigure(dir, name, s, paperMethods) })
	}
}

func TestFrontGolden(t *testing.T) {
	points, _ := sweepOf(t, sweepGridRecords(oneParam))
	checkFigure(t, "front", func(dir, name string) error { return frontOf(dir, name, points, "clean", paperMethods) })
}

// TestFrontOfOnePointGolden: a panel whose front is a single point (it is
// the smallest and the most accurate) still marks that point; with a line
// alone it showed no front at all (hepatitis and saheart in the paper's
// front).
func TestFrontOfOnePointGolden(t *testing.T) {
	panels := []analysis.FrontPanel{{Title: "one optimal point", Points: []analysis.FrontPoint{
		{Method: "fgrt", Size: 5, Accuracy: 0.85},
		{Method: "fgrt", Swept: true, Size: 12, Accuracy: 0.85},
		{Method: "cart", Size: 40, Accuracy: 0.84},
	}}}
	if got := analysis.Pareto(panels[0].Points); !reflect.DeepEqual(got, []int{0}) {
		t.Fatalf("front %v, want [0]", got)
	}
	panels[0].Pareto = []int{0} // as the analysis hands it to the figure
	checkFigure(t, "front_one_point", func(dir, name string) error {
		return FrontFigure(dir, name, "front of one point", panels, paperMethods)
	})
}

// TestSweepFigureData checks what the figures are drawn from: the curve's
// pooled line is the mean of the dataset means, the OFAT panels vary one
// parameter around the best pooled point, the axes go log when the values
// span a decade.
func TestSweepFigureData(t *testing.T) {
	_, s := sweepOf(t, sweepGridRecords(oneParam))
	all := []int{0, 1, 2, 3, 4}
	acc, size := axisPanels(s, 0, all, paperMethods)
	if !acc.Axis.Log || len(acc.Series) != 5 || len(size.Series) != 5 {
		t.Fatalf("curve panels: log %v, %d and %d series", acc.Axis.Log, len(acc.Series), len(size.Series))
	}
	// The selected variant fgrt-fixed first, as a flat reference at its
	// pooled mean, named as the tables name it.
	refs := selectedRefs(s, paperMethods)
	if len(refs) != 1 || !strings.HasPrefix(refs[0].name, "FGRT (Q1+Q2 fixed) (fixed)") {
		t.Fatalf("references %+v", refs)
	}
	var refWant float64
	for d := range s.Datasets {
		refWant += (0.62 + 0.1*float64(d)) / 3
	}
	if ref := acc.Series[0]; !ref.NoPoints || math.Abs(ref.Y[0]-refWant) > 1e-12 || ref.Y[1] != ref.Y[0] {
		t.Errorf("reference series %+v, want flat at %v", ref, refWant)
	}
	acc.Series = acc.Series[1:]
	pooled := acc.Series[0]
	if len(pooled.Y) != 5 || len(pooled.Lo) != 5 {
		t.Fatalf("pooled series %+v", pooled)
	}
	for n := range all {
		var want float64
		for d := range s.Datasets {
			want += s.Points[d][n].Accuracy / 3
		}
		if math.Abs(pooled.Y[n]-want) > 1e-12 || !(pooled.Lo[n] < want && want < pooled.Hi[n]) {
			t.Errorf("pooled point %d: %v (band %v..%v), want %v inside its band", n, pooled.Y[n], pooled.Lo[n], pooled.Hi[n], want)
		}
	}
	for d := range s.Datasets {
		if ds := acc.Series[d+1]; len(ds.Y) != 5 || ds.Y[2] != s.Points[d][2].Accuracy {
			t.Errorf("dataset %s series %v", s.Datasets[d], ds.Y)
		}
	}

	_, s4 := sweepOf(t, sweepGridRecords(fourParams))
	if strings.Join(s4.Params, ",") != "coverage_threshold,max_rules,min_improvement,partition" {
		t.Fatalf("params %v", s4.Params)
	}
	// In a full product every configuration has the same neighbours: the
	// centre is the best mean rank.
	c := center(s4)
	if c != s4.PooledBest() || c < 0 {
		t.Fatalf("center %d, pooled best %d", c, s4.PooledBest())
	}
	// In a grid that is not a product the hub wins over a better-ranked
	// corner: (b=1) has two neighbours, (a=2) only one.
	hub := analysis.Sweep{Params: []string{"a", "b"}, Configs: []string{"a=1;b=1", "a=2;b=1", "a=1;b=2", "a=2;b=2x"},
		Values: [][]string{{"1", "1"}, {"2", "1"}, {"1", "2"}, {"3", "3"}}, Datasets: []string{"d"},
		Points: [][]analysis.Point{{{N: 1, Accuracy: 0.5}, {N: 1, Accuracy: 0.9}, {N: 1, Accuracy: 0.6}, {N: 1, Accuracy: 0.95}}}}
	if got := center(hub); got != 0 {
		t.Errorf("centre of a non-product grid: %d, want the hub 0", got)
	}
	// Each OFAT column holds the configurations equal to the centre in
	// every other parameter: as many as the parameter has values.
	for j, want := range []int{2, 2, 3, 2} {
		n := 0
		for i := range s4.Configs {
			same := true
			for k := range s4.Params {
				if k != j && s4.Values[i][k] != s4.Values[c][k] {
					same = false
				}
			}
			if same {
				n++
			}
		}
		if n != want {
			t.Errorf("%s: %d configurations around the centre, want %d", s4.Params[j], n, want)
		}
	}
	if ax := newParamAxis([]string{"quantile", "paper"}, false); !ax.Categorical || ax.Log {
		t.Errorf("enum axis %+v", ax)
	}
	if ax := newParamAxis([]string{"0.05", "0", "0.01"}, false); ax.Log || !reflect.DeepEqual(ax.Values, []string{"0", "0.01", "0.05"}) {
		t.Errorf("axis with a zero %+v", ax)
	}
	// A zero beside values spanning a decade: no log scale, and a linear
	// one would stack 0, 0.001 and 0.01 on one spot; equal spacing.
	if ax := newParamAxis([]string{"0.1", "0", "0.01", "0.001"}, false); !ax.Categorical || ax.Log ||
		!reflect.DeepEqual(ax.Values, []string{"0", "0.001", "0.01", "0.1"}) || !reflect.DeepEqual(ax.Pos, []float64{0, 1, 2, 3}) {
		t.Errorf("axis with a zero and two decades %+v", ax)
	}
	_, zs := sweepOf(t, sweepGridRecords(map[string][]string{"coverage_threshold": {"0", "0.001", "0.01", "0.1"}}))
	if acc, _ := axisPanels(zs, 0, []int{0, 1, 2, 3}, paperMethods); acc.XLabel != "coverage_threshold (equally spaced)" {
		t.Errorf("x label %q does not say the values are equally spaced", acc.XLabel)
	}
}

func TestSweepAndFrontWithoutDataAreSkipped(t *testing.T) {
	dir := t.TempDir()
	if err := SweepFigure(dir, "x", analysis.Sweep{}, paperMethods); !errors.Is(err, ErrNoData) {
		t.Errorf("empty sweep: %v", err)
	}
	if err := frontOf(dir, "x", nil, "clean", paperMethods); !errors.Is(err, ErrNoData) {
		t.Errorf("empty front: %v", err)
	}
}

func TestFrontPanelsPoolOnlyCompletePoints(t *testing.T) {
	recs := sweepGridRecords(oneParam)
	// Drop cart on one dataset: it leaves the pooled panel.
	var kept []results.Record
	for _, r := range recs {
		if !(r.Method == "cart" && r.Dataset == "zoo") {
			kept = append(kept, r)
		}
	}
	points, _ := sweepOf(t, kept)
	panels := analysis.ComputeFront(points, "clean").Panels
	if len(panels) != 4 || !strings.HasPrefix(panels[3].Title, "pooled") {
		t.Fatalf("panels %v", panels)
	}
	if n := len(panels[0].Points); n != 7 { // 5 sweep points + fgrt-fixed + cart
		t.Errorf("wine panel has %d points, want 7", n)
	}
	for _, p := range panels[3].Points {
		if p.Method == "cart" {
			t.Error("pooled panel holds cart, which lacks a dataset")
		}
	}
	if n := len(panels[3].Points); n != 6 {
		t.Errorf("pooled panel has %d points, want 6", n)
	}
}

// TestSweepCaptionSaysOnlyWhatIsDrawn: the dashed references are
// mentioned when the sweep has selected variants beside it, and only then;
// an equally spaced axis is said so.
func TestSweepCaptionSaysOnlyWhatIsDrawn(t *testing.T) {
	_, with := sweepOf(t, sweepGridRecords(oneParam))
	if c := SweepCaption(with, paperMethods); !strings.Contains(c, "dashed: the pooled mean of each selected variant") {
		t.Errorf("caption with a selected variant does not explain the dashed line: %s", c)
	}
	var alone []results.Record
	for _, r := range sweepGridRecords(map[string][]string{"coverage_threshold": {"0", "0.001", "0.01", "0.1"}}) {
		if r.Method == "fgrt" {
			alone = append(alone, r)
		}
	}
	_, s := sweepOf(t, alone)
	c := SweepCaption(s, paperMethods)
	if strings.Contains(c, "dashed") || !strings.Contains(c, "the values equally spaced on the x axis") {
		t.Errorf("caption of a sweep without selected variants, on an equally spaced axis: %s", c)
	}
}

// sweepsOf computes the points and sweeps of records as the analysis does,
// for the figures' tests.
func sweepsOf(recs []results.Record, base map[string]string, pres results.Presentation) ([]analysis.Point, []analysis.Sweep, error) {
	points, err := analysis.Points(recs)
	if err != nil {
		return nil, nil, err
	}
	sweeps, err := analysis.Sweeps(points, base, pres)
	return points, sweeps, err
}

// frontOf draws the front figure of one protocol from aggregated points.
func frontOf(dir, name string, points []analysis.Point, protocol string, pres results.Presentation) error {
	return FrontFigure(dir, name, "Accuracy against rulebase size ("+protocol+" protocol)", analysis.ComputeFront(points, protocol).Panels, pres)
}
