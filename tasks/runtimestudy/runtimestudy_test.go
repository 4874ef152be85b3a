package runtimestudy

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/results"
	"github.com/fgrtbench/fgrtbench/results/runtimecsv"
	"github.com/fgrtbench/fgrtbench/timing/paperruntime"
)

// TestRunWritesTheStudy: the study's rows go to runtime.csv with its
// figure; timed on several threads, the run says so on Warn (runtime.csv
// has no column for it), and on one thread it says nothing.
func TestRunWritesTheStudy(t *testing.T) {
	for _, c := range []struct {
		threads int
		warn    string
	}{{1, ""}, {2, "each fit may keep 2 threads busy (-j 2); runtime.csv does not record it"}} {
		dir := t.TempDir()
		var stdout, warn strings.Builder
		o := Options{
			Timing: paperruntime.Options{Methods: []string{"cart"}, Samples: []int{40, 60}, SamplesFeatures: 3, Trials: 1, Threads: c.threads},
			Out:    dir, Present: func([]runtimecsv.Row) results.Presentation { return results.Presentation{} },
			Stdout: &stdout, Warn: &warn,
		}
		if err := Run(context.Background(), o); err != nil {
			t.Fatalf("-j %d: %v", c.threads, err)
		}
		rows, err := runtimecsv.ReadFile(filepath.Join(dir, runtimecsv.FileName))
		if err != nil || len(rows) != 2 || rows[0].Method != "cart" || rows[1].NSamples != 60 {
			t.Fatalf("-j %d: rows %+v (%v)", c.threads, rows, err)
		}
		if _, err := os.Stat(filepath.Join(dir, "runtime_scaling.svg")); err != nil {
			t.Errorf("-j %d: no figure: %v", c.threads, err)
		}
		if got := warn.String(); (c.warn == "") != (got == "") || !strings.Contains(got, c.warn) {
			t.Errorf("-j %d: warnings %q, want %q", c.threads, got, c.warn)
		}
	}
}
