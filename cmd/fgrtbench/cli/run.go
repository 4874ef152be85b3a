package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/fgrtbench/fgrtbench/bench/outdir"
	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/bench/runner"
	"github.com/fgrtbench/fgrtbench/bench/spec"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/datasets"
)

// runFlags are shared by run and reproduce.
type runFlags struct {
	data       dataFlags
	out        string
	jobs       int
	memory     memoryFlag // memoryflag.go
	shard      string
	shardCount int
	failFast   bool
	fresh      bool
	ext        externalFlags // external_try.go
	profile    bool
	// noArtifacts turns off predictions.csv.gz and models.jsonl.gz (the
	// manifest records "artifacts": "off" and the report says so).
	noArtifacts bool
	// missing is the --missing policy ("" when not given).
	missing string
	// checkData, when set (by check), vets each dataset as it is loaded,
	// before any unit runs.
	checkData func(name string, d *datasets.Dataset) error
}

func (r *runFlags) add(fs *flag.FlagSet, defaultOut string) {
	r.data.add(fs)
	fs.StringVar(&r.out, "out", defaultOut, "output directory (results.csv, manifest.json, report/)")
	fs.IntVar(&r.jobs, "j", runtime.NumCPU(), "parallel work units, 1 to "+strconv.Itoa(runner.MaxJobs)+" (default: the number of CPUs); never more run than units are pending, and results do not depend on it")
	r.memory = newMemoryFlag()
	fs.Var(&r.memory, "memory", memoryUsage)
	fs.StringVar(&r.shard, "shard", "", "run only shard i/N of the units (0/1 = all; default: all, or --shard-count with the job array's index)")
	fs.IntVar(&r.shardCount, "shard-count", 0, "number of shards N in a Slurm job array or Kubernetes Indexed Job: the shard index is SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX (required there)")
	fs.BoolVar(&r.failFast, "fail-fast", false, "stop at the first failing unit")
	fs.BoolVar(&r.profile, "profile", false, "print the time spent per stage (load, prepare, fit, predict, write; summed over the parallel units) when the run ends; the manifest records it either way")
	fs.BoolVar(&r.noArtifacts, "no-artifacts", false, "do not keep each unit's predictions and models (predictions.csv.gz, models.jsonl.gz), for huge sweeps; the manifest and the report say they are off")
	fs.BoolVar(&r.fresh, "fresh", false, "start over: first move an existing --out directory aside (renamed to OUT.replaced-<time>; nothing is deleted)")
	fs.Int64Var(&study.MaxUnits, "max-units", study.DefaultMaxUnits, "refuse a study of more fits than this (units × configurations), before any memory is spent on it")
	fs.StringVar(&r.missing, "missing", "", "missing-value policy (overrides a spec's missing:): drop (the default, and the paper's: rows with a missing input are left out, with a warning), impute (clean and holdout protocols: each missing cell takes the mean or most frequent value of its training fold) or error (refuse data with a missing cell)")
	r.ext.add(fs)
}

// applyMissing sets the study's missing-value policy from --missing when
// it was given.
func (r *runFlags) applyMissing(s *study.Study) error {
	if r.missing == "" {
		return nil
	}
	policy, err := protocol.NormalizeMissing(r.missing)
	if err != nil {
		return fmt.Errorf("--missing: %v", err)
	}
	s.Options.Missing = policy
	return nil
}

func (r *runFlags) resolveShard(env *Env) (study.Shard, error) {
	if r.shard != "" {
		s, err := study.ParseShard(r.shard)
		if err == nil && r.shardCount != 0 && r.shardCount != s.Count {
			err = fmt.Errorf("--shard %s and --shard-count %d disagree", r.shard, r.shardCount)
		}
		return s, err
	}
	s, _, err := study.ShardFromEnv(env.Getenv, r.shardCount)
	return s, err
}

// wholeStudy reports whether the run covers every unit; a shard says on
// stderr why it writes no report (a report of one shard would pass for the
// study's results).
func (r *runFlags) wholeStudy(env *Env) bool {
	s, err := r.resolveShard(env)
	if err == nil && !s.All() {
		fmt.Fprintf(env.Stderr, "fgrtbench: shard %s holds part of the study, so no report: merge the shards, then run 'fgrtbench report' on the merged results\n", s)
	}
	return err == nil && s.All()
}

// execute runs a study with progress; the runner keeps the manifest.
func execute(ctx context.Context, env *Env, rf *runFlags, study study.Study) (runner.Summary, error) {
	if rf.jobs < 1 {
		return runner.Summary{}, fmt.Errorf("-j %d: need at least 1 parallel unit (the default is the number of CPUs, %d)", rf.jobs, runtime.NumCPU())
	}
	shard, err := rf.resolveShard(env)
	if err != nil {
		return runner.Summary{}, err
	}
	if err := rf.ext.apply(study); err != nil {
		return runner.Summary{}, err
	}
	fetcher := rf.data.fetcher(env)
	load := func(ctx context.Context, name string) (*datasets.Dataset, error) {
		d, err := loadDatasetFrom(ctx, fetcher, name, study.DataPath(name))
		if err == nil && rf.checkData != nil {
			err = rf.checkData(name, d)
		}
		return d, err
	}
	// Run checks everything that can be checked (the study, the data, the
	// directory's own study) before it writes anything: a refused study
	// leaves nothing behind.
	r := &runner.Runner{Load: load, OutDir: rf.out, Jobs: rf.jobs, Shard: shard, FailFast: rf.failFast, NoArtifacts: rf.noArtifacts,
		Warn: func(w string) { fmt.Fprintf(env.Stderr, "fgrtbench: warning: %s\n", w) }}
	r.Memory, r.MemorySource = rf.memory.budget()
	if rf.fresh {
		if err := r.Validate(ctx, study); err != nil {
			return runner.Summary{}, err
		}
		moved, err := outdir.MoveAside(rf.out, time.Now())
		if err != nil {
			return runner.Summary{}, err
		}
		if moved != "" {
			fmt.Fprintf(env.Stderr, "fgrtbench: --fresh: moved the previous contents of %s to %s\n", rf.out, moved)
		}
	}
	if env.StderrIsTerminal {
		r.Progress = &barProgress{w: env.Stderr}
	} else {
		r.Progress = &lineProgress{w: env.Stderr}
	}
	start := time.Now()
	sum, runErr := r.Run(ctx, study)
	if (sum.Units == 0 && runErr != nil) || outdir.IsWriteError(runErr) {
		// Refused before any unit was considered, or stopped by a write
		// error: the error is the one message.
		return sum, interrupted(sum, runErr)
	}
	switch {
	case sum.Healed == 1:
		fmt.Fprintf(env.Stderr, "fgrtbench: 1 unit had missing or torn artifacts in %s; its rows were dropped and it ran again\n", rf.out)
	case sum.Healed > 1:
		fmt.Fprintf(env.Stderr, "fgrtbench: %d units had missing or torn artifacts in %s; their rows were dropped and they ran again\n", sum.Healed, rf.out)
	}
	fmt.Fprintf(env.Stderr, "fgrtbench: %d units (%d run, %d resumed, %d failed) in %.1fs, shard %s -> %s\n",
		sum.Units, sum.Ran, sum.Skipped, sum.Failed, time.Since(start).Seconds(), shard, sum.ResultsPath)
	if rf.profile {
		fmt.Fprintf(env.Stderr, "fgrtbench: profile: %s (summed over -j %d)\n", r.Stages(), rf.jobs)
	}
	return sum, interrupted(sum, runErr)
}

// interrupted words a run stopped by a signal (Ctrl-C, a scheduler's
// SIGTERM): what is kept and how to go on, rather than "context canceled".
func interrupted(sum runner.Summary, err error) error {
	switch {
	case !errors.Is(err, context.Canceled):
		return err
	case sum.Units == 0:
		return errors.New("interrupted before any unit ran")
	}
	return fmt.Errorf("interrupted: %d of %d units are done and kept in %s; run the same command again to resume",
		sum.Ran+sum.Skipped, sum.Units, sum.ResultsPath)
}

// loadDataset loads a registry dataset through the fetcher (verified
// against the registry's checksum) or a data file of the user's own, read
// once and parsed from the very bytes its checksum covers. Either way the
// Dataset's Checksum is the file's normalised SHA-256 (the manifest records
// datasets.Identity, the identity of the parsed table).
func loadDataset(ctx context.Context, f *datasets.Fetcher, name string) (*datasets.Dataset, error) {
	return loadDatasetFrom(ctx, f, name, name)
}

// loadDatasetFrom is loadDataset for a study's dataset, named as the study
// names it and read from path (Study.DataPath).
func loadDatasetFrom(ctx context.Context, f *datasets.Fetcher, name, path string) (*datasets.Dataset, error) {
	if !datasets.IsDataFile(name) {
		return f.Load(ctx, name)
	}
	ds, err := datasets.LoadFile(path, datasets.LoadOptions{Progress: loadProgress(path)})
	if err != nil {
		return nil, err
	}
	ds.Name = name
	return ds, nil
}

// loadProgress reports on stderr, every few seconds, how far the reading
// of a large data file is.
func loadProgress(name string) func(read, size int64) {
	var last time.Time
	start := time.Now()
	return func(read, size int64) {
		if size < 64<<20 || time.Since(last) < 2*time.Second {
			return
		}
		if !last.IsZero() || time.Since(start) > 2*time.Second {
			fmt.Fprintf(os.Stderr, "fgrtbench: reading %s: %d%% of %d MB\n", name, 100*read/size, size>>20)
		}
		if last.IsZero() {
			last = start
		} else {
			last = time.Now()
		}
	}
}

// barProgress draws a progress bar on a terminal's stderr.
type barProgress struct {
	w   io.Writer
	bar *progressbar.ProgressBar
}

func (p *barProgress) Start(total int) {
	p.bar = progressbar.NewOptions(total,
		progressbar.OptionSetWriter(p.w),
		progressbar.OptionSetDescription("units"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionThrottle(100*time.Millisecond),
	)
}

func (p *barProgress) Done(u study.Unit, err error) {
	p.bar.Describe(u.Dataset + " " + u.Label)
	_ = p.bar.Add(1)
}

func (p *barProgress) Finish() { _ = p.bar.Finish() }

func init() {
	register(runCommand)
	register(mergeCommand)
}

func runCommand() *Command {
	c := &Command{Name: "run", Short: "run a study from a spec file (JSON or YAML): datasets, protocols, methods, grids", UsageLine: "--spec FILE [flags]",
		Long: `Run runs the study a spec file declares (datasets, protocols, methods with
their parameters, grids and sweeps) and writes its results to --out:
results.csv, manifest.json and, unless --no-report, report/REPORT.md.
A run resumes: the units already in --out are kept, and results of another
study there are refused (--fresh moves them aside). --shard or --shard-count
runs a part of the units, for a job array; merge combines the parts.`}
	fs := &c.Flag
	var rf runFlags
	rf.add(fs, "out")
	specPath := fs.String("spec", "", "study specification (.json, .yaml or .yml)")
	noReport := fs.Bool("no-report", false, "do not render the report after running")
	c.Run = func(ctx context.Context, env *Env, args []string) error {
		if *specPath == "" {
			return usageError("--spec is required")
		}
		study, err := spec.Load(*specPath)
		if err != nil {
			return err
		}
		if err := rf.applyMissing(&study); err != nil {
			return err
		}
		sum, runErr := execute(ctx, env, &rf, study)
		if *noReport {
			return runErr
		}
		return reportAfterRun(ctx, env, &rf, sum, runErr)
	}
	return c
}

// mergeCommitHook, when set (tests), runs when a merge has taken the exit
// hold, before it writes.
var mergeCommitHook func()

func mergeCommand() *Command {
	m := &Command{Name: "merge", Short: "merge the shards of one study (refuses missing units, other studies, conflicting rows)",
		UsageLine: "--out DIR|FILE [--allow-partial] SHARD_DIR|results.csv ...", Positional: true,
		Long: `Merge combines the shards of one study (their directories, or results.csv
files with their manifest.json beside them) into --out. It refuses missing
units, shards of another study and rows that differ between shards;
--allow-partial writes a merge with units missing, marked as partial in
results.csv, the manifest and the report.`}
	fs := &m.Flag
	out := fs.String("out", "", "merged results: a directory (gets results.csv and manifest.json) or a results file (manifest.json goes beside it)")
	partial := fs.Bool("allow-partial", false, "write the merge even when units are missing, marked as partial (results.csv, manifest, report)")
	m.Run = func(ctx context.Context, env *Env, args []string) error {
		if *out == "" || fs.NArg() == 0 {
			return usageError("need --out and at least one input")
		}
		// A shard whose artifacts disagree with its own rows is refused
		// before anything is merged.
		if err := checkInputArtifacts(fs.Args()); err != nil {
			return err
		}
		// A first signal stops the merge before it writes (after the
		// checks, which only read); once it writes, results.csv, the
		// manifest and the artifacts are written in full, and a second
		// signal waits for them (holdExit) so that the directory never
		// holds half a merge.
		var release func()
		written := false
		setExitNote(func() string {
			if written {
				return "exiting now; the merge was written in full to " + *out + " before the exit"
			}
			return "exiting now; nothing was merged, " + *out + " is as it was"
		})
		defer setExitNote(nil)
		commit := func() error {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			release = holdExit()
			if mergeCommitHook != nil {
				mergeCommitHook()
			}
			if ctx.Err() != nil { // a signal while the hold was taken
				release()
				release = nil
				return ctx.Err()
			}
			return nil
		}
		sum, err := outdir.Merge(*out, fs.Args(), outdir.MergeOptions{AllowPartial: *partial, Commit: commit})
		if release != nil {
			written = err == nil
			release()
		}
		if errors.Is(err, context.Canceled) {
			return fmt.Errorf("interrupted before anything was written: nothing was merged, %s is as it was", *out)
		}
		if err != nil {
			return err
		}
		if sum.Partial {
			fmt.Fprintf(env.Stderr, "fgrtbench merge: PARTIAL: %d of %d units (missing shards %s); marked as partial in %s and %s\n",
				sum.PresentUnits, sum.ExpectedUnits, strings.Join(sum.MissingShards, ", "), sum.ResultsPath, sum.ManifestPath)
		}
		fmt.Fprintf(env.Stdout, "merged %d rows (%d of %d units) from %d inputs into %s\n", sum.Rows, sum.PresentUnits, sum.ExpectedUnits, sum.Inputs, sum.ResultsPath)
		// A report already in the directory shows the results just
		// replaced (complete ones, even, over a partial merge): render it
		// again rather than leave it stale.
		dir := filepath.Dir(sum.ResultsPath)
		if _, err := os.Stat(filepath.Join(dir, "report", "REPORT.md")); err == nil && filepath.Base(sum.ResultsPath) == runner.ResultsFile {
			path, _, err := renderReport(ctx, env, dir, &dataFlags{})
			if err != nil {
				return fmt.Errorf("merged, but %s still shows the results the merge replaced and could not be rendered again: %v", filepath.Join(dir, "report"), err)
			}
			fmt.Fprintf(env.Stdout, "report: %s (rendered again from the merged results)\n", path)
		}
		return nil
	}
	return m
}
