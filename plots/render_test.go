package plots

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/results"
)

// writeResults writes the fixture rows as results.csv. The fixtures give
// accuracies only; every reader holds a row to accuracy = correct / n_test,
// so each row gets counts out of a million that round to its accuracy.
func writeResults(t *testing.T, dir string, recs []results.Record) {
	t.Helper()
	recs = append([]results.Record(nil), recs...)
	for i := range recs {
		const n = 1_000_000
		recs[i].NTest, recs[i].Correct = n, int(math.Round(recs[i].Accuracy*n))
		recs[i].Accuracy = float64(recs[i].Correct) / n
	}
	f, err := os.Create(filepath.Join(dir, ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := results.Write(f, recs); err != nil {
		t.Fatal(err)
	}
}

func TestRenderAll(t *testing.T) {
	dir := t.TempDir()
	recs := append(comparisonRecords(), ablationRecords("fgrt@ofat", "sweep")...)
	writeResults(t, dir, recs)
	out := filepath.Join(dir, "report", "figures")
	a := studyOf(t, dir, paperMethods)
	figs, err := RenderAll(dir, out, RenderOptions{Analysis: a})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range figs {
		paths = append(paths, f.Path)
		if f.Caption == "" {
			t.Errorf("%s has no caption", f.Path)
		}
		if _, err := os.Stat(filepath.Join(dir, "report", f.Path)); err != nil {
			t.Error(err)
		}
		// Every figure is also an SVG beside its PNG.
		svg, err := os.ReadFile(filepath.Join(dir, "report", strings.TrimSuffix(f.Path, ".png")+".svg"))
		if err != nil || !bytes.Contains(svg, []byte("<svg")) {
			t.Errorf("%s: no SVG beside it (%v)", f.Path, err)
		}
	}
	// ablationRecords holds one stray clean-protocol sweep row, hence a clean OFAT figure.
	// The unselected grid points of the comparison records make test-selected
	// sweeps of every method; the fgrt@ofat sweep varies three parameters.
	want := []string{"figures/ablation_pooled.png", "figures/ablation_ofat_paper.png", "figures/ablation_ofat_clean.png",
		"figures/sweep_paper_fgrt.png", "figures/sweep_paper_fgrt_ofat.png", "figures/sweep_paper_fgrt-opt.png", "figures/sweep_paper_cart.png", "figures/sweep_paper_ripper.png",
		"figures/front_paper.png", "figures/front_clean.png", "figures/partition_impact_paper.png", "figures/cd_paper.png"}
	if !reflect.DeepEqual(paths, want) {
		t.Errorf("figures %v, want %v", paths, want)
	}
	if err := results.WriteRuntimeFile(filepath.Join(dir, RuntimeFile), runtimeRows()); err != nil {
		t.Fatal(err)
	}
	figs, err = RenderAll(dir, out, RenderOptions{Analysis: a})
	if err != nil {
		t.Fatal(err)
	}
	if last := figs[len(figs)-1].Path; last != "figures/runtime_scaling.png" {
		t.Errorf("last figure %s, want the runtime figure", last)
	}
	if _, err := RenderAll(t.TempDir(), out, RenderOptions{}); err == nil {
		t.Error("empty directory: no error")
	}
	// Results without their analysis are refused, never analysed here.
	if _, err := RenderAll(dir, out, RenderOptions{Methods: paperMethods}); err == nil || !strings.Contains(err.Error(), "no analysis") {
		t.Errorf("results.csv without an analysis: %v, want a refusal", err)
	}
}

// studyOf reads dir's results.csv and computes its analysis, as the report
// does before it draws any figure.
func studyOf(t *testing.T, dir string, pres results.Presentation) *analysis.Analysis {
	t.Helper()
	recs, err := results.ReadFile(filepath.Join(dir, ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	a, err := analysis.Compute(recs, analysis.Options{Methods: pres, Samples: 2000})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestRenderAllDrawsTheAnalysis: the figures come from the analysis the
// caller computed, never from a read of their own, even when results.csv
// changed afterwards (a run still appending, a merge replacing it), so a
// report's tables and figures show one state of the file.
func TestRenderAllDrawsTheAnalysis(t *testing.T) {
	dir := t.TempDir()
	recs := append(comparisonRecords(), ablationRecords("fgrt@ofat", "sweep")...)
	writeResults(t, dir, recs)
	a := studyOf(t, dir, results.Presentation{})
	want, err := RenderAll(dir, filepath.Join(dir, "a"), RenderOptions{Analysis: a})
	if err != nil {
		t.Fatal(err)
	}
	// The file changes after the caller's read: only one dataset is left.
	writeResults(t, dir, recs[:1])
	got, err := RenderAll(dir, filepath.Join(dir, "b"), RenderOptions{Analysis: a})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d figures from the analysis after the file changed, %d before", len(got), len(want))
	}
	for i := range want {
		a, errA := os.ReadFile(filepath.Join(dir, filepath.FromSlash(want[i].Path)))
		b, errB := os.ReadFile(filepath.Join(dir, filepath.FromSlash(got[i].Path)))
		if errA != nil || errB != nil {
			t.Fatal(errA, errB)
		}
		if want[i].Caption != got[i].Caption || !reflect.DeepEqual(a, b) {
			t.Errorf("%s differs from the figure drawn before results.csv changed", got[i].Path)
		}
	}
}
