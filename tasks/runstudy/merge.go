package runstudy

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/fgrtbench/fgrtbench/bench/outdir"
	"github.com/fgrtbench/fgrtbench/results"
	"github.com/fgrtbench/fgrtbench/tasks/reporting"
)

// MergeOptions are merge's choices and its hooks into the caller.
type MergeOptions struct {
	AllowPartial bool
	// Commit runs once the merge has read and checked everything, just
	// before it writes: an error (a signal) stops it with nothing written.
	Commit func() error
	// Merged receives the summary once the merge is written, before the
	// report is rendered again.
	Merged func(outdir.MergeSummary)
	// Report are the options of the report rendered again.
	Report reporting.Options
}

// Merge merges the shards of one study into out (outdir.Merge) after
// re-deriving each input's artifacts (a shard whose artifacts disagree
// with its own rows is refused before anything is merged). A report
// already in the merged directory shows the results just replaced
// (complete ones, even, over a partial merge): Merge renders it again
// rather than leave it stale, and returns the path of its REPORT.md ("" when
// there was none).
func Merge(ctx context.Context, out string, inputs []string, o MergeOptions) (string, error) {
	if err := reporting.CheckInputs(inputs); err != nil {
		return "", err
	}
	sum, err := outdir.Merge(out, inputs, outdir.MergeOptions{AllowPartial: o.AllowPartial, Commit: o.Commit})
	if errors.Is(err, context.Canceled) {
		return "", fmt.Errorf("interrupted before anything was written: nothing was merged, %s is as it was", out)
	}
	if err != nil {
		return "", err
	}
	if o.Merged != nil {
		o.Merged(sum)
	}
	dir := filepath.Dir(sum.ResultsPath)
	if _, err := os.Stat(filepath.Join(dir, "report", "REPORT.md")); err != nil || filepath.Base(sum.ResultsPath) != results.FileName {
		return "", nil
	}
	path, _, err := reporting.Render(ctx, dir, o.Report)
	if err != nil {
		return "", fmt.Errorf("merged, but %s still shows the results the merge replaced and could not be rendered again: %v", filepath.Join(dir, "report"), err)
	}
	return path, nil
}
