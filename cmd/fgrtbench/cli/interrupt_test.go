package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/runner"
)

// TestInterruptSaysWhatIsKept: a run stopped by a signal (its context
// cancelled) ends with one line saying how much is kept and how to resume,
// not Go's "context canceled".
func TestInterruptSaysWhatIsKept(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", twoClassCSV(10))
	spec := writeFile(t, dir, "s.yaml", "datasets: ["+data+"]\nfolds: 2\ninner_folds: 2\nmethods: [{name: cart}]\n")
	out := filepath.Join(dir, "out")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var o, e bytes.Buffer
	env := &Env{Stdout: &o, Stderr: &e, Getenv: func(string) string { return "" }}
	code := Main(ctx, env, []string{"run", "--spec", spec, "--out", out})
	last := strings.TrimSpace(e.String())
	last = last[strings.LastIndexByte(last, '\n')+1:]
	want := "fgrtbench run: interrupted before any unit ran"
	if code != 1 || last != want {
		t.Fatalf("exit %d, last line %q, want %q", code, last, want)
	}
	// Stopped with units done: the count and the way to resume.
	err := interrupted(runner.Summary{Units: 30, Ran: 3, Skipped: 4, ResultsPath: "o/results.csv"}, context.Canceled)
	if want := "interrupted: 7 of 30 units are done and kept in o/results.csv; run the same command again to resume"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
}
