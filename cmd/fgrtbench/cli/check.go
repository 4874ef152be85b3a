package cli

import (
	"context"
	"fmt"

	"github.com/fgrtbench/fgrtbench/bench/manifest"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/gate"
	"github.com/fgrtbench/fgrtbench/internal/command"
	"github.com/fgrtbench/fgrtbench/tasks/check"
)

func init() { register(checkCommand) }

func checkCommand() *command.Command {
	c := &command.Command{Name: "check", Short: "compare results with a committed baseline (and the authors' numbers); non-zero exit on regression",
		UsageLine: "--baseline FILE [--results DIR | --spec FILE] [--update] [--paper] [flags] | --predictions --results DIR --against REFDIR",
		Long: `Check compares results with a committed baseline row by row and exits
non-zero when an accuracy moved (with --timing-ratio, also when a fit
slowed). It reads the results from --results, or, without --results, runs
the baseline's own study (or --spec) into --out, a temporary directory
removed afterwards unless --out is given. --update rewrites the baseline
from the results instead; --paper also compares with the authors' numbers.

Before any row, check compares the experiment with the one the baseline
records: each dataset's table (its content identity), each learner's
version and the study's canonical form. A difference is named and exits
with its own status, before any row is compared:

  0  every row matches (within declared tolerances)
  1  results moved (the table says which), or check could not run
  2  usage error
  3  data changed: a dataset's table is not the baseline's
  4  learner changed: a learner's version is not the baseline's
  5  study changed: another study (options, methods, configurations,
     datasets), or a baseline that records no experiment (an earlier
     fgrtbench)

The study and the learners are compared before the study runs, each
dataset as it loads; with several differences found together, the lowest
status wins. --update is the only way to accept a change. Relative paths in the baseline's study resolve from the baseline's
directory (data_dir in the baseline moves them), so check means the same
from any working directory.

--predictions --results DIR --against REFDIR compares the stored test-row
predictions (predictions.csv.gz) of two results directories instead and
lists every row whose predicted label changed (key, config, row, old ->
new), for the deterministic methods: a change that leaves every accuracy
unchanged still fails. Scores and timing are not compared.`}
	fs := &c.Flag
	var f checkFlags
	f.run.add(fs, "")
	fs.StringVar(&f.o.Baseline, "baseline", "", "baseline JSON file")
	fs.StringVar(&f.o.Results, "results", "", "read results from this directory instead of running the baseline's study")
	fs.StringVar(&f.o.Spec, "spec", "", "run this study instead of the baseline's own")
	fs.BoolVar(&f.o.Update, "update", false, "rewrite the baseline's rows from the results (review the diff before committing)")
	fs.BoolVar(&f.o.Paper, "paper", false, "also compare paper-protocol FGRT, FGRT*, CART and C4.5 with the authors' published numbers")
	fs.Float64Var(&f.o.TimingRatio, "timing-ratio", 0, "also flag fit times above this multiple of the baseline's, at least 1 (without it, timing is ignored)")
	fs.IntVar(&f.limit, "limit", 40, "print at most this many differences (0 = all)")
	fs.BoolVar(&f.predictions, "predictions", false, "compare the stored predictions of --results with those of --against, row by row (deterministic methods); no baseline")
	fs.StringVar(&f.against, "against", "", "with --predictions: the reference results directory")
	c.Run = func(ctx context.Context, env *command.Env, args []string) error { return runCheck(ctx, env, &f) }
	return c
}

// checkFlags are check's flags: the task's options, the run flags of the
// study it may run, and the output's.
type checkFlags struct {
	o           check.Options
	run         runFlags
	limit       int
	predictions bool
	against     string
}

// runCheck checks results against a baseline (or updates it), or, with
// --predictions, compares two directories' predictions; it prints what
// the check found before the error that fails it.
func runCheck(ctx context.Context, env *command.Env, f *checkFlags) error {
	if f.predictions || f.against != "" {
		if !f.predictions || f.o.Results == "" || f.against == "" {
			return usageError("--predictions needs --results DIR and --against REFDIR")
		}
		return checkPredictions(env, f.o.Results, f.against, f.limit)
	}
	if f.o.Baseline == "" {
		return usageError("--baseline is required")
	}
	if f.o.Results != "" && f.o.Spec != "" && !f.o.Update {
		// Nothing runs: the spec would be silently ignored.
		return fmt.Errorf("--spec names a study to run, but --results reads results instead (with --update, --spec names the study the new baseline records)")
	}
	o := f.o
	o.Out, o.Runner = f.run.out, checkRunner{env: env, rf: &f.run}
	o.Note = func(s string) { fmt.Fprintf(env.Stderr, "fgrtbench check: %s\n", s) }
	out, err := check.Run(ctx, o)
	if out == nil {
		return err
	}
	if out.Updated {
		fmt.Fprintf(env.Stdout, "updated %s with %d rows; review 'git diff %s' before committing\n", o.Baseline, len(out.Baseline.Rows), o.Baseline)
		return err
	}
	if len(out.Diffs) > 0 {
		gate.WriteTable(env.Stdout, out.Diffs, f.limit)
	}
	fmt.Fprintln(env.Stdout, gate.Summary(out.Baseline, out.Diffs))
	if len(out.Paper) > 0 {
		gate.WritePaperTable(env.Stdout, out.Paper)
	}
	return err
}

// checkRunner runs check's study as 'fgrtbench run' would, with check's
// run flags.
type checkRunner struct {
	env *command.Env
	rf  *runFlags
}

func (r checkRunner) Shard() (study.Shard, error)  { return r.rf.resolveShard(r.env) }
func (r checkRunner) Prepare(s *study.Study) error { return r.rf.applyMissing(s) }

func (r checkRunner) Run(ctx context.Context, s study.Study, out string, checkData func(string, *datasets.Dataset) error) error {
	r.rf.out, r.rf.checkData = out, checkData
	_, err := execute(ctx, r.env, r.rf, s)
	return err
}

// checkPredictions compares the predictions of dir with those of ref on
// the rows of deterministic methods (as dir's manifest, else the
// registry, says) and prints the rows that changed.
func checkPredictions(env *command.Env, dir, ref string, limit int) error {
	m, _ := manifest.Read(dir)
	stochastic := stochasticOf(m)
	var bases map[string]string
	if m != nil {
		bases = methodBases(m)
	}
	out, err := check.Predictions(dir, ref, func(label string) bool { return stochastic[label] || stochastic[bases[label]] })
	if out == nil {
		return err
	}
	if len(out.Diffs) > 0 {
		gate.WritePredictionTable(env.Stdout, out.Diffs, limit)
	}
	note := ""
	if out.Skipped > 0 {
		note = fmt.Sprintf("; %d rows of stochastic methods not compared", out.Skipped)
	}
	fmt.Fprintf(env.Stdout, "predictions: %d of %d compared rows differ%s\n", len(out.Diffs), out.Compared, note)
	return err
}
