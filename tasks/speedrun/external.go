package speedrun

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/timing/sidebyside"
)

// externalExamples and goAdapterSource are where the external measurement
// finds the scikit-learn example's adapter and the Go test adapter's
// source, from the repository root.
const (
	externalExamples = "examples/external"
	goAdapterSource  = "bench/external/externaltest/testdata/goadapter"
)

// runExternal runs the external measurement with what this machine has:
// the scikit-learn study needs python with sklearn and the example's
// files, the overhead study the go command and the adapter's source; each
// is skipped with a message otherwise (nil when both are).
func runExternal(ctx context.Context, stderr io.Writer, self, python string) (*sidebyside.ExternalResult, error) {
	o := sidebyside.ExternalOptions{Binary: self, Python: python, Examples: externalExamples, GoAdapter: goAdapterSource, Log: stderr}
	if _, err := os.Stat(filepath.Join(externalExamples, "sklearn_tree.py")); err != nil {
		fmt.Fprintf(stderr, "fgrtbench speed: no %s/sklearn_tree.py (run from the repository root): external scikit-learn study skipped\n", externalExamples)
		o.Python = ""
	} else if o.Python == "" || exec.Command(o.Python, "-c", "import sklearn").Run() != nil {
		fmt.Fprintf(stderr, "fgrtbench speed: no Python with scikit-learn (--python %q): external scikit-learn study skipped (scripts/speed.sh --install installs python3-sklearn)\n", o.Python)
		o.Python = ""
	}
	var err error
	if o.Go, err = exec.LookPath("go"); err != nil {
		fmt.Fprintln(stderr, "fgrtbench speed: no go command: the external harness-overhead study (Go test adapter) skipped")
		o.GoAdapter = ""
	} else if _, err := os.Stat(goAdapterSource); err != nil {
		fmt.Fprintf(stderr, "fgrtbench speed: no %s (run from the repository root): the external harness-overhead study skipped\n", goAdapterSource)
		o.GoAdapter = ""
	}
	if o.Python == "" && o.GoAdapter == "" {
		return nil, nil
	}
	fmt.Fprintln(stderr, "fgrtbench speed: timing external learners in process and worker mode")
	r, err := sidebyside.RunExternal(ctx, o)
	if err != nil {
		return nil, fmt.Errorf("speed --external: %w", err)
	}
	return &r, nil
}

// runExFuzzy times FuzzyCART beside Ex-Fuzzy's Python fit when a checkout
// is given and the interpreter imports numpy; otherwise it says which is
// missing and times nothing (the comparison is of the two fits, and the
// datasets it reads need no fetching without it).
func runExFuzzy(ctx context.Context, stderr io.Writer, f *datasets.Fetcher, dir, python string) ([]sidebyside.Result, error) {
	if dir == "" {
		fmt.Fprintf(stderr, "fgrtbench speed: no Ex-Fuzzy checkout (--exfuzzy DIR or %s): FuzzyCART against Ex-Fuzzy skipped\n", sidebyside.ExFuzzyEnv)
		return nil, nil
	}
	modules, err := sidebyside.ExFuzzyModules(dir)
	if err != nil {
		return nil, fmt.Errorf("--exfuzzy: %w", err)
	}
	if python == "" || exec.Command(python, "-c", "import numpy").Run() != nil {
		fmt.Fprintf(stderr, "fgrtbench speed: %q cannot import numpy: FuzzyCART against Ex-Fuzzy skipped\n", python)
		return nil, nil
	}
	if f == nil {
		f = datasets.NewFetcherFromEnv()
	}
	data, err := exFuzzyFolds(ctx, f)
	if err != nil {
		return nil, err
	}
	return sidebyside.RunExFuzzy(ctx, sidebyside.ExFuzzyOptions{Python: python, Modules: modules, Log: stderr}, data)
}

// exFuzzyFolds plans the clean protocol's default folds (5, seed 42) of
// sidebyside.ExFuzzyDatasets, as reproduce does, and returns each training
// fold's rows exactly as the learner receives them.
func exFuzzyFolds(ctx context.Context, f *datasets.Fetcher) ([]sidebyside.ExFuzzyData, error) {
	var out []sidebyside.ExFuzzyData
	for _, name := range sidebyside.ExFuzzyDatasets {
		d, err := f.Load(ctx, name)
		if err != nil {
			return nil, err
		}
		plan, err := protocol.Clean{}.Plan(d, protocol.DefaultOptions())
		if err != nil {
			return nil, fmt.Errorf("speed: %s: %w", name, err)
		}
		e := sidebyside.ExFuzzyData{Name: name, Schema: plan.Schema}
		for k := range plan.Folds {
			X, _ := plan.Folds[k].Matrices(nil)
			e.X = append(e.X, X)
			e.Y = append(e.Y, plan.Folds[k].YTrain)
		}
		out = append(out, e)
	}
	return out, nil
}
