package runstudy

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/outdir"
	"github.com/fgrtbench/fgrtbench/bench/runner"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/results"
	"github.com/fgrtbench/fgrtbench/tasks/reporting"
)

// TestNoReportAfterRun: after a write error (a full disk), an
// interruption, a run of nothing, or for a shard, no report is attempted
// and the run's error comes back alone: the write error is the one
// message, and only a shard says (in a note) why it has no report.
func TestNoReportAfterRun(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, results.FileName), []byte("not read\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeErr := &outdir.WriteError{Path: filepath.Join(dir, results.FileName), Err: syscall.ENOSPC}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	ran := runner.Summary{Units: 60, Ran: 12}
	for _, c := range []struct {
		name   string
		ctx    context.Context
		shard  study.Shard
		sum    runner.Summary
		runErr error
		note   string
	}{
		{"write error", context.Background(), study.Shard{}, ran, writeErr, ""},
		{"interrupted", cancelled, study.Shard{}, ran, context.Canceled, ""},
		{"nothing ran", context.Background(), study.Shard{}, runner.Summary{Units: 3, Failed: 3}, errors.New("3 units failed"), ""},
		{"a shard", context.Background(), study.Shard{Index: 1, Count: 3}, ran, nil,
			"shard 1/3 holds part of the study, so no report: merge the shards, then run 'fgrtbench report' on the merged results"},
	} {
		var notes []string
		o := Options{Out: dir, Shard: c.shard, Note: func(n string) { notes = append(notes, n) }}
		rep, err := reportAfter(c.ctx, o, c.sum, c.runErr, reporting.Options{})
		if err != c.runErr || rep != (Rendered{}) {
			t.Errorf("%s: got %v %+v, want the run's error %v alone", c.name, err, rep, c.runErr)
		}
		if got := len(notes) > 0; got != (c.note != "") || (got && notes[0] != c.note) {
			t.Errorf("%s: notes %q, want %q", c.name, notes, c.note)
		}
		if _, err := os.Stat(filepath.Join(dir, "report")); !os.IsNotExist(err) {
			t.Fatalf("%s: a report was attempted (%v)", c.name, err)
		}
	}
}
