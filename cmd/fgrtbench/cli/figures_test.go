package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/results/runtimecsv"
)

// TestReportSaysWhenFiguresAreMissing: a figure step that fails (here a
// malformed runtime.csv beside the results) leaves the report's tables
// standing, but REPORT.md says its figures are incomplete and why instead
// of looking whole.
func TestReportSaysWhenFiguresAreMissing(t *testing.T) {
	tmp, _, shards := shardedStudy(t)
	merged := filepath.Join(tmp, "merged")
	if code, _, e := runCLI(append([]string{"merge", "--out", merged}, shards...)...); code != 0 {
		t.Fatalf("merge: %s", e)
	}
	if err := os.WriteFile(filepath.Join(merged, runtimecsv.FileName), []byte("not,a,runtime\nfile\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, e := runCLI("report", "--results", merged)
	if code != 0 {
		t.Fatalf("report: %s", e)
	}
	if !strings.Contains(e, "figures:") {
		t.Errorf("stderr lacks the figure error: %q", e)
	}
	rep, _ := os.ReadFile(filepath.Join(merged, "report", "REPORT.md"))
	if !strings.Contains(string(rep), "> **Figures incomplete:** ") || !strings.Contains(string(rep), runtimecsv.FileName) {
		t.Fatalf("REPORT.md does not say its figures are incomplete:\n%s", rep)
	}
}
