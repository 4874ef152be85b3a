package cli

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/fgrtbench/fgrtbench/bench/methods"
	"github.com/fgrtbench/fgrtbench/bench/runner"
	"github.com/fgrtbench/fgrtbench/internal/command"
	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/tasks/runtimestudy"
	"github.com/fgrtbench/fgrtbench/timing/paperruntime"
)

// ints are the items of a list of positive integers.
func (l listFlag) ints() ([]int, error) {
	items, err := l.items()
	if err != nil {
		return nil, err
	}
	var out []int
	for _, s := range items {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("--%s: %q is not a positive integer", l.name, s)
		}
		out = append(out, n)
	}
	return out, l.once(items, func(s string) string { n, _ := strconv.Atoi(s); return strconv.Itoa(n) })
}

// caps are the items of "name=N,name=N" per-method sample caps.
func (l listFlag) caps() (map[string]int, error) {
	items, err := l.items()
	if err != nil {
		return nil, err
	}
	out := map[string]int{}
	for _, s := range items {
		k, n, ok := strings.Cut(s, "=")
		c, err := strconv.Atoi(n)
		if !ok || k == "" || err != nil || c < 1 {
			return nil, fmt.Errorf("--cap: %q is not method=N", s)
		}
		out[k] = c
	}
	return out, l.once(items, func(s string) string { k, _, _ := strings.Cut(s, "="); return k })
}

func init() { register(runtimeCommand) }

// runtimeFlags are the runtime command's flags.
type runtimeFlags struct {
	data                             dataFlags
	out                              *string
	methods, samples, features       listFlag
	caps, real                       listFlag
	samplesFeatures, featuresSamples *int
	trials, jobs                     *int
	maxSec                           *float64
}

func runtimeCommand() *command.Command {
	c := &command.Command{Name: "runtime", Short: "time training on the authors' synthetic data (and real subsamples); write runtime.csv and the scaling figure",
		UsageLine: "[--out DIR] [--methods a,b] [--samples 100,500,...] [--features 5,10,...] [--trials 3] [--max-seconds-per-fit S] [--cap fga=2000] [--datasets wine,...] [-j 1]",
		Long: `Runtime times training on the authors' synthetic runtime data, growing the
number of samples and then of features, and with --datasets on subsamples of
real datasets. It writes runtime.csv and the figures runtime_scaling and
runtime_real into --out, where report includes them. -j N lets one fit keep
N threads busy (its learner's parallel loops); the default, 1, times fits on
one thread as the paper did. Models are the same for every -j.`}
	fs := &c.Flag
	var f runtimeFlags
	f.data.add(fs)
	def := paperruntime.DefaultOptions()
	f.out = fs.String("out", "out", "output directory (runtime.csv, runtime_scaling.png/.svg)")
	f.methods = newListFlag(fs, "methods", "", "registry names to time (default: "+strings.Join(methods.Timed(), ",")+", those registered)")
	f.samples = newListFlag(fs, "samples", joinInts(def.Samples), "sample sizes of the samples study (features fixed by --samples-features); empty skips it")
	f.samplesFeatures = fs.Int("samples-features", def.SamplesFeatures, "features in the samples study")
	f.features = newListFlag(fs, "features", joinInts(def.Features), "feature counts of the features study (samples fixed by --features-samples); empty skips it")
	f.featuresSamples = fs.Int("features-samples", def.FeaturesSamples, "samples in the features study")
	f.trials = fs.Int("trials", def.Trials, "trials per size (split random_state 42+trial)")
	f.maxSec = fs.Float64("max-seconds-per-fit", 0, "after a fit slower than this, skip the larger sizes of that study for that method (0 = no limit)")
	f.caps = newListFlag(fs, "cap", "", "per-method maximum number of samples, e.g. fga=1000,ripper=5000 (larger sizes are not run for it)")
	f.real = newListFlag(fs, "datasets", "", "also time subsamples (sizes from --samples, plus the whole set) of these datasets (complete rows)")
	f.jobs = fs.Int("j", 1, "threads one fit may keep busy (1 to "+strconv.Itoa(runner.MaxJobs)+"): times a learner's parallel loops; 1 times fits on one thread")
	c.Run = func(ctx context.Context, env *command.Env, args []string) error {
		if err := checkListFlags(fs, "methods"); err != nil {
			return err
		}
		o, err := f.options(env)
		if err != nil {
			return err
		}
		return runtimestudy.Run(ctx, o)
	}
	return c
}

// options are the study the flags describe.
func (f *runtimeFlags) options(env *command.Env) (runtimestudy.Options, error) {
	o := paperruntime.DefaultOptions()
	var err error
	if o.Samples, err = f.samples.ints(); err != nil {
		return runtimestudy.Options{}, err
	}
	if o.Features, err = f.features.ints(); err != nil {
		return runtimestudy.Options{}, err
	}
	if o.MaxSamples, err = f.caps.caps(); err != nil {
		return runtimestudy.Options{}, err
	}
	if o.Methods, err = f.methods.items(); err != nil {
		return runtimestudy.Options{}, err
	}
	real, err := f.real.items()
	if err != nil {
		return runtimestudy.Options{}, err
	}
	o.SamplesFeatures, o.FeaturesSamples, o.Trials, o.MaxSecondsPerFit = *f.samplesFeatures, *f.featuresSamples, *f.trials, *f.maxSec
	o.Threads, o.Log = *f.jobs, env.Stderr
	o.Progress = (&runtimeProgress{w: env.Stderr, terminal: env.StderrIsTerminal, prev: time.Now()}).Step
	fetcher := f.data.fetcher(env)
	load := func(ctx context.Context, name string) ([][]float64, []int, learn.Schema, error) {
		ds, err := loadDataset(ctx, fetcher, name)
		if err != nil {
			return nil, nil, learn.Schema{}, err
		}
		complete, _ := ds.CompleteRows()
		return complete.X, complete.Y, complete.Schema(), nil
	}
	return runtimestudy.Options{Timing: o, Out: *f.out, Datasets: real, Load: load,
		Present: runtimePresentation, Stdout: env.Stdout, Warn: env.Stderr}, nil
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}
