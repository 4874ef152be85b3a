package plots

import (
	"bytes"
	"flag"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/fgrtbench/fgrtbench/internal/owned"
	"github.com/fgrtbench/fgrtbench/results"
	"github.com/fgrtbench/fgrtbench/results/runtimecsv"
)

var (
	update = flag.Bool("update", false, "rewrite the golden SVG files in testdata/")
	keep   = flag.String("keep", "", "also copy every rendered figure into this directory (for looking at them)")
)

// checkFigure renders a figure twice into fresh directories, requires the two
// renderings (SVG and PNG) to be byte-identical, and compares the SVG with
// testdata/<name>.svg (rewritten with -update).
func checkFigure(t *testing.T, name string, render func(dir, name string) error) {
	t.Helper()
	var outs [2][2][]byte
	for i := range outs {
		dir := t.TempDir()
		if err := render(dir, name); err != nil {
			t.Fatalf("render %s: %v", name, err)
		}
		for k, ext := range []string{".svg", ".png"} {
			b, err := os.ReadFile(filepath.Join(dir, name+ext))
			if err != nil {
				t.Fatal(err)
			}
			outs[i][k] = b
			if *keep != "" && i == 0 {
				if err := os.MkdirAll(*keep, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(*keep, name+ext), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
		entries, _ := os.ReadDir(dir)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		// The two figures and the marker listing them (internal/owned).
		if want := []string{owned.Marker, name + ".png", name + ".svg"}; !slices.Equal(names, want) {
			t.Errorf("%s: directory holds %q, want %q (temporary files left?)", name, names, want)
		}
		if m, _ := os.ReadFile(filepath.Join(dir, owned.Marker)); string(m) != name+".png\n"+name+".svg\n" {
			t.Errorf("%s: the marker lists %q, want the two figures", name, m)
		}
	}
	if !bytes.Equal(outs[0][0], outs[1][0]) {
		t.Errorf("%s.svg differs between two renderings", name)
	}
	if !bytes.Equal(outs[0][1], outs[1][1]) {
		t.Errorf("%s.png differs between two renderings", name)
	}
	if !bytes.HasPrefix(outs[0][1], []byte("\x89PNG")) {
		t.Errorf("%s.png is not a PNG", name)
	}
	golden := filepath.Join("testdata", name+".svg")
	if *update {
		if err := os.WriteFile(golden, outs[0][0], 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./plots/... -update to create it)", err)
	}
	if !bytes.Equal(outs[0][0], want) {
		t.Errorf("%s.svg differs from %s (run with -update after checking the PNG)", name, golden)
	}
}

func TestFitLogLogRecoversExponent(t *testing.T) {
	var x, y []float64
	for _, v := range []float64{1, 2, 5, 10, 100, 1000} {
		x = append(x, v)
		y = append(y, 3*math.Pow(v, 1.5))
	}
	slope, icept, err := FitLogLog(x, y)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(slope-1.5) > 1e-9 || math.Abs(icept-math.Log10(3)) > 1e-9 {
		t.Errorf("slope %v intercept %v, want 1.5 and log10(3)", slope, icept)
	}
}

func TestFitLogLogErrors(t *testing.T) {
	cases := map[string][2][]float64{
		"length":      {{1, 2}, {1}},
		"zero x":      {{0, 2}, {1, 2}},
		"negative y":  {{1, 2}, {1, -2}},
		"one x value": {{3, 3}, {1, 2}},
		"infinite":    {{1, math.Inf(1)}, {1, 2}},
		"empty":       {nil, nil},
		"two points":  {{1, 2}, {1, 2}},
	}
	for name, c := range cases {
		if _, _, err := FitLogLog(c[0], c[1]); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// runtimeRows is a hand-made runtime.csv: two methods with known exponents
// (1 and 2 in samples, 1 and 0.5 in features) and a +-10% trial spread.
func runtimeRows() []runtimecsv.Row {
	var rows []runtimecsv.Row
	add := func(study, m string, n, d int, base float64) {
		for t, f := range []float64{0.9, 1.0, 1.1} {
			rows = append(rows, runtimecsv.Row{Study: study, Method: m, NSamples: n, NFeatures: d, Trial: t, FitSeconds: base * f})
		}
	}
	for _, n := range []int{100, 500, 1000, 5000} {
		add(runtimecsv.StudySamples, "fast", n, 10, 1e-5*float64(n))
		add(runtimecsv.StudySamples, "slow", n, 10, 1e-7*float64(n)*float64(n))
	}
	for _, d := range []int{5, 10, 20, 30} {
		add(runtimecsv.StudyFeatures, "fast", 1000, d, 1e-3*float64(d))
		add(runtimecsv.StudyFeatures, "slow", 1000, d, 1e-2*math.Sqrt(float64(d)))
	}
	return rows
}

func TestScalingSeriesExponents(t *testing.T) {
	rows := runtimeRows()
	ss, err := ScalingSeriesOf(rows[:24], func(r runtimecsv.Row) int { return r.NSamples })
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"fast": 1, "slow": 2}
	if len(ss) != 2 {
		t.Fatalf("%d series", len(ss))
	}
	for _, s := range ss {
		if !s.HasFit || math.Abs(s.Exponent-want[s.Method]) > 1e-9 {
			t.Errorf("%s: exponent %v, want %v", s.Method, s.Exponent, want[s.Method])
		}
		if len(s.Sizes) != 4 || s.Min[0] >= s.Mean[0] || s.Mean[0] >= s.Max[0] {
			t.Errorf("%s: band %v %v %v", s.Method, s.Min, s.Mean, s.Max)
		}
	}
}

func TestRuntimeScalingGolden(t *testing.T) {
	checkFigure(t, "runtime_scaling", func(dir, name string) error { return RuntimeScaling(dir, name, runtimeRows(), paperMethods) })
}

func TestRuntimeScalingNoData(t *testing.T) {
	if err := RuntimeScaling(t.TempDir(), "x", nil, paperMethods); err != ErrNoData {
		t.Errorf("err %v, want ErrNoData", err)
	}
}

func TestRuntimeRealGolden(t *testing.T) {
	var rows []runtimecsv.Row
	for di, d := range []string{"wine", "pima", "saheart", "ring"} {
		for _, n := range []int{100, 200, 500} {
			for tr := 0; tr < 2; tr++ {
				for mi, m := range []string{"fgrt", "cart"} {
					rows = append(rows, runtimecsv.Row{Study: runtimecsv.RealPrefix + d, Method: m, NSamples: n, NFeatures: 8 + di,
						Trial: tr, FitSeconds: 1e-5 * float64(n*(mi+1)) * (1 + 0.1*float64(tr))})
				}
			}
		}
	}
	checkFigure(t, "runtime_real", func(dir, name string) error { return RuntimeReal(dir, name, rows, paperMethods) })
	if err := RuntimeReal(t.TempDir(), "x", runtimeRows(), paperMethods); err != ErrNoData {
		t.Errorf("no real rows: %v", err)
	}
}

// TestRuntimeFiguresOfOneSize: a runtime study of one size (runtime
// --samples "" --datasets FILE times only the whole file) draws both
// figures. Before, the time axis of one value was widened by ±1 and, for a
// fit under a second, reached below zero on its log scale: a panic.
func TestRuntimeFiguresOfOneSize(t *testing.T) {
	var rows []runtimecsv.Row
	for trial, sec := range []float64{1.85e-4, 2.77e-4} {
		rows = append(rows,
			runtimecsv.Row{Study: runtimecsv.RealPrefix + "mine.csv", Method: "cart", NSamples: 300, NFeatures: 2, Trial: trial, FitSeconds: sec},
			runtimecsv.Row{Study: runtimecsv.StudySamples, Method: "cart", NSamples: 300, NFeatures: 10, Trial: trial, FitSeconds: 1.5e-4})
	}
	for _, draw := range []struct {
		name string
		fn   func(dir, name string, rows []runtimecsv.Row, pres results.Presentation) error
	}{{"runtime_real", RuntimeReal}, {"runtime_scaling", RuntimeScaling}} {
		dir := t.TempDir()
		if err := draw.fn(dir, draw.name, rows, paperMethods); err != nil {
			t.Fatalf("%s: %v", draw.name, err)
		}
		for _, ext := range []string{".png", ".svg"} {
			if st, err := os.Stat(filepath.Join(dir, draw.name+ext)); err != nil || st.Size() == 0 {
				t.Errorf("%s%s: %v", draw.name, ext, err)
			}
		}
	}
}

// TestNoSlopeFromTwoSizes: any trials at two sizes lie near a line, so no
// exponent is fitted from fewer than MinFitSizes sizes however many trials.
func TestNoSlopeFromTwoSizes(t *testing.T) {
	var rows []runtimecsv.Row
	for _, n := range []int{100, 178} {
		for trial := 0; trial < 5; trial++ {
			rows = append(rows, runtimecsv.Row{Study: "real/wine", Method: "fgrt", NSamples: n, NFeatures: 13, Trial: trial, FitSeconds: 1e-4 * float64(n+trial)})
		}
	}
	ss, err := ScalingSeriesOf(rows, func(r runtimecsv.Row) int { return r.NSamples })
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != 1 || ss[0].HasFit {
		t.Errorf("series %+v: a slope from two sizes", ss)
	}
	rows = append(rows, runtimecsv.Row{Study: "real/wine", Method: "fgrt", NSamples: 50, NFeatures: 13, FitSeconds: 5e-3})
	if ss, _ = ScalingSeriesOf(rows, func(r runtimecsv.Row) int { return r.NSamples }); !ss[0].HasFit {
		t.Error("no slope from three sizes")
	}
}
