package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/outdir"
	"github.com/fgrtbench/fgrtbench/bench/runner"
)

// TestNoReportAfterAWriteError: when a run stopped on a write error (a full
// disk), run and reproduce render no report and add no message of their
// own: the write error is the one message.
func TestNoReportAfterAWriteError(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, runner.ResultsFile), []byte("not read\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	env := &Env{Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }}
	runErr := &outdir.WriteError{Path: filepath.Join(dir, runner.ResultsFile), Err: syscall.ENOSPC}
	err := reportAfterRun(context.Background(), env, &runFlags{out: dir}, runner.Summary{Units: 60, Ran: 12}, runErr)
	if !errors.Is(err, syscall.ENOSPC) || err.Error() != runErr.Error() {
		t.Fatalf("got %v, want the write error alone", err)
	}
	if stdout.Len()+stderr.Len() > 0 {
		t.Fatalf("extra output: %q %q", stdout.String(), stderr.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "report")); !os.IsNotExist(err) {
		t.Fatalf("a report was attempted (%v)", err)
	}
}
