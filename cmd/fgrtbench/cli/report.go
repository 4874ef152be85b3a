package cli

import (
	"context"
	"fmt"
	"runtime"
	"strconv"

	"github.com/fgrtbench/fgrtbench/bench/runner"
	"github.com/fgrtbench/fgrtbench/internal/command"
	"github.com/fgrtbench/fgrtbench/reports"
	"github.com/fgrtbench/fgrtbench/stats"
	"github.com/fgrtbench/fgrtbench/tasks/reporting"
)

func init() { register(reportCommand) }

func reportCommand() *command.Command {
	c := &command.Command{Name: "report", Short: "render tables, statistics, figures and REPORT.md from stored results", UsageLine: "[--results DIR]",
		Long: `Report renders the report/ directory of a results directory (tables as
Markdown, LaTeX and CSV, statistics, figures and REPORT.md) from its
results.csv and manifest.json. run and reproduce do this when they finish;
run report after merge, or to render again.`}
	fs := &c.Flag
	var df dataFlags
	df.add(fs)
	dir := fs.String("results", "out", "run directory holding results.csv (and manifest.json)")
	var ro reporting.Options
	addStatsFlags(fs, &ro, "else fgrt for the paper's study (reproduce), else every pair")
	fs.IntVar(&ro.Threads, "j", runtime.NumCPU(), "busy threads, 1 to "+strconv.Itoa(runner.MaxJobs)+" (default: the number of CPUs): the protocols' tests and the figures are computed in parallel; the report does not depend on it")
	fs.Float64Var(&ro.Rope, "rope", stats.DefaultRope, "half-width of the region of practical equivalence of the Bayesian tests, as a fraction of accuracy (0.01 = 1 percentage point)")
	c.Run = func(ctx context.Context, env *command.Env, args []string) error {
		if !(ro.Rope > 0 && ro.Rope < 1) {
			return fmt.Errorf("--rope %v: must be a fraction of accuracy in (0, 1), e.g. 0.01 for one percentage point", ro.Rope)
		}
		path, a, err := reporting.Render(ctx, *dir, withWarnings(env, ro))
		if err != nil {
			return err
		}
		reports.WriteHeadline(env.Stdout, a, path)
		return nil
	}
	return c
}

// withWarnings sends a report's notes to stderr.
func withWarnings(env *command.Env, ro reporting.Options) reporting.Options {
	ro.Warn = func(msg string) { fmt.Fprintf(env.Stderr, "fgrtbench report: %s\n", msg) }
	return ro
}
