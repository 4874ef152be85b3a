package runstudy

import (
	"context"
	"errors"
	"fmt"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/bench/outdir"
	"github.com/fgrtbench/fgrtbench/bench/runner"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/tasks/reporting"
)

// Rendered is the report a run rendered: the path of its REPORT.md and the
// analysis it rendered (the terminal's headline renders it too); the zero
// value when none was.
type Rendered struct {
	Path     string
	Analysis *analysis.Analysis
}

// RunAndReport runs st (Run) and renders the report of what finished into
// o.Out/report, with the report options ro.
func RunAndReport(ctx context.Context, st study.Study, o Options, ro reporting.Options) (Rendered, error) {
	sum, runErr := Run(ctx, st, o)
	return reportAfter(ctx, o, sum, runErr, ro)
}

// reportAfter renders the report after a run. It reports whatever
// finished, even when some units failed: the failures are listed in the
// manifest and the run's error (runErr) is returned. It renders nothing
// when nothing ran, after an interruption, or after a write error (a full
// disk: the run stopped with one message, and the report could only fail
// or be partial); nor for a shard, whose report would pass for the
// study's results (a note says so).
func reportAfter(ctx context.Context, o Options, sum runner.Summary, runErr error, ro reporting.Options) (Rendered, error) {
	if sum.Ran+sum.Skipped == 0 || ctx.Err() != nil || outdir.IsWriteError(runErr) {
		return Rendered{}, runErr
	}
	if !o.Shard.All() {
		o.note("shard %s holds part of the study, so no report: merge the shards, then run 'fgrtbench report' on the merged results", o.Shard)
		return Rendered{}, runErr
	}
	path, a, err := reporting.Render(ctx, o.Out, ro)
	if err != nil {
		return Rendered{}, errors.Join(runErr, fmt.Errorf("results are in %s, but the report failed: %w", o.Out, err))
	}
	return Rendered{Path: path, Analysis: a}, runErr
}
