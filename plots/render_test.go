package plots

import (
	"bytes"
	"fmt"
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
	f, err := os.Create(filepath.Join(dir, results.FileName))
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
	figs, err := RenderAll(out, Inputs{Analysis: a})
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
	figs, err = RenderAll(out, Inputs{Analysis: a, Runtime: runtimeRows()})
	if err != nil {
		t.Fatal(err)
	}
	if last := figs[len(figs)-1].Path; last != "figures/runtime_scaling.png" || len(figs) != len(want)+1 {
		t.Errorf("last of %d figures %s, want the runtime figure after the %d of the analysis", len(figs), last, len(want))
	}
	// Timings alone draw the runtime figure only; nothing draws nothing.
	figs, err = RenderAll(out, Inputs{Runtime: runtimeRows(), Methods: paperMethods})
	if err != nil || len(figs) != 1 || figs[0].Path != "figures/runtime_scaling.png" {
		t.Errorf("timings only: %v, %v; want the runtime figure alone", figs, err)
	}
	if figs, err := RenderAll(out, Inputs{}); err != nil || len(figs) != 0 {
		t.Errorf("no inputs: %v, %v; want no figure and no error", figs, err)
	}
}

// TestFigureCaptionsDescribe: every caption of the figure list describes
// what is drawn and names no winner: no comparative verdict on the methods
// and no explanation of a result.
func TestFigureCaptionsDescribe(t *testing.T) {
	dir := t.TempDir()
	writeResults(t, dir, append(comparisonRecords(), ablationRecords("fgrt@ofat", "sweep")...))
	figs, err := RenderAll(filepath.Join(dir, "figures"), Inputs{Analysis: studyOf(t, dir, paperMethods), Runtime: runtimeRows()})
	if err != nil {
		t.Fatal(err)
	}
	if len(figs) < 10 {
		t.Fatalf("%d figures, want every kind the fixture supports", len(figs))
	}
	for _, f := range figs {
		for _, verdict := range []string{"faster", "slower", "better", "worse", "outperform", "comes from", "because", "can stop early", "quirk Q"} {
			if strings.Contains(f.Caption, verdict) {
				t.Errorf("%s: caption says %q, a conclusion rather than what the figure shows: %s", f.Path, verdict, f.Caption)
			}
		}
	}
}

// studyOf reads dir's results.csv and computes its analysis, as the report
// does before it draws any figure.
func studyOf(t *testing.T, dir string, pres results.Presentation) *analysis.Analysis {
	t.Helper()
	recs, err := results.ReadFile(filepath.Join(dir, results.FileName))
	if err != nil {
		t.Fatal(err)
	}
	a, err := analysis.Compute(recs, analysis.Options{Methods: pres, Samples: 2000})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestRenderAllDrawsTheAnalysis: the figures come from the inputs the
// caller loaded, never from a read of their own: with results.csv changed
// afterwards (a run still appending, a merge replacing it) the same inputs
// draw byte-identical figures, so a report's tables and figures show one
// state of the file.
func TestRenderAllDrawsTheAnalysis(t *testing.T) {
	dir := t.TempDir()
	recs := append(comparisonRecords(), ablationRecords("fgrt@ofat", "sweep")...)
	writeResults(t, dir, recs)
	a := studyOf(t, dir, results.Presentation{})
	want, err := RenderAll(filepath.Join(dir, "a"), Inputs{Analysis: a})
	if err != nil {
		t.Fatal(err)
	}
	// The file changes after the caller's read: only one dataset is left.
	writeResults(t, dir, recs[:1])
	got, err := RenderAll(filepath.Join(dir, "b"), Inputs{Analysis: a})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) || len(got) == 0 {
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

// TestRenderAllThreads: figures drawn in parallel (Inputs.Threads) are the
// figures of one thread, byte for byte, listed in the same order with the
// same captions; and when a figure fails (a file of the user's in the way)
// the list ends before it, whatever the threads, with its error.
func TestRenderAllThreads(t *testing.T) {
	dir := t.TempDir()
	recs := append(comparisonRecords(), ablationRecords("fgrt@ofat", "sweep")...)
	writeResults(t, dir, recs)
	a := studyOf(t, dir, results.Presentation{})
	want, err := RenderAll(filepath.Join(dir, "one"), Inputs{Analysis: a, Runtime: runtimeRows(), Threads: 1})
	if err != nil || len(want) < 3 {
		t.Fatalf("%d figures, %v", len(want), err)
	}
	for _, threads := range []int{2, 4, 16} {
		name := fmt.Sprintf("t%d", threads)
		got, err := RenderAll(filepath.Join(dir, name), Inputs{Analysis: a, Runtime: runtimeRows(), Threads: threads})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("Threads %d: %d figures, want %d", threads, len(got), len(want))
		}
		for i := range want {
			if got[i].Caption != want[i].Caption || filepath.Base(got[i].Path) != filepath.Base(want[i].Path) {
				t.Errorf("Threads %d: figure %d is %s, want %s", threads, i, got[i].Path, want[i].Path)
			}
			for _, ext := range []string{".png", ".svg"} {
				stem := strings.TrimSuffix(filepath.Base(want[i].Path), ".png")
				w, errW := os.ReadFile(filepath.Join(dir, "one", stem+ext))
				g, errG := os.ReadFile(filepath.Join(dir, name, stem+ext))
				if errW != nil || errG != nil || !bytes.Equal(w, g) {
					t.Errorf("Threads %d: %s%s differs from one thread's (%v, %v)", threads, stem, ext, errW, errG)
				}
			}
		}
		// A file of the user's where the second figure goes.
		blocked := filepath.Join(dir, name+"-blocked")
		if err := os.MkdirAll(blocked, 0o755); err != nil {
			t.Fatal(err)
		}
		second := strings.TrimSuffix(filepath.Base(want[1].Path), ".png")
		if err := os.WriteFile(filepath.Join(blocked, second+".svg"), []byte("mine"), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err = RenderAll(blocked, Inputs{Analysis: a, Runtime: runtimeRows(), Threads: threads})
		if err == nil || len(got) != 1 || filepath.Base(got[0].Path) != filepath.Base(want[0].Path) {
			t.Errorf("Threads %d, %s.svg in the way: %d figures, %v; want the first alone and the refusal", threads, second, len(got), err)
		}
		if mine, _ := os.ReadFile(filepath.Join(blocked, second+".svg")); string(mine) != "mine" {
			t.Errorf("Threads %d: the user's %s.svg was overwritten", threads, second)
		}
	}
}
