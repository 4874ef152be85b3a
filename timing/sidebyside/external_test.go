package sidebyside

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestExternalMarkdown(t *testing.T) {
	full := ExternalResult{
		Python:   "Python 3.11.2 with scikit-learn 1.2.1",
		Load0:    "0.50 / 0.40 / 0.30",
		Load1:    "1.50 / 0.60 / 0.35",
		Sklearn:  &ExternalStudy{Units: 5, Jobs: 35, J: 2, Process: []float64{40.0, 30.0}, Worker: []float64{2.5, 1.5}},
		Overhead: &ExternalStudy{Units: 10, Jobs: 210, J: 1, Process: []float64{3.0, 2.0, 2.2}, Worker: []float64{0.9, 0.6, 0.63}},
	}
	for _, tc := range []struct {
		name      string
		r         ExternalResult
		want, not []string
	}{
		{"both studies", full, []string{
			"External learners (`fgrtbench speed --external`)",
			"Load average (1/5/15 min) 0.50 / 0.40 / 0.30 before, 1.50 / 0.60 / 0.35 after this task.",
			"(`examples/external/sklearn_tree.py`, Python 3.11.2 with scikit-learn 1.2.1)",
			SklearnStudyText + "; 5 units, 35 adapter jobs, `-j 2`:",
			"| mode | round 1 | round 2 | median | per job |\n|---|---:|---:|---:|---:|\n",
			// medians 35 s and 2 s; per job 35/35 s and 2/35 s.
			"| process (the adapter's Python started per job) | 40.0 s | 30.0 s | 35.0 s | 1.00 s |\n",
			"| worker (one Python per harness worker) | 2.50 s | 1.50 s | 2.00 s | 57 ms |\n",
			"Worker mode was **18× faster** (medians).",
			GoStudyText + "; 10 units, 210 jobs, `-j 1`",
			"| mode | round 1 | round 2 | round 3 | median | per job |\n|---|---:|---:|---:|---:|---:|\n",
			// median 0.63 s over 210 jobs: 3.0 ms.
			"| worker (one adapter process) | 900 ms | 600 ms | 630 ms | 630 ms | 3.00 ms |\n",
			"Worker mode: **3.0 ms per job** beyond the adapter's own work.",
		}, nil},
		{"overhead only", ExternalResult{Overhead: full.Overhead}, []string{"Harness overhead per job", "**3.0 ms per job**"},
			[]string{"scikit-learn", "faster"}},
		{"scikit-learn only", ExternalResult{Python: full.Python, Sklearn: full.Sklearn}, []string{"**18× faster**"},
			[]string{"Harness overhead"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			md := ExternalMarkdown(tc.r)
			for _, w := range tc.want {
				if !strings.Contains(md, w) {
					t.Errorf("ExternalMarkdown lacks %q:\n%s", w, md)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(md, n) {
					t.Errorf("ExternalMarkdown has %q:\n%s", n, md)
				}
			}
		})
	}
	if md := ExternalMarkdown(ExternalResult{}); md != "" {
		t.Errorf("nothing measured gives %q, want no section", md)
	}
}

// TestUntimedResults: the timing columns are blanked wherever they are,
// quoted cells (a config with commas) survive, and the rows are counted.
func TestUntimedResults(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.csv")
	in := "method,fit_seconds,config,predict_seconds,accuracy\n" +
		"ext,0.51,\"command=a b,k=1\",0.02,0.9\n" +
		"ext,0.73,\"command=a b,k=2\",0.01,0.8\n"
	if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	got, rows, err := untimedResults(path)
	want := "method,fit_seconds,config,predict_seconds,accuracy\n" +
		"ext,,\"command=a b,k=1\",,0.9\n" +
		"ext,,\"command=a b,k=2\",,0.8\n"
	if err != nil || got != want || rows != 2 {
		t.Errorf("untimedResults = %q, %d, %v; want %q, 2", got, rows, err, want)
	}
	if _, _, err := untimedResults(filepath.Join(t.TempDir(), "none.csv")); err == nil {
		t.Error("a missing results.csv is not an error")
	}
}

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		xs   []float64
		want float64
	}{{[]float64{3}, 3}, {[]float64{5, 1}, 3}, {[]float64{9, 1, 4}, 4}, {[]float64{4, 1, 3, 2}, 2.5}} {
		if got := median(tc.xs); got != tc.want {
			t.Errorf("median(%v) = %v, want %v", tc.xs, got, tc.want)
		}
	}
}
