package cli

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/fgrtbench/fgrtbench/bench/methods"
	"github.com/fgrtbench/fgrtbench/internal/owned"
	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/plots"
	rt "github.com/fgrtbench/fgrtbench/timing"
)

// parseInts parses a comma-separated list of positive integers.
func parseInts(flagName, v string) ([]int, error) {
	var out []int
	for _, s := range splitList(v) {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("--%s: %q is not a positive integer", flagName, s)
		}
		out = append(out, n)
	}
	return out, nil
}

// parseCaps parses "name=N,name=N" per-method sample caps.
func parseCaps(v string) (map[string]int, error) {
	out := map[string]int{}
	for _, s := range splitList(v) {
		k, n, ok := strings.Cut(s, "=")
		c, err := strconv.Atoi(n)
		if !ok || k == "" || err != nil || c < 1 {
			return nil, fmt.Errorf("--cap: %q is not method=N", s)
		}
		out[k] = c
	}
	return out, nil
}

func init() { register(runtimeCommand) }

func runtimeCommand() *Command {
	c := &Command{Name: "runtime", Short: "time training on the authors' synthetic data (and real subsamples); write runtime.csv and the scaling figure",
		UsageLine: "[--out DIR] [--methods a,b] [--samples 100,500,...] [--features 5,10,...] [--trials 3] [--max-seconds-per-fit S] [--cap fga=2000] [--datasets wine,...]",
		Long: `Runtime times training on the authors' synthetic runtime data, growing the
number of samples and then of features, and with --datasets on subsamples of
real datasets. It writes runtime.csv and the figures runtime_scaling and
runtime_real into --out, where report includes them.`}
	fs := &c.Flag
	var df dataFlags
	df.add(fs)
	def := rt.DefaultOptions()
	out := fs.String("out", "out", "output directory (runtime.csv, runtime_scaling.png/.svg)")
	methodList := fs.String("methods", "", "registry names to time (default: "+strings.Join(rt.DefaultMethods, ",")+", those registered)")
	samples := fs.String("samples", joinInts(def.Samples), "sample sizes of the samples study (features fixed by --samples-features); empty skips it")
	samplesFeatures := fs.Int("samples-features", def.SamplesFeatures, "features in the samples study")
	features := fs.String("features", joinInts(def.Features), "feature counts of the features study (samples fixed by --features-samples); empty skips it")
	featuresSamples := fs.Int("features-samples", def.FeaturesSamples, "samples in the features study")
	trials := fs.Int("trials", def.Trials, "trials per size (split random_state 42+trial)")
	maxSec := fs.Float64("max-seconds-per-fit", 0, "after a fit slower than this, skip the larger sizes of that study for that method (0 = no limit)")
	caps := fs.String("cap", "", "per-method maximum number of samples, e.g. fga=1000,ripper=5000 (larger sizes are not run for it)")
	real := fs.String("datasets", "", "also time subsamples (sizes from --samples, plus the whole set) of these datasets (complete rows)")
	c.Run = func(ctx context.Context, env *Env, args []string) error {
		if err := checkListFlags(fs, "methods"); err != nil {
			return err
		}
		o := def
		var err error
		if o.Samples, err = parseInts("samples", *samples); err != nil {
			return err
		}
		if o.Features, err = parseInts("features", *features); err != nil {
			return err
		}
		if o.MaxSamples, err = parseCaps(*caps); err != nil {
			return err
		}
		o.SamplesFeatures, o.FeaturesSamples, o.Trials, o.MaxSecondsPerFit = *samplesFeatures, *featuresSamples, *trials, *maxSec
		o.Methods = splitList(*methodList)
		if len(o.Methods) == 0 {
			for _, m := range rt.DefaultMethods {
				if _, err := methods.Lookup(m); err == nil {
					o.Methods = append(o.Methods, m)
				} else {
					fmt.Fprintf(env.Stderr, "fgrtbench runtime: %s is not registered in this build; skipped\n", m)
				}
			}
		}
		// A file of the user's in the way of an output is refused before
		// anything is timed, not after.
		outs, err := owned.Open(*out)
		if err != nil {
			return err
		}
		if err := outs.Check(plots.RuntimeFile, "runtime_scaling.png", "runtime_scaling.svg", "runtime_real.png", "runtime_real.svg"); err != nil {
			return err
		}
		o.Log = env.Stderr
		o.Progress = (&runtimeProgress{w: env.Stderr, terminal: env.StderrIsTerminal, prev: time.Now()}).Step
		rows, runErr := rt.Run(ctx, o)
		if names := splitList(*real); len(names) > 0 && runErr == nil {
			f := df.fetcher(env)
			load := func(ctx context.Context, name string) ([][]float64, []int, learn.Schema, error) {
				ds, err := loadDataset(ctx, f, name)
				if err != nil {
					return nil, nil, learn.Schema{}, err
				}
				complete, _ := ds.CompleteRows()
				return complete.X, complete.Y, complete.Schema(), nil
			}
			var more []rt.Row
			more, runErr = rt.RunReal(ctx, load, names, o)
			rows = append(rows, more...)
		}
		// Keep what was measured even when a later fit failed.
		if len(rows) > 0 {
			path := filepath.Join(*out, plots.RuntimeFile)
			if err := rt.WriteFile(path, rows); err != nil {
				return err
			}
			fmt.Fprintf(env.Stdout, "wrote %s (%d fits)\n", path, len(rows))
			if err := plots.RuntimeScaling(*out, "runtime_scaling", rows, runtimePresentation(rows)); err != nil && !errors.Is(err, plots.ErrNoData) {
				return err
			} else if err == nil {
				fmt.Fprintf(env.Stdout, "wrote %s.png and .svg\n", filepath.Join(*out, "runtime_scaling"))
			}
			if err := plots.RuntimeReal(*out, "runtime_real", rows, runtimePresentation(rows)); err != nil && !errors.Is(err, plots.ErrNoData) {
				return err
			} else if err == nil {
				fmt.Fprintf(env.Stdout, "wrote %s.png and .svg\n", filepath.Join(*out, "runtime_real"))
			}
		}
		return runErr
	}
	return c
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}
