// Package runstudy is the work of the run, reproduce and merge commands:
// run a study into an output directory with progress and an account of
// what ran (Run), and merge the shards of one study (Merge), each worded
// for a user who has to decide what to do next.
package runstudy

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/fgrtbench/fgrtbench/bench/outdir"
	"github.com/fgrtbench/fgrtbench/bench/runner"
	"github.com/fgrtbench/fgrtbench/bench/study"
)

// Options are how a study runs (the runner's settings) and where its notes
// go.
type Options struct {
	Out  string
	Jobs int
	// Memory is the run's memory budget in bytes (0: none) and
	// MemorySource where it came from (runner.Runner's fields).
	Memory                int64
	MemorySource          string
	Shard                 study.Shard
	FailFast, NoArtifacts bool
	// Fresh first moves an existing Out aside (nothing is deleted), once
	// the study is known to be runnable.
	Fresh bool
	// Profile notes the time spent per stage when the run ends.
	Profile bool
	Load    runner.Loader
	// Progress shows the units as they finish (Progress below).
	Progress runner.Progress
	// UnitTimes is a new file for the run's schedule (UnitTimesEnv;
	// empty: none), written when the run ends, also when it failed or was
	// interrupted.
	UnitTimes string
	// Note receives each line for the user (warnings, what was healed,
	// the summary); nil drops them.
	Note func(string)
}

func (o Options) note(format string, args ...any) {
	if o.Note != nil {
		o.Note(fmt.Sprintf(format, args...))
	}
}

// Run runs st into o.Out and returns the runner's summary. The runner
// checks everything it can (the study, the data, the directory's own
// study) before it writes anything: a refused study leaves nothing behind.
func Run(ctx context.Context, st study.Study, o Options) (runner.Summary, error) {
	r := &runner.Runner{Load: o.Load, OutDir: o.Out, Jobs: o.Jobs, Memory: o.Memory, MemorySource: o.MemorySource, Shard: o.Shard, FailFast: o.FailFast, NoArtifacts: o.NoArtifacts,
		Progress: o.Progress, Warn: func(w string) { o.note("warning: %s", w) }}
	var times []runner.UnitTime
	if o.UnitTimes != "" {
		if err := checkUnitTimesPath(o.UnitTimes); err != nil {
			return runner.Summary{}, err
		}
		r.UnitTimes = func(t runner.UnitTime) { times = append(times, t) }
	}
	if o.Fresh {
		if err := moveAside(ctx, r, st, o); err != nil {
			return runner.Summary{}, err
		}
	}
	start := time.Now()
	sum, runErr := r.Run(ctx, st)
	if o.UnitTimes != "" && sum.Units > 0 {
		if err := writeUnitTimes(o.UnitTimes, times); err != nil {
			o.note("%v", err)
		} else {
			o.note("unit times of %d units -> %s", len(times), o.UnitTimes)
		}
	}
	if (sum.Units == 0 && runErr != nil) || outdir.IsWriteError(runErr) {
		// Refused before any unit was considered, or stopped by a write
		// error: the error is the one message.
		return sum, Interrupted(sum, runErr)
	}
	switch {
	case sum.Healed == 1:
		o.note("1 unit had missing or torn artifacts in %s; its rows were dropped and it ran again", o.Out)
	case sum.Healed > 1:
		o.note("%d units had missing or torn artifacts in %s; their rows were dropped and they ran again", sum.Healed, o.Out)
	}
	o.note("%d units (%d run, %d resumed, %d failed) in %.1fs, shard %s -> %s",
		sum.Units, sum.Ran, sum.Skipped, sum.Failed, time.Since(start).Seconds(), o.Shard, sum.ResultsPath)
	if o.Profile {
		o.note("profile: %s (summed over -j %d)", r.Stages(), o.Jobs)
	}
	return sum, Interrupted(sum, runErr)
}

// moveAside is --fresh: the study is validated first, so that a refused
// one moves nothing.
func moveAside(ctx context.Context, r *runner.Runner, st study.Study, o Options) error {
	if err := r.Validate(ctx, st); err != nil {
		return err
	}
	moved, err := outdir.MoveAside(o.Out, time.Now())
	if err != nil {
		return err
	}
	if moved != "" {
		o.note("--fresh: moved the previous contents of %s to %s", o.Out, moved)
	}
	return nil
}

// Interrupted words a run stopped by a signal (Ctrl-C, a scheduler's
// SIGTERM): what is kept and how to go on, rather than "context canceled".
// Any other error comes back as it is.
func Interrupted(sum runner.Summary, err error) error {
	switch {
	case !errors.Is(err, context.Canceled):
		return err
	case sum.Units == 0:
		return errors.New("interrupted before any unit ran")
	}
	return fmt.Errorf("interrupted: %d of %d units are done and kept in %s; run the same command again to resume",
		sum.Ran+sum.Skipped, sum.Units, sum.ResultsPath)
}
