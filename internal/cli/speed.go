package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/fgrtbench/fgrtbench/timing/speed"
)

// fgaHoldoutSpec is the paper's FGA setting on its hold-out (ten datasets,
// ten seeds), whose run time the README quotes.
const fgaHoldoutSpec = "examples/specs/fga-holdout.yaml"

func init() { register(speedCommand) }

func speedCommand() *Command {
	c := &Command{Name: "speed", Short: "time fgrtbench against scikit-learn and Weka (when installed) on the same data; print the table with ratios",
		UsageLine: "[--python /usr/bin/python3] [--weka /usr/share/java/weka.jar] [--large] [--large-data] [--run-sh] [--markdown]",
		Long: `Speed times fgrtbench's learners side by side with scikit-learn's trees and
Weka's J48 and JRip (each when installed) on the same data and prints the
table with ratios. --large-data adds a 10^6-row study (reading the file
beside pandas.read_csv, then a clean FGRT and CART study): wall time and
peak memory. --markdown prints it as the generated performance block,
between its markers, which scripts/speed.sh --readme splices into
docs/performance.md.`}
	fs := &c.Flag
	python := fs.String("python", "/usr/bin/python3", "Python interpreter with scikit-learn (skipped when it cannot import sklearn; empty skips)")
	weka := fs.String("weka", "/usr/share/java/weka.jar", "Weka's jar (skipped when absent; empty skips)")
	large := fs.Bool("large", false, "also fit CART and the entropy tree on 10^6 rows (scikit-learn takes minutes)")
	largeData := fs.Bool("large-data", false, "also generate a 10^6 × 20 CSV and time reading it (beside pandas.read_csv when installed) and a clean study of FGRT and CART on it (-j 2): wall time and peak memory; minutes")
	runSh := fs.Bool("run-sh", false, "also time ./run.sh and the FGA hold-out study "+fgaHoldoutSpec+" (run from the repository root)")
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
		m.Finish()
		block := speed.Markdown(m, rs, runs)
		if largeRun != nil {
			block += "\n" + speed.LargeMarkdown(*largeRun)
		}
		if *markdown {
			block = markedBlock(block)
		}
		fmt.Fprint(env.Stdout, block)
		return nil
	}
	return c
}

// markedBlock frames a performance block in the markers that delimit it in
// a document: the very text speed.UpdateFile puts between a file's markers,
// the markers included, so that a script can replace the marked lines with
// it.
func markedBlock(block string) string {
	return speed.BeginMarker + "\n" + strings.TrimRight(block, "\n") + "\n" + speed.EndMarker + "\n"
}
