package runstudy

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/runner"
)

// TestInterrupted: a run stopped by a signal says how much is kept and how
// to resume, not Go's "context canceled"; any other error is left as is.
func TestInterrupted(t *testing.T) {
	other := errors.New("disk full")
	for _, c := range []struct {
		name string
		sum  runner.Summary
		err  error
		want string
	}{
		{"units done", runner.Summary{Units: 30, Ran: 3, Skipped: 4, ResultsPath: "o/results.csv"}, context.Canceled,
			"interrupted: 7 of 30 units are done and kept in o/results.csv; run the same command again to resume"},
		{"wrapped", runner.Summary{Units: 2, Ran: 1, ResultsPath: "r.csv"}, fmt.Errorf("unit x: %w", context.Canceled),
			"interrupted: 1 of 2 units are done and kept in r.csv; run the same command again to resume"},
		{"before any unit", runner.Summary{}, context.Canceled, "interrupted before any unit ran"},
		{"another error", runner.Summary{Units: 3}, other, "disk full"},
	} {
		err := Interrupted(c.sum, c.err)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
	if err := Interrupted(runner.Summary{Units: 3, Ran: 3}, nil); err != nil {
		t.Errorf("no error: got %v", err)
	}
}
