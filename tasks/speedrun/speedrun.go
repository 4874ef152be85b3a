// Package speedrun is the speed command's work as one function: it times
// fgrtbench's learners beside the references this machine has (package
// timing/sidebyside), optionally ./run.sh, the large-data study, external
// learners and FuzzyCART against Ex-Fuzzy, and prints the performance
// block; or, with Scaling, times whole studies at several -j values.
package speedrun

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/internal/owned"
	"github.com/fgrtbench/fgrtbench/timing/sidebyside"
)

// FGAHoldoutSpec is the paper's FGA setting on its hold-out (ten datasets,
// ten seeds), whose run time the README quotes.
const FGAHoldoutSpec = "examples/specs/fga-holdout.yaml"

// Options configure the speed command.
type Options struct {
	// Speed is the side-by-side measurement (its WekaJar is checked here:
	// one that is absent is skipped with a message).
	Speed sidebyside.Options
	// Python is the interpreter the flags name: each measurement uses it
	// where it imports what that one needs (sklearn, pandas, numpy).
	Python string
	// LargeData, External and RunSh add those measurements; ExFuzzy is an
	// Ex-Fuzzy checkout ("" skips that comparison with a message).
	LargeData, External, RunSh bool
	ExFuzzy                    string
	// Markdown frames the block in its markers (MarkedBlock).
	Markdown bool
	// Scaling, when set, replaces everything above: the studies of
	// Scaling.Studies at each -j, as a table and as sidebyside.ScalingFile in
	// the directory ScalingOut.
	Scaling    *sidebyside.ScalingOptions
	ScalingOut string
	// Binary is the fgrtbench executable that child measurements start.
	Binary string
	// Fetcher reads the Ex-Fuzzy comparison's datasets.
	Fetcher        *datasets.Fetcher
	Stdout, Stderr io.Writer
}

// Run measures what o asks for and prints the result on o.Stdout.
func Run(ctx context.Context, o Options) error {
	if o.Scaling != nil {
		return runScaling(ctx, o)
	}
	o.Speed.Log = o.Stderr
	o.Speed.Python = o.usablePython("sklearn", "scikit-learn skipped (scripts/speed.sh --install installs python3-sklearn)")
	o.Speed.WekaJar = o.usableWeka()
	m := sidebyside.DescribeMachine(ctx, o.Speed)
	rs, err := sidebyside.Run(ctx, o.Speed)
	if err != nil {
		return err
	}
	fc, err := runExFuzzy(ctx, o.Stderr, o.Fetcher, o.ExFuzzy, o.Python)
	if err != nil {
		return err
	}
	runs, err := o.wholeRuns(ctx)
	if err != nil {
		return err
	}
	block, err := o.extraBlocks(ctx)
	if err != nil {
		return err
	}
	m.Finish()
	block = sidebyside.Markdown(m, append(rs, fc...), runs) + block
	if o.Markdown {
		block = MarkedBlock(block)
	}
	_, err = fmt.Fprint(o.Stdout, block)
	return err
}

// usablePython is o.Python when it imports module, else "" after saying
// so with skipped.
func (o Options) usablePython(module, skipped string) string {
	p := o.Python
	if p != "" && exec.Command(p, "-c", "import "+module).Run() != nil {
		fmt.Fprintf(o.Stderr, "fgrtbench speed: %s cannot import %s: %s\n", p, module, skipped)
		return ""
	}
	return p
}

// usableWeka is o.Speed.WekaJar when it exists, else "" after saying so.
func (o Options) usableWeka() string {
	if o.Speed.WekaJar == "" {
		return ""
	}
	if _, err := os.Stat(o.Speed.WekaJar); err != nil {
		fmt.Fprintf(o.Stderr, "fgrtbench speed: no %s: Weka skipped (scripts/speed.sh --install installs weka)\n", o.Speed.WekaJar)
		return ""
	}
	return o.Speed.WekaJar
}

// wholeRuns times ./run.sh and the FGA hold-out study when RunSh is set.
func (o Options) wholeRuns(ctx context.Context) ([]sidebyside.WholeRun, error) {
	if !o.RunSh {
		return nil, nil
	}
	fmt.Fprintln(o.Stderr, "fgrtbench speed: timing ./run.sh")
	r, err := sidebyside.TimeRunSh(ctx, ".", o.Stderr)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(o.Stderr, "fgrtbench speed: timing the paper's FGA hold-out (%s)\n", FGAHoldoutSpec)
	r2, err := sidebyside.TimeStudy(ctx, o.Binary, ".", FGAHoldoutSpec, o.Stderr)
	if err != nil {
		return nil, err
	}
	return []sidebyside.WholeRun{r, r2}, nil
}

// extraBlocks runs the large-data and external measurements asked for and
// returns their Markdown, each after a blank line.
func (o Options) extraBlocks(ctx context.Context) (string, error) {
	var b strings.Builder
	if o.LargeData {
		lo := sidebyside.LargeOptions{Binary: o.Binary, Log: o.Stderr,
			Python: o.usablePython("pandas", "pandas.read_csv skipped (apt-get install python3-pandas)")}
		r, err := sidebyside.RunLarge(ctx, lo)
		if err != nil {
			return "", err
		}
		b.WriteString("\n" + sidebyside.LargeMarkdown(r))
	}
	if o.External {
		r, err := runExternal(ctx, o.Stderr, o.Binary, o.Python)
		if err != nil {
			return "", err
		}
		if r != nil {
			b.WriteString("\n" + sidebyside.ExternalMarkdown(*r))
		}
	}
	return b.String(), nil
}

// MarkedBlock frames a performance block in the markers that delimit it in
// a document: the very text sidebyside.UpdateFile puts between a file's markers,
// the markers included, so that a script can replace the marked lines with
// it.
func MarkedBlock(block string) string {
	return sidebyside.BeginMarker + "\n" + strings.TrimRight(block, "\n") + "\n" + sidebyside.EndMarker + "\n"
}

// runScaling times the scaling studies, prints their table and writes it
// as sidebyside.ScalingFile into ScalingOut (a comparison of builds, or of
// rounds, as sidebyside.VersusFile); bad options and a file in the way
// that fgrtbench did not write are refused before anything is written.
func runScaling(ctx context.Context, o Options) error {
	so := *o.Scaling
	so.Binary, so.Log = o.Binary, o.Stderr
	if err := so.Check(); err != nil {
		return err
	}
	outs, err := owned.Open(o.ScalingOut)
	if err != nil {
		return err
	}
	file, table, csvOf := sidebyside.ScalingFile, sidebyside.ScalingTable, sidebyside.ScalingCSV
	if so.Versus != "" || so.Rounds > 1 {
		file, table, csvOf = sidebyside.VersusFile, sidebyside.VersusTable, sidebyside.VersusCSV
	}
	if err := outs.Check(file); err != nil {
		return err
	}
	runs, err := sidebyside.RunScaling(ctx, so)
	if len(runs) == 0 {
		return err
	}
	fmt.Fprint(o.Stdout, table(runs))
	data, cerr := csvOf(runs)
	if cerr == nil {
		cerr = outs.WriteFile(file, data)
	}
	return errors.Join(err, cerr)
}
