package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/internal/command"
)

// TestFirstSignalStopsEveryStage: a command whose context is already
// cancelled (a first SIGINT or SIGTERM before or during its work) stops
// at the stage it is in, reading a spec, reading a data file or rendering
// a report or its figures, with exit 1, one line saying it was interrupted, and nothing
// written. Before, only a run's units looked at the context: datasets and
// folds read the data and wrote their output, report rendered in full,
// each with exit 0.
func TestFirstSignalStopsEveryStage(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", twoClassCSV(10))
	spec := writeFile(t, dir, "s.yaml", "datasets: ["+data+"]\nfolds: 2\ninner_folds: 2\nmethods: [{name: cart}]\n")
	results := filepath.Join(dir, "res")
	if code, _, e := runCLI("run", "--spec", spec, "--out", results, "--no-report"); code != 0 {
		t.Fatalf("setup run: %d %s", code, e)
	}
	for _, c := range []struct {
		name    string
		args    []string
		written string // must not exist afterwards
		want    string
	}{
		{"run: spec and data", []string{"run", "--spec", spec, "--out", filepath.Join(dir, "out-run")}, filepath.Join(dir, "out-run"), "interrupted before any unit ran"},
		{"datasets: data", []string{"datasets", data}, "", "interrupted by a signal"},
		{"folds: data", []string{"folds", "--dataset", data, "--protocol", "clean", "--out", filepath.Join(dir, "out-folds")}, filepath.Join(dir, "out-folds"), "interrupted by a signal"},
		{"report", []string{"report", "--results", results}, filepath.Join(results, "report", "REPORT.md"), "interrupted before the report was written"},
		{"plot all", []string{"plot", "all", "--results", results}, filepath.Join(results, "report"), "interrupted before any figure was drawn"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			var o, e bytes.Buffer
			env := &command.Env{Stdout: &o, Stderr: &e, Getenv: func(string) string { return "" }}
			code := Main(ctx, env, c.args)
			lines := strings.Split(strings.TrimSpace(e.String()), "\n")
			last := lines[len(lines)-1]
			if code != 1 || !strings.Contains(last, c.want) || o.Len() != 0 {
				t.Errorf("exit %d, stdout %q, last line %q; want exit 1, no output and %q", code, o.String(), last, c.want)
			}
			if c.written != "" {
				if _, err := os.Lstat(c.written); err == nil {
					t.Errorf("%s was written although the command was interrupted", c.written)
				}
			}
		})
	}
}
