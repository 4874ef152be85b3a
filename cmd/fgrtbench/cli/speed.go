package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/timing/speed"
)

// fgaHoldoutSpec is the paper's FGA setting on its hold-out (ten datasets,
// ten seeds), whose run time the README quotes.
const fgaHoldoutSpec = "examples/specs/fga-holdout.yaml"

func init() { register(speedCommand) }

func speedCommand() *Command {
	c := &Command{Name: "speed", Short: "time fgrtbench against scikit-learn and Weka (when installed) on the same data; print the table with ratios",
		UsageLine: "[--python /usr/bin/python3] [--weka /usr/share/java/weka.jar] [--large] [--large-data] [--external] [--run-sh] [--markdown]",
		Long: `Speed times fgrtbench's learners side by side with scikit-learn's trees and
Weka's J48 and JRip (each when installed) on the same data and prints the
table with ratios. --large-data adds a 10^6-row study (reading the file
beside pandas.read_csv, then a clean FGRT and CART study with its report):
wall time and peak memory. --exfuzzy DIR (or $FGRT_EXFUZZY), a checkout of
Fuminides/ex-fuzzy at 96f0cf2d, adds FuzzyCART beside Ex-Fuzzy's own Python
fit (driven by fgrtbench's script, pymoo stubbed) on the clean protocol's
training folds of ring and spambase: the fit-time ratio and whether the
trees have the same leaf count; without it that comparison is skipped with
a message. --external times an external learner's study in process mode
and in worker mode side by side (the scikit-learn example, and the Go test
adapter for the harness's cost per job; run from the repository root).
--markdown prints it as the generated performance block,
between its markers, which scripts/speed.sh --readme splices into
docs/performance.md.`}
	fs := &c.Flag
	python := fs.String("python", "/usr/bin/python3", "Python interpreter with scikit-learn (skipped when it cannot import sklearn; empty skips)")
	weka := fs.String("weka", "/usr/share/java/weka.jar", "Weka's jar (skipped when absent; empty skips)")
	large := fs.Bool("large", false, "also fit CART and the entropy tree on 10^6 rows (scikit-learn takes minutes)")
	largeData := fs.Bool("large-data", false, "also generate a 10^6 × 20 CSV and time reading it (beside pandas.read_csv when installed) and a clean study of FGRT and CART on it (-j 2): wall time and peak memory; minutes")
	externalTask := fs.Bool("external", false, "also run a reduced study of the scikit-learn example's external method (examples/external) in process and in worker mode alternately, and one of the Go test adapter for the harness's cost per job (run from the repository root; under 2 minutes)")
	runSh := fs.Bool("run-sh", false, "also time ./run.sh and the FGA hold-out study "+fgaHoldoutSpec+" (run from the repository root)")
	exFuzzy := fs.String("exfuzzy", "", "checkout of Fuminides/ex-fuzzy at 96f0cf2d (or its ex_fuzzy/ex_fuzzy): also time FuzzyCART beside Ex-Fuzzy's fit on the clean folds of ring and spambase (default $"+speed.ExFuzzyEnv+"; skipped when neither is given)")
	markdown := fs.Bool("markdown", false, "print the generated performance block with its begin and end markers, for scripts/speed.sh --readme to splice into docs/performance.md (with --run-sh, as that block is made)")
	c.Run = func(ctx context.Context, env *Env, args []string) error {
		o := speed.Options{Python: *python, WekaJar: *weka, Large: *large, Log: env.Stderr}
		if o.Python != "" && exec.Command(o.Python, "-c", "import sklearn").Run() != nil {
			fmt.Fprintf(env.Stderr, "fgrtbench speed: %s cannot import sklearn: scikit-learn skipped (scripts/speed.sh --install installs python3-sklearn)\n", o.Python)
			o.Python = ""
		}
		if o.WekaJar != "" {
			if _, err := os.Stat(o.WekaJar); err != nil {
				fmt.Fprintf(env.Stderr, "fgrtbench speed: no %s: Weka skipped (scripts/speed.sh --install installs weka)\n", o.WekaJar)
				o.WekaJar = ""
			}
		}
		m := speed.DescribeMachine(ctx, o)
		rs, err := speed.Run(ctx, o)
		if err != nil {
			return err
		}
		exDir := *exFuzzy
		if exDir == "" && env.Getenv != nil {
			exDir = env.Getenv(speed.ExFuzzyEnv)
		}
		fc, err := runExFuzzy(ctx, env, exDir, *python)
		if err != nil {
			return err
		}
		rs = append(rs, fc...)
		var runs []speed.WholeRun
		if *runSh {
			fmt.Fprintln(env.Stderr, "fgrtbench speed: timing ./run.sh")
			r, err := speed.TimeRunSh(ctx, ".", env.Stderr)
			if err != nil {
				return err
			}
			runs = append(runs, r)
			self, err := os.Executable()
			if err != nil {
				return err
			}
			fmt.Fprintf(env.Stderr, "fgrtbench speed: timing the paper's FGA hold-out (%s)\n", fgaHoldoutSpec)
			r, err = speed.TimeStudy(ctx, self, ".", fgaHoldoutSpec, env.Stderr)
			if err != nil {
				return err
			}
			runs = append(runs, r)
		}
		var largeRun *speed.LargeResult
		if *largeData {
			self, err := os.Executable()
			if err != nil {
				return err
			}
			lo := speed.LargeOptions{Binary: self, Python: *python, Log: env.Stderr}
			if lo.Python != "" && exec.Command(lo.Python, "-c", "import pandas").Run() != nil {
				fmt.Fprintf(env.Stderr, "fgrtbench speed: %s cannot import pandas: pandas.read_csv skipped (apt-get install python3-pandas)\n", lo.Python)
				lo.Python = ""
			}
			r, err := speed.RunLarge(ctx, lo)
			if err != nil {
				return err
			}
			largeRun = &r
		}
		var externalRun *speed.ExternalResult
		if *externalTask {
			r, err := runExternal(ctx, env, *python)
			if err != nil {
				return err
			}
			externalRun = r
		}
		m.Finish()
		block := speed.Markdown(m, rs, runs)
		if largeRun != nil {
			block += "\n" + speed.LargeMarkdown(*largeRun)
		}
		if externalRun != nil {
			block += "\n" + speed.ExternalMarkdown(*externalRun)
		}
		if *markdown {
			block = markedBlock(block)
		}
		fmt.Fprint(env.Stdout, block)
		return nil
	}
	return c
}

// externalExamples and goAdapterSource are where --external finds the
// scikit-learn example's adapter and the Go test adapter's source, from the
// repository root.
const (
	externalExamples = "examples/external"
	goAdapterSource  = "bench/external/externaltest/testdata/goadapter"
)

// runExternal runs the --external task with what this machine has: the
// scikit-learn study needs python with sklearn and the example's files, the
// overhead study the go command and the adapter's source; each is skipped
// with a message otherwise (nil when both are).
func runExternal(ctx context.Context, env *Env, python string) (*speed.ExternalResult, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	o := speed.ExternalOptions{Binary: self, Python: python, Examples: externalExamples, GoAdapter: goAdapterSource, Log: env.Stderr}
	if _, err := os.Stat(filepath.Join(externalExamples, "sklearn_tree.py")); err != nil {
		fmt.Fprintf(env.Stderr, "fgrtbench speed: no %s/sklearn_tree.py (run from the repository root): external scikit-learn study skipped\n", externalExamples)
		o.Python = ""
	} else if o.Python == "" || exec.Command(o.Python, "-c", "import sklearn").Run() != nil {
		fmt.Fprintf(env.Stderr, "fgrtbench speed: no Python with scikit-learn (--python %q): external scikit-learn study skipped (scripts/speed.sh --install installs python3-sklearn)\n", o.Python)
		o.Python = ""
	}
	if o.Go, err = exec.LookPath("go"); err != nil {
		fmt.Fprintln(env.Stderr, "fgrtbench speed: no go command: the external harness-overhead study (Go test adapter) skipped")
		o.GoAdapter = ""
	} else if _, err := os.Stat(goAdapterSource); err != nil {
		fmt.Fprintf(env.Stderr, "fgrtbench speed: no %s (run from the repository root): the external harness-overhead study skipped\n", goAdapterSource)
		o.GoAdapter = ""
	}
	if o.Python == "" && o.GoAdapter == "" {
		return nil, nil
	}
	fmt.Fprintln(env.Stderr, "fgrtbench speed: timing external learners in process and worker mode")
	r, err := speed.RunExternal(ctx, o)
	if err != nil {
		return nil, fmt.Errorf("speed --external: %w", err)
	}
	return &r, nil
}

// markedBlock frames a performance block in the markers that delimit it in
// a document: the very text speed.UpdateFile puts between a file's markers,
// the markers included, so that a script can replace the marked lines with
// it.
func markedBlock(block string) string {
	return speed.BeginMarker + "\n" + strings.TrimRight(block, "\n") + "\n" + speed.EndMarker + "\n"
}

// runExFuzzy times FuzzyCART beside Ex-Fuzzy's Python fit when a checkout
// is given and the interpreter imports numpy; otherwise it says which is
// missing and times nothing (the comparison is of the two fits, and the
// datasets it reads need no fetching without it).
func runExFuzzy(ctx context.Context, env *Env, dir, python string) ([]speed.Result, error) {
	if dir == "" {
		fmt.Fprintf(env.Stderr, "fgrtbench speed: no Ex-Fuzzy checkout (--exfuzzy DIR or %s): FuzzyCART against Ex-Fuzzy skipped\n", speed.ExFuzzyEnv)
		return nil, nil
	}
	modules, err := speed.ExFuzzyModules(dir)
	if err != nil {
		return nil, fmt.Errorf("--exfuzzy: %w", err)
	}
	if python == "" || exec.Command(python, "-c", "import numpy").Run() != nil {
		fmt.Fprintf(env.Stderr, "fgrtbench speed: %q cannot import numpy: FuzzyCART against Ex-Fuzzy skipped\n", python)
		return nil, nil
	}
	data, err := exFuzzyFolds(ctx, datasets.NewFetcherFromEnv())
	if err != nil {
		return nil, err
	}
	return speed.RunExFuzzy(ctx, speed.ExFuzzyOptions{Python: python, Modules: modules, Log: env.Stderr}, data)
}

// exFuzzyFolds plans the clean protocol's default folds (5, seed 42) of
// speed.ExFuzzyDatasets, as reproduce does, and returns each training
// fold's rows exactly as the learner receives them.
func exFuzzyFolds(ctx context.Context, f *datasets.Fetcher) ([]speed.ExFuzzyData, error) {
	var out []speed.ExFuzzyData
	for _, name := range speed.ExFuzzyDatasets {
		d, err := f.Load(ctx, name)
		if err != nil {
			return nil, err
		}
		plan, err := protocol.Clean{}.Plan(d, protocol.DefaultOptions())
		if err != nil {
			return nil, fmt.Errorf("speed: %s: %w", name, err)
		}
		e := speed.ExFuzzyData{Name: name, Schema: plan.Schema}
		for k := range plan.Folds {
			X, _ := plan.Folds[k].Matrices(nil)
			e.X = append(e.X, X)
			e.Y = append(e.Y, plan.Folds[k].YTrain)
		}
		out = append(out, e)
	}
	return out, nil
}
