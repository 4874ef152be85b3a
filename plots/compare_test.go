package plots

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/results"
)

// comparisonRecords: five data sets, two folds, methods whose accuracy order
// is fixed (fgrt-opt > fgrt > cart > ripper) except on data set "e", where
// fgrt beats fgrt-opt.
func comparisonRecords() []results.Record {
	base := map[string]float64{"fgrt-opt": 0.80, "fgrt": 0.78, "cart": 0.70, "ripper": 0.60}
	var recs []results.Record
	for di, d := range []string{"a", "b", "c", "d", "e"} {
		for m, acc := range base {
			if d == "e" && m == "fgrt-opt" {
				acc = 0.75
			}
			cfg := ""
			if m == "fgrt" || m == "fgrt-opt" {
				cfg = "coverage_threshold=0.01;max_rules=15;min_improvement=0.01"
			}
			for f := 0; f < 2; f++ {
				recs = append(recs, results.Record{Protocol: "paper", Dataset: d, Method: m, Config: cfg, Selected: true, Selection: "test",
					Fold: f, Accuracy: acc + 0.01*float64(di) + 0.002*float64(f)})
				// An unselected configuration must not count.
				recs = append(recs, results.Record{Protocol: "paper", Dataset: d, Method: m, Config: "coverage_threshold=0.05;max_rules=5;min_improvement=0.01", ConfigIndex: 1, Selected: false, Selection: "test",
					Fold: f, Accuracy: 0})
			}
		}
	}
	results.Sort(recs)
	return recs
}

// comparisonAnalysis is the analysis of comparisonRecords, as the report
// computes it before any figure is drawn.
func comparisonAnalysis(t *testing.T) *analysis.Analysis {
	t.Helper()
	a, err := analysis.Compute(comparisonRecords(), analysis.Options{Methods: paperMethods, Samples: 2000})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestPartitionImpactRows(t *testing.T) {
	a := comparisonAnalysis(t)
	rows := PartitionImpactRowsOf(a, "paper")
	if len(rows) != 5 || rows[0].Dataset != "a" || rows[4].Dataset != "e" {
		t.Fatalf("rows %+v", rows)
	}
	if math.Abs(rows[0].Default-0.781) > 1e-12 || math.Abs(rows[0].Optimised-0.801) > 1e-12 {
		t.Errorf("a: %+v, want 0.781 and 0.801 (mean of the selected folds)", rows[0])
	}
	for _, r := range rows {
		if math.Abs(r.Diff-(r.Optimised-r.Default)) > 1e-15 {
			t.Errorf("%s: difference %v, want optimised - default = %v", r.Dataset, r.Diff, r.Optimised-r.Default)
		}
	}
	if rows[4].Optimised >= rows[4].Default {
		t.Errorf("e: %+v, want a loss", rows[4])
	}
	if len(PartitionImpactRowsOf(a, "clean")) != 0 {
		t.Error("rows for a protocol without records")
	}
}

func TestPartitionImpactGolden(t *testing.T) {
	checkFigure(t, "partition_impact", func(dir, name string) error {
		a := comparisonAnalysis(t)
		e, ok := a.PartitionEffectOf("paper")
		if !ok {
			t.Fatal("no partition effect under the paper protocol")
		}
		return PartitionImpactFigure(dir, name, "Partition optimisation: FGRT vs FGRT* (paper protocol)", PartitionImpactRowsOf(a, "paper"), e.MeanDiff)
	})
	if err := PartitionImpactFigure(t.TempDir(), "x", "x", nil, 0); err != ErrNoData {
		t.Errorf("err %v, want ErrNoData", err)
	}
}

func TestCliques(t *testing.T) {
	tests := []struct {
		ranks []float64
		cd    float64
		want  [][2]int
	}{
		{[]float64{1, 2, 3, 4}, 0.5, nil},
		{[]float64{1, 1.2, 3, 3.1}, 0.5, [][2]int{{0, 1}, {2, 3}}},
		{[]float64{1, 1.5, 2, 2.5}, 1.1, [][2]int{{0, 2}, {1, 3}}},
		{[]float64{1, 2, 3, 4}, 5, [][2]int{{0, 3}}},
	}
	for _, tc := range tests {
		if got := analysis.CliqueRanges(tc.ranks, tc.cd); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("CliqueRanges(%v, %v) = %v, want %v", tc.ranks, tc.cd, got, tc.want)
		}
	}
}

func TestCDDataOf(t *testing.T) {
	a := comparisonAnalysis(t)
	d, err := CDDataOf(a, "paper")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(d.Methods, []string{"fgrt", "fgrt-opt", "cart", "ripper"}) || d.NDatasets != 5 {
		t.Fatalf("methods %v over %d data sets", d.Methods, d.NDatasets)
	}
	// fgrt-opt first on four data sets, second on one: (4*1+2)/5 = 1.2.
	want := []float64{1.8, 1.2, 3, 4}
	for i := range want {
		if math.Abs(d.AvgRanks[i]-want[i]) > 1e-12 {
			t.Errorf("rank of %s = %v, want %v", d.Methods[i], d.AvgRanks[i], want[i])
		}
	}
	// Demšar (2006) q_0.05 for k=4 is 2.569: CD = 2.569*sqrt(4*5/(6*5)).
	if math.Abs(d.CD-2.569*math.Sqrt(20.0/30)) > 1e-3 {
		t.Errorf("CD %v", d.CD)
	}
	if _, err := CDDataOf(a, "clean"); err != ErrNoData {
		t.Errorf("empty protocol: err %v, want ErrNoData", err)
	}
}

func TestCDGolden(t *testing.T) {
	checkFigure(t, "cd_diagram", func(dir, name string) error {
		d, err := CDDataOf(comparisonAnalysis(t), "paper")
		if err != nil {
			return err
		}
		return CDFigure(dir, name, d, paperMethods)
	})
	seven := CDData{Methods: []string{"fgrt", "fgrt-opt", "cart", "c45-entropy", "c45", "ripper", "fga"},
		AvgRanks: []float64{2.9, 2.2, 4.1, 4.3, 3.6, 5.2, 5.7}, CD: 2.85, Alpha: 0.05, NDatasets: 10, FriedmanP: math.NaN()}
	seven.Cliques = analysis.NemenyiCliques(seven.Methods, seven.AvgRanks, seven.CD)
	checkFigure(t, "cd_diagram_seven", func(dir, name string) error { return CDFigure(dir, name, seven, paperMethods) })
}

func TestCDFigureBadInput(t *testing.T) {
	cases := map[string]CDData{
		"mismatch":   {Methods: []string{"a", "b"}, AvgRanks: []float64{1}, CD: 1},
		"rank range": {Methods: []string{"a", "b"}, AvgRanks: []float64{0.5, 2}, CD: 1},
		"cd":         {Methods: []string{"a", "b"}, AvgRanks: []float64{1, 2}, CD: 0},
		"clique":     {Methods: []string{"a", "b", "c"}, AvgRanks: []float64{1, 2, 2.5}, CD: 3, Cliques: [][]string{{"a", "c"}}},
	}
	for name, d := range cases {
		if err := CDFigure(t.TempDir(), "x", d, paperMethods); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// Property: cliques span less than CD, cover every pair closer than CD,
// and none contains another.
func TestCliquesProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 500; trial++ {
		k := 2 + rng.IntN(9)
		ranks := make([]float64, k)
		for i := range ranks {
			ranks[i] = 1 + rng.Float64()*float64(k-1)
		}
		sort.Float64s(ranks)
		cd := 0.2 + rng.Float64()*3
		cl := analysis.CliqueRanges(ranks, cd)
		for a, c := range cl {
			if ranks[c[1]]-ranks[c[0]] >= cd {
				t.Fatalf("clique %v spans %v >= cd %v", c, ranks[c[1]]-ranks[c[0]], cd)
			}
			for b, o := range cl {
				if a != b && o[0] <= c[0] && c[1] <= o[1] {
					t.Fatalf("clique %v inside %v", c, o)
				}
			}
		}
		for i := 0; i < k; i++ {
			for j := i + 1; j < k; j++ {
				if ranks[j]-ranks[i] >= cd {
					continue
				}
				covered := false
				for _, c := range cl {
					covered = covered || (c[0] <= i && j <= c[1])
				}
				if !covered {
					t.Fatalf("ranks %v cd %v: pair %d,%d not in any clique %v", ranks, cd, i, j, cl)
				}
			}
		}
	}
}

// TestFiguresShowTableNames: a figure names a method label as the report's
// tables do (the study's results.Presentation), so fgrt-fixed is "FGRT (Q1+Q2 fixed)"
// in both and a user's own label is shown unchanged in both.
func TestFiguresShowTableNames(t *testing.T) {
	labels := []string{"fgrt-fixed", "cart", "my-learner"}
	d := CDData{Methods: labels, AvgRanks: []float64{1.5, 2, 2.5}, CD: 1, Alpha: 0.05, NDatasets: 4, FriedmanP: math.NaN()}
	d.Cliques = analysis.NemenyiCliques(d.Methods, d.AvgRanks, d.CD)
	dir := t.TempDir()
	if err := CDFigure(dir, "cd", d, paperMethods); err != nil {
		t.Fatal(err)
	}
	svg, err := os.ReadFile(filepath.Join(dir, "cd.svg"))
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range labels {
		want := fmt.Sprintf(">%s (%.2f)</text>", paperMethods.DisplayName(m), d.AvgRanks[i])
		if !strings.Contains(string(svg), want) {
			t.Errorf("the CD diagram lacks %q", want)
		}
	}
	if strings.Contains(string(svg), ">fgrt-fixed") {
		t.Error("the CD diagram shows the raw label fgrt-fixed")
	}
}
