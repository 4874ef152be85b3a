package cli

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/fgrtbench/fgrtbench/bench/runner"
	"github.com/fgrtbench/fgrtbench/internal/command"
	"github.com/fgrtbench/fgrtbench/tasks/speedrun"
	"github.com/fgrtbench/fgrtbench/timing/paperruntime"
	"github.com/fgrtbench/fgrtbench/timing/sidebyside"
)

func init() { register(speedCommand) }

// scalingEnv is the environment of speed --scaling's children (this
// process's when nil); tests make their binary act as fgrtbench with it.
var scalingEnv []string

// speedLong is the speed command's help.
const speedLong = `Speed times fgrtbench's learners side by side with scikit-learn's trees and
Weka's J48 and JRip (each when installed) on the same data and prints the
table with ratios. -j N lets each of our timed fits keep N threads busy
(its learner's parallel loops; the models are the same). --large-data adds
a 10^6-row study (reading the file beside pandas.read_csv, then a clean
FGRT and CART study with its report): wall time and peak memory.
--exfuzzy DIR (or $FGRT_EXFUZZY), a checkout of Fuminides/ex-fuzzy at
96f0cf2d, adds FuzzyCART beside Ex-Fuzzy's own Python
fit (driven by fgrtbench's script, pymoo stubbed) on the clean protocol's
training folds of ring and spambase: the fit-time ratio and whether the
trees have the same leaf count; without it that comparison is skipped with
a message. --external times an external learner's study in process mode
and in worker mode side by side (the scikit-learn example, and the Go test
adapter for the harness's cost per job; run from the repository root).
--markdown prints it as the generated performance block,
between its markers, which scripts/speed.sh --readme splices into
docs/performance.md.

--scaling instead runs whole studies, each at -j 1, 2, 4, … up to the
number of CPUs (--scaling-j to choose), every run a fresh
'fgrtbench reproduce' process: the paper's study as ./run.sh runs it and
the 10^6 × 20 study of docs/large-data.md (--scaling-studies to choose).
It prints wall time, speed-up over -j 1 and over -j 2, efficiency and the
child's peak memory, and writes them as ` + sidebyside.ScalingFile + ` into --out.
With --versus BIN (another build, such as scripts/versus.sh REV makes)
every run is made by both builds, alternately, --rounds times, the order
swapped every round; the paper study's report is timed after each run,
and each run's fit seconds are summed per method from its results.csv.
It prints each build's medians and their ratios, and writes every run as
` + sidebyside.VersusFile + ` into --out.`

func speedCommand() *command.Command {
	c := &command.Command{Name: "speed", Short: "time fgrtbench against scikit-learn and Weka (when installed) on the same data; print the table with ratios",
		UsageLine: "[--python /usr/bin/python3] [--weka /usr/share/java/weka.jar] [--large] [--large-data] [--external] [--run-sh] [--markdown] [-j 1] [--scaling [--scaling-studies paper,large] [--scaling-j 1,2,4] [--scaling-rows N] [--scaling-methods a,b] [--scaling-data DIR] [--versus BIN [--rounds 3]] [--out DIR]]",
		Long:      speedLong}
	fs := &c.Flag
	var o speedrun.Options
	fs.StringVar(&o.Python, "python", "/usr/bin/python3", "Python interpreter with scikit-learn (skipped when it cannot import sklearn; empty skips)")
	fs.StringVar(&o.Speed.WekaJar, "weka", "/usr/share/java/weka.jar", "Weka's jar (skipped when absent; empty skips)")
	fs.BoolVar(&o.Speed.Large, "large", false, "also fit CART and the entropy tree on 10^6 rows (scikit-learn takes minutes)")
	fs.IntVar(&o.Speed.Threads, "j", 1, "threads each of our timed fits may keep busy, 1 to "+strconv.Itoa(runner.MaxJobs)+" (its learner's parallel loops)")
	fs.BoolVar(&o.LargeData, "large-data", false, "also generate a 10^6 × 20 CSV and time reading it (beside pandas.read_csv when installed) and a clean study of FGRT and CART on it (-j 2): wall time and peak memory; minutes")
	fs.BoolVar(&o.External, "external", false, "also run a reduced study of the scikit-learn example's external method (examples/external) in process and in worker mode alternately, and one of the Go test adapter for the harness's cost per job (run from the repository root; under 2 minutes)")
	fs.BoolVar(&o.RunSh, "run-sh", false, "also time ./run.sh and the FGA hold-out study "+speedrun.FGAHoldoutSpec+" (run from the repository root)")
	fs.StringVar(&o.ExFuzzy, "exfuzzy", "", "checkout of Fuminides/ex-fuzzy at 96f0cf2d (or its ex_fuzzy/ex_fuzzy): also time FuzzyCART beside Ex-Fuzzy's fit on the clean folds of ring and spambase (default $"+sidebyside.ExFuzzyEnv+"; skipped when neither is given)")
	fs.BoolVar(&o.Markdown, "markdown", false, "print the generated performance block with its begin and end markers, for scripts/speed.sh --readme to splice into docs/performance.md (with --run-sh, as that block is made)")
	scaling := fs.Bool("scaling", false, "instead time whole studies at several -j, each a fresh reproduce process: wall time, speed-up, efficiency, peak memory")
	studies := newListFlag(fs, "scaling-studies", strings.Join(sidebyside.ScalingStudies, ","), "with --scaling: the studies to time (paper, large)")
	jobs := newListFlag(fs, "scaling-j", "", "with --scaling: the -j values (default 1,2,4,… up to the number of CPUs)")
	rows := fs.Int("scaling-rows", paperruntime.LargeRows, "with --scaling: rows of the large study's generated CSV (fewer for a quick check)")
	data := fs.String("scaling-data", "", "with --scaling: directory for the large study's generated CSV (large-ROWSxCOLS.csv), kept and reused by later runs, and for each run's output while it runs (default: a temporary directory, removed)")
	methods := newListFlag(fs, "scaling-methods", "", "with --scaling: run the paper study with these methods only (reproduce --methods … --no-variants), e.g. fuzzycart")
	versus := fs.String("versus", "", "with --scaling: another build's fgrtbench executable (an earlier revision; scripts/versus.sh builds one) run beside this one, alternately, each study's report and fit seconds per method included; writes "+sidebyside.VersusFile)
	rounds := fs.Int("rounds", 1, "with --scaling: runs of each study at each -j in each build (the figures are their medians; with --versus the builds alternate and swap order every round)")
	fs.StringVar(&o.ScalingOut, "out", "out", "with --scaling: output directory (the table as "+sidebyside.ScalingFile+")")
	c.Run = func(ctx context.Context, env *command.Env, args []string) error {
		if err := checkListFlags(fs, "scaling-studies", "scaling-j", "scaling-methods"); err != nil {
			return err
		}
		if err := onlyWith(fs, "scaling", *scaling, "scaling-studies", "scaling-j", "scaling-rows", "scaling-methods", "scaling-data", "versus", "rounds", "out"); err != nil {
			return err
		}
		var err error
		if o.Binary, err = os.Executable(); err != nil {
			return err
		}
		if *scaling {
			o.Scaling = &sidebyside.ScalingOptions{Rows: *rows, Cols: paperruntime.LargeCols, Env: scalingEnv, Versus: *versus, Rounds: *rounds, Dir: *data}
			if o.Scaling.Methods, err = methods.items(); err != nil {
				return err
			}
			if o.Scaling.Studies, err = studies.items(); err != nil {
				return err
			}
			if o.Scaling.Jobs, err = jobs.ints(); err != nil {
				return err
			}
		}
		if o.ExFuzzy == "" && env.Getenv != nil {
			o.ExFuzzy = env.Getenv(sidebyside.ExFuzzyEnv)
		}
		o.Stdout, o.Stderr = env.Stdout, env.Stderr
		return speedrun.Run(ctx, o)
	}
	return c
}

// onlyWith refuses the flags named when flag on is not set: they would do
// nothing without it.
func onlyWith(fs *flag.FlagSet, on string, set bool, names ...string) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		for _, n := range names {
			if f.Name == n && !set && err == nil {
				err = fmt.Errorf("--%s applies to --%s only", n, on)
			}
		}
	})
	return err
}
