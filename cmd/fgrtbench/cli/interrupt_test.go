package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/internal/command"
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
	env := &command.Env{Stdout: &o, Stderr: &e, Getenv: func(string) string { return "" }}
	code := Main(ctx, env, []string{"run", "--spec", spec, "--out", out})
	last := strings.TrimSpace(e.String())
	last = last[strings.LastIndexByte(last, '\n')+1:]
	want := "fgrtbench run: interrupted before any unit ran"
	if code != 1 || last != want {
		t.Fatalf("exit %d, last line %q, want %q", code, last, want)
	}
}
