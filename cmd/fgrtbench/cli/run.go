package cli

import (
	"context"
	"flag"
	"fmt"
	"runtime"
	"strconv"
	"strings"

	"github.com/fgrtbench/fgrtbench/bench/outdir"
	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/bench/runner"
	"github.com/fgrtbench/fgrtbench/bench/spec"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/internal/command"
	"github.com/fgrtbench/fgrtbench/reports"
	"github.com/fgrtbench/fgrtbench/tasks/reporting"
	"github.com/fgrtbench/fgrtbench/tasks/runstudy"
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
	// report holds the statistics flags of run and reproduce
	// (addStatsFlags) for the report they render.
	report reporting.Options
}

// checkReferenceFlag refuses, before anything runs, a --reference that
// names no method label of the study.
func checkReferenceFlag(ref string, st study.Study) error {
	if ref == "" {
		return nil
	}
	units, err := study.UnitsOf(st)
	if err != nil {
		return err
	}
	if err := study.CheckReference(ref, units); err != nil {
		return fmt.Errorf("--reference: %v", err)
	}
	return nil
}

// addStatsFlags adds the flags that choose how the report's statistics
// compare the methods: the control method, and whether baselines and
// identical labels are ranked.
func addStatsFlags(fs *flag.FlagSet, o *reporting.Options, referenceDefault string) {
	fs.StringVar(&o.Reference, "reference", "", "compare every method with this method label only (Holm over k−1 comparisons, with effect sizes and wins/ties/losses); default: the spec's reference:, "+referenceDefault)
	fs.BoolVar(&o.RankBaselines, "rank-baselines", false, "rank the baselines (majority, and methods a spec declares baseline: true) with the competitors instead of leaving them out of the rank tests")
	fs.BoolVar(&o.KeepDuplicates, "keep-duplicates", false, "rank apart labels with the same result on every fold of every dataset instead of counting them once")
}

func (r *runFlags) add(fs *flag.FlagSet, defaultOut string) {
	r.data.add(fs)
	fs.StringVar(&r.out, "out", defaultOut, "output directory (results.csv, manifest.json, report/)")
	fs.IntVar(&r.jobs, "j", runtime.NumCPU(), "busy threads, 1 to "+strconv.Itoa(runner.MaxJobs)+" (default: the number of CPUs): units run in parallel, and when fewer are left than threads the idle threads go to the running units' loops; a large unit (over 2^20 training cells) asks for up to half the threads, so a study of large units runs two at a time and its peak memory does not grow with -j; results do not depend on it")
	r.memory = newMemoryFlag()
	fs.Var(&r.memory, "memory", memoryUsage)
	fs.StringVar(&r.shard, "shard", "", "run only shard i/N of the units (0/1 = all; default: all, or --shard-count with the job array's index)")
	fs.IntVar(&r.shardCount, "shard-count", 0, "number of shards N in a Slurm job array or Kubernetes Indexed Job: the shard index is SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX (required there)")
	fs.BoolVar(&r.failFast, "fail-fast", false, "stop at the first failing unit")
	fs.BoolVar(&r.profile, "profile", false, "print the time spent per stage (load, prepare, fit, predict, write; summed over the units) when the run ends; the manifest records it either way")
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

func (r *runFlags) resolveShard(env *command.Env) (study.Shard, error) {
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

// options are the runner's settings for study from the flags, with
// progress and notes on stderr.
func (r *runFlags) options(env *command.Env, study study.Study) (runstudy.Options, error) {
	if r.jobs < 1 {
		return runstudy.Options{}, fmt.Errorf("-j %d: need at least 1 thread (the default is the number of CPUs, %d)", r.jobs, runtime.NumCPU())
	}
	shard, err := r.resolveShard(env)
	if err != nil {
		return runstudy.Options{}, err
	}
	if err := r.ext.apply(study); err != nil {
		return runstudy.Options{}, err
	}
	fetcher := r.data.fetcher(env)
	load := func(ctx context.Context, name string) (*datasets.Dataset, error) {
		d, err := loadDatasetFrom(ctx, fetcher, name, study.DataPath(name))
		if err == nil && r.checkData != nil {
			err = r.checkData(name, d)
		}
		return d, err
	}
	memory, memorySource := r.memory.budget()
	return runstudy.Options{Out: r.out, Jobs: r.jobs, Memory: memory, MemorySource: memorySource, Shard: shard, FailFast: r.failFast, NoArtifacts: r.noArtifacts,
		Fresh: r.fresh, Profile: r.profile, Load: load, Progress: runstudy.Progress(env.Stderr, env.StderrIsTerminal),
		UnitTimes: env.Getenv(runstudy.UnitTimesEnv),
		Note:      func(msg string) { fmt.Fprintf(env.Stderr, "fgrtbench: %s\n", msg) }}, nil
}

// execute runs a study with progress (runstudy.Run); the runner keeps the
// manifest.
func execute(ctx context.Context, env *command.Env, rf *runFlags, study study.Study) (runner.Summary, error) {
	o, err := rf.options(env, study)
	if err != nil {
		return runner.Summary{}, err
	}
	return runstudy.Run(ctx, study, o)
}

// runAndReport is run and reproduce: execute, then, unless noReport, the
// report of what finished (runstudy.RunAndReport) and its headline.
func runAndReport(ctx context.Context, env *command.Env, rf *runFlags, study study.Study, noReport bool) error {
	if err := checkReferenceFlag(rf.report.Reference, study); err != nil {
		return err
	}
	if noReport {
		_, err := execute(ctx, env, rf, study)
		return err
	}
	o, err := rf.options(env, study)
	if err != nil {
		return err
	}
	ro := withWarnings(env, rf.report)
	ro.Threads = o.Jobs // the report after the run has the run's threads
	rep, err := runstudy.RunAndReport(ctx, study, o, ro)
	if rep.Path != "" {
		reports.WriteHeadline(env.Stdout, rep.Analysis, rep.Path)
	}
	return err
}

func init() {
	register(runCommand)
	register(mergeCommand)
}

func runCommand() *command.Command {
	c := &command.Command{Name: "run", Short: "run a study from a spec file (JSON or YAML): datasets, protocols, methods, grids", UsageLine: "--spec FILE [flags]",
		Long: `Run runs the study a spec file declares (datasets, protocols, methods with
their parameters, grids and sweeps) and writes its results to --out:
results.csv, manifest.json and, unless --no-report, report/REPORT.md.
A run resumes: the units already in --out are kept, and results of another
study there are refused (--fresh moves them aside). --shard or --shard-count
runs a part of the units, for a job array; merge combines the parts.`}
	fs := &c.Flag
	var rf runFlags
	rf.add(fs, "out")
	addStatsFlags(fs, &rf.report, "else every pair")
	specPath := fs.String("spec", "", "study specification (.json, .yaml or .yml)")
	noReport := fs.Bool("no-report", false, "do not render the report after running")
	c.Run = func(ctx context.Context, env *command.Env, args []string) error {
		if *specPath == "" {
			return usageError("--spec is required")
		}
		study, err := spec.LoadContext(ctx, *specPath)
		if err != nil {
			return runstudy.Interrupted(runner.Summary{}, err)
		}
		if err := rf.applyMissing(&study); err != nil {
			return err
		}
		return runAndReport(ctx, env, &rf, study, *noReport)
	}
	return c
}

func mergeCommand() *command.Command {
	m := &command.Command{Name: "merge", Short: "merge the shards of one study (refuses missing units, other studies, conflicting rows)",
		UsageLine: "--out DIR|FILE [--allow-partial] SHARD_DIR|results.csv ...", Positional: true,
		Long: `Merge combines the shards of one study (their directories, or results.csv
files with their manifest.json beside them) into --out. It refuses missing
units, shards of another study and rows that differ between shards;
--allow-partial writes a merge with units missing, marked as partial in
results.csv, the manifest and the report.`}
	fs := &m.Flag
	out := fs.String("out", "", "merged results: a directory (gets results.csv and manifest.json) or a results file (manifest.json goes beside it)")
	partial := fs.Bool("allow-partial", false, "write the merge even when units are missing, marked as partial (results.csv, manifest, report)")
	m.Run = func(ctx context.Context, env *command.Env, args []string) error {
		if *out == "" || fs.NArg() == 0 {
			return usageError("need --out and at least one input")
		}
		// A first signal stops the merge before it writes; a second one
		// waits until what it writes is written in full (mergeHold).
		var hold mergeHold
		setExitNote(hold.note(*out))
		defer setExitNote(nil)
		path, err := runstudy.Merge(ctx, *out, fs.Args(), runstudy.MergeOptions{AllowPartial: *partial,
			Commit: func() error { return hold.take(ctx) },
			Merged: func(sum outdir.MergeSummary) { hold.done(true); printMerged(env, sum) },
			Report: withWarnings(env, reporting.Options{})})
		hold.done(false)
		if err == nil && path != "" {
			fmt.Fprintf(env.Stdout, "report: %s (rendered again from the merged results)\n", path)
		}
		return err
	}
	return m
}

// printMerged says what a merge wrote, and loudly when it is partial.
func printMerged(env *command.Env, sum outdir.MergeSummary) {
	if sum.Partial {
		fmt.Fprintf(env.Stderr, "fgrtbench merge: PARTIAL: %d of %d units (missing shards %s); marked as partial in %s and %s\n",
			sum.PresentUnits, sum.ExpectedUnits, strings.Join(sum.MissingShards, ", "), sum.ResultsPath, sum.ManifestPath)
	}
	fmt.Fprintf(env.Stdout, "merged %d rows (%d of %d units) from %d inputs into %s\n", sum.Rows, sum.PresentUnits, sum.ExpectedUnits, sum.Inputs, sum.ResultsPath)
}
