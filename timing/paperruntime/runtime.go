// Package paperruntime is the training-time study of the FGRT paper
// (docs/protocols.md#runtime-study, performance_analysis.py): registered methods
// are fitted on synthetic noise data of growing size (samples study: n rows
// of d = 10 features; features study: d features of n = 1000 rows), and
// optionally on subsamples of real datasets, and the wall time of each Fit is
// written to runtime.csv.
//
// As in the authors' script, the data of one size is the same for every
// trial (np.random.seed(42) on every call); trial t fits on the 80% training
// part of train_test_split(test_size=0.2, random_state=42+t).
//
// Each method gets one untimed warm-up fit per study, and the garbage
// collector runs before every timed fit.
//
// Differences from the script, on purpose: times are raw (the script
// multiplies an FGRT time by 10 when the tree has at most one rule); the
// timer covers Fit only (the script's samples study also times tracemalloc).
// FGRT runs as the script configures it: max_rules=15,
// coverage_threshold=0.01, min_improvement=0.01 and early_stop_threshold=0.05
// (a node's candidate scan stops at the first gain of at least 0.05, in the
// purity mode the script uses; docs/fidelity.md#best-candidate-of-a-node).
package paperruntime

import (
	"context"
	"fmt"
	"io"
	"math"
	goruntime "runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/fgrtbench/fgrtbench/bench/methods"
	"github.com/fgrtbench/fgrtbench/internal/par"
	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/results/runtimecsv"
)

// Options configure a study.
type Options struct {
	// Methods are registry names (or "name@label" is not supported: use
	// Params to vary a method). Empty means DefaultMethods.
	Methods []string
	// Params override parameters per method name (entries for methods
	// outside the study are ignored, so defaults can name every method).
	Params map[string]map[string]string
	// Samples are the sizes n of the samples study (features fixed to
	// SamplesFeatures); empty skips the study.
	Samples         []int
	SamplesFeatures int
	// Features are the sizes d of the features study (samples fixed to
	// FeaturesSamples); empty skips the study.
	Features        []int
	FeaturesSamples int
	// Trials per size (each with its own train/test split).
	Trials int
	// MaxSamples caps the number of samples per method: larger sizes are
	// not run for that method (no row is written). FGA's genetic search is
	// slow at large n; cap it here instead of dropping it.
	MaxSamples map[string]int
	// MaxSecondsPerFit, when positive, stops growing a method in a study
	// once one of its fits took longer: the larger sizes of that study are
	// skipped for it (a Fit cannot be interrupted).
	MaxSecondsPerFit float64
	// Log, when set, receives a line for each method whose larger sizes
	// are skipped (MaxSecondsPerFit).
	Log io.Writer
	// Progress, when set, is called after each (size, method) pair of a
	// study, so a caller can show how far the study is (the command line
	// prints a progress line, not one line per pair).
	Progress func(Step)
	// Threads is the CPU budget of one fit (-j): a learner that spreads
	// its loops (learn.Threaded) may keep that many threads busy. 0 or 1
	// fits on one thread, as the paper's timings were made. The fits and
	// their models are the same for every value; only the times differ.
	Threads int
	// now is the clock (tests may replace it).
	now func() time.Time
}

// Step is one (size, method) pair of a study, timed or skipped.
type Step struct {
	Study, Method string
	N, D          int
	// Done counts the study's pairs finished so far, this one included;
	// Total is the number of pairs the study has (capped and skipped pairs
	// count as done when their turn comes).
	Done, Total int
	// Slowest is the slowest trial's fit time in seconds (0 when skipped).
	Slowest float64
}

// DefaultOptions are the authors' study settings (docs/protocols.md#runtime-study)
// with the longer size lists of their functions' defaults: samples
// {100, 500, 1000, 2000, 5000, 10000} at d = 10 (main() stops at 5000),
// features {5, 10, 20, 30, 50} at n = 1000 (main() stops at 30), three
// trials; FGRT with max_rules 15,
// coverage_threshold 0.01, min_improvement 0.01; CART and the entropy tree
// with scikit-learn's defaults (min_samples_split 2, min_samples_leaf 1,
// random_state 42) rather than the accuracy study's 5 and 2; FGA with the
// registry defaults (15 rules, 3 antecedents, 100 generations of 50) at every
// size. c45 (J48) and ripper, not in the authors' study, run with their
// registry defaults.
func DefaultOptions() Options {
	sklearnDefaults := map[string]string{"min_samples_split": "2", "min_samples_leaf": "1", "random_state": "42"}
	return Options{
		Params: map[string]map[string]string{
			"fgrt":        {"max_rules": "15", "coverage_threshold": "0.01", "min_improvement": "0.01", "early_stop_threshold": "0.05"},
			"cart":        sklearnDefaults,
			"c45-entropy": sklearnDefaults,
		},
		Samples:         []int{100, 500, 1000, 2000, 5000, 10000},
		SamplesFeatures: 10,
		Features:        []int{5, 10, 20, 30, 50},
		FeaturesSamples: 1000,
		Trials:          3,
		MaxSamples:      map[string]int{},
	}
}

func (o *Options) validate() error {
	if o.Trials < 1 {
		return fmt.Errorf("runtime: trials must be at least 1, got %d", o.Trials)
	}
	for _, n := range o.Samples {
		if n < 10 {
			return fmt.Errorf("runtime: sample size %d is below 10", n)
		}
	}
	for _, d := range o.Features {
		if d < 1 {
			return fmt.Errorf("runtime: feature count %d is below 1", d)
		}
	}
	if len(o.Samples) > 0 && o.SamplesFeatures < 1 {
		return fmt.Errorf("runtime: samples study needs a feature count >= 1, got %d", o.SamplesFeatures)
	}
	if len(o.Features) > 0 && o.FeaturesSamples < 10 {
		return fmt.Errorf("runtime: features study needs at least 10 samples, got %d", o.FeaturesSamples)
	}
	if o.MaxSecondsPerFit < 0 || math.IsNaN(o.MaxSecondsPerFit) {
		return fmt.Errorf("runtime: max seconds per fit must be >= 0")
	}
	return nil
}

// method is a resolved method of the study.
type method struct {
	name string
	m    *learn.Spec
	cfg  learn.Values
}

func (o *Options) resolve() ([]method, error) {
	names := o.Methods
	if len(names) == 0 {
		names = methods.Timed()
	}
	var out []method
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			return nil, fmt.Errorf("runtime: method %s named twice", n)
		}
		seen[n] = true
		m, err := methods.Lookup(n)
		if err != nil {
			return nil, fmt.Errorf("runtime: %v", err)
		}
		cfg, err := m.Resolve(o.Params[n])
		if err != nil {
			return nil, fmt.Errorf("runtime: %v", err)
		}
		out = append(out, method{name: n, m: m, cfg: cfg})
	}
	return out, nil
}

// dataset is one data set of a study: X, y and its schema.
type dataset struct {
	X [][]float64
	y []int
	s learn.Schema
}

// SyntheticSchema is the schema of the synthetic data: features x0..x(d-1)
// and classes "0", "1", "2".
func SyntheticSchema(d int) learn.Schema { return syntheticSchema(d) }

func syntheticSchema(d int) learn.Schema {
	s := learn.Schema{Features: make([]learn.Feature, d), Classes: []string{"0", "1", "2"}}
	for j := range s.Features {
		s.Features[j] = learn.Feature{Name: "x" + strconv.Itoa(j)}
	}
	return s
}

// point is one size of a study.
type point struct {
	n, d int
	data func() (dataset, error)
}

// Run times the synthetic samples and features studies.
func Run(ctx context.Context, o Options) ([]runtimecsv.Row, error) {
	if err := o.validate(); err != nil {
		return nil, err
	}
	ms, err := o.resolve()
	if err != nil {
		return nil, err
	}
	synth := func(n, d int) point {
		return point{n: n, d: d, data: func() (dataset, error) {
			X, y := Synthetic(n, d)
			return dataset{X, y, syntheticSchema(d)}, nil
		}}
	}
	var rows []runtimecsv.Row
	var pts []point
	for _, n := range sortedCopy(o.Samples) {
		pts = append(pts, synth(n, o.SamplesFeatures))
	}
	r, err := o.runStudy(ctx, runtimecsv.StudySamples, ms, pts)
	rows = append(rows, r...)
	if err != nil {
		return rows, err
	}
	pts = nil
	for _, d := range sortedCopy(o.Features) {
		pts = append(pts, synth(o.FeaturesSamples, d))
	}
	r, err = o.runStudy(ctx, runtimecsv.StudyFeatures, ms, pts)
	return append(rows, r...), err
}

// Loader returns a complete (no missing value) real data set.
type Loader func(ctx context.Context, name string) (X [][]float64, y []int, s learn.Schema, err error)

// RunReal times the methods on subsamples of real data sets: for each size
// of o.Samples below the data set's row count, and for the whole data set,
// trial t draws the subsample with RandomState(42+t).permutation and fits on
// its 80% training part. Study names are RealPrefix+name.
func RunReal(ctx context.Context, load Loader, names []string, o Options) ([]runtimecsv.Row, error) {
	// The synthetic studies' shapes do not apply to real data.
	o.SamplesFeatures, o.Features = 1, nil
	if err := o.validate(); err != nil {
		return nil, err
	}
	ms, err := o.resolve()
	if err != nil {
		return nil, err
	}
	var rows []runtimecsv.Row
	for _, name := range names {
		X, y, s, err := load(ctx, name)
		if err != nil {
			return rows, err
		}
		if err := learn.CheckXY(X, y, s, false); err != nil {
			return rows, fmt.Errorf("runtime: dataset %s: %v", name, err)
		}
		var sizes []int
		for _, n := range sortedCopy(o.Samples) {
			if n < len(X) {
				sizes = append(sizes, n)
			}
		}
		sizes = append(sizes, len(X))
		var pts []point
		for _, n := range sizes {
			n := n
			pts = append(pts, point{n: n, d: s.NumFeatures(), data: func() (dataset, error) {
				return dataset{X, y, s}, nil
			}})
		}
		r, err := o.runStudy(ctx, runtimecsv.RealPrefix+name, ms, pts)
		rows = append(rows, r...)
		if err != nil {
			return rows, err
		}
	}
	return rows, nil
}

// runStudy times every method at every point, in increasing size.
func (o *Options) runStudy(ctx context.Context, study string, ms []method, pts []point) ([]runtimecsv.Row, error) {
	st := &studyRun{o: o, study: study, real: strings.HasPrefix(study, runtimecsv.RealPrefix), now: o.now,
		stopped: map[string]bool{}, warmed: map[string]bool{}, total: len(pts) * len(ms)}
	if st.now == nil {
		st.now = time.Now
	}
	if o.Threads > 1 {
		st.budget = par.NewBudget(o.Threads)
	}
	for _, p := range pts {
		data, err := p.data()
		if err != nil {
			return st.rows, err
		}
		for _, m := range ms {
			if limit, ok := o.MaxSamples[m.name]; st.stopped[m.name] || (ok && p.n > limit) {
				st.step(m, p, 0)
				continue
			}
			slowest, err := st.trials(ctx, m, p, data)
			if err != nil {
				return st.rows, err
			}
			st.step(m, p, slowest)
			if o.MaxSecondsPerFit > 0 && slowest > o.MaxSecondsPerFit {
				st.stopped[m.name] = true
				if o.Log != nil {
					fmt.Fprintf(o.Log, "runtime: %s: %s took over %gs; larger sizes skipped\n", study, m.name, o.MaxSecondsPerFit)
				}
			}
		}
	}
	return st.rows, nil
}

// studyRun is the state of one study as runStudy goes through it.
type studyRun struct {
	o               *Options
	study           string
	real            bool
	now             func() time.Time
	budget          *par.Budget // nil: serial fits
	stopped, warmed map[string]bool
	rows            []runtimecsv.Row
	done, total     int
}

// step counts a finished (size, method) pair and reports it.
func (st *studyRun) step(m method, p point, slowest float64) {
	st.done++
	if st.o.Progress != nil {
		st.o.Progress(Step{Study: st.study, Method: m.name, N: p.n, D: p.d, Done: st.done, Total: st.total, Slowest: slowest})
	}
}

// trials times the trials of one method at one point, appending a row per
// trial, and returns the slowest fit's seconds.
func (st *studyRun) trials(ctx context.Context, m method, p point, data dataset) (float64, error) {
	var slowest float64
	for t := 0; t < st.o.Trials; t++ {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		seed := uint32(42 + t)
		Xtr, ytr := st.trainingRows(p, data, seed)
		tr, err := m.m.New(m.cfg, int64(seed))
		if err != nil {
			return 0, fmt.Errorf("runtime: %s: %v", m.name, err)
		}
		tr = learn.WithThreads(tr, st.budget)
		if !st.warmed[m.name] {
			// One untimed fit first, so the first timing does not
			// pay for cold caches and lazy initialisation.
			st.warmed[m.name] = true
			if _, err := st.fit(tr, Xtr, ytr, data.s); err != nil {
				return 0, fmt.Errorf("runtime: %s %s n=%d d=%d: %v", st.study, m.name, p.n, p.d, err)
			}
		}
		// Collect the garbage of earlier fits now rather than
		// inside the timed one.
		goruntime.GC()
		secs, err := st.fit(tr, Xtr, ytr, data.s)
		if err != nil {
			return 0, fmt.Errorf("runtime: %s %s n=%d d=%d trial %d: %v", st.study, m.name, p.n, p.d, t, err)
		}
		st.rows = append(st.rows, runtimecsv.Row{Study: st.study, Method: m.name, NSamples: p.n, NFeatures: p.d, Trial: t, FitSeconds: secs})
		slowest = math.Max(slowest, secs)
	}
	return slowest, nil
}

// trainingRows are the rows trial seed fits on: the 80 % training part of
// the point's rows, after drawing the subsample of a real data set.
func (st *studyRun) trainingRows(p point, data dataset, seed uint32) ([][]float64, []int) {
	rowsIdx := trainRows(p.n, seed)
	if st.real {
		// Subsample first (n of the data set's rows), then split.
		sub := subsample(len(data.X), p.n, seed)
		for i, r := range rowsIdx {
			rowsIdx[i] = sub[r]
		}
	}
	Xtr := make([][]float64, len(rowsIdx))
	ytr := make([]int, len(rowsIdx))
	for i, r := range rowsIdx {
		Xtr[i], ytr[i] = data.X[r], data.y[r]
	}
	return Xtr, ytr
}

// fit times one fit on one thread of the study's budget (the fit's loops
// may take the others).
func (st *studyRun) fit(tr learn.Trainer, X [][]float64, y []int, s learn.Schema) (secs float64, err error) {
	st.budget.Do(func() {
		start := st.now()
		_, err = tr.Fit(X, y, s)
		secs = st.now().Sub(start).Seconds()
	})
	return secs, err
}

// subsample returns the first n rows of RandomState(seed).permutation(total),
// the rows of a subsample of size n.
func subsample(total, n int, seed uint32) []int {
	if n >= total {
		out := make([]int, total)
		for i := range out {
			out[i] = i
		}
		return out
	}
	return permutation(total, seed)[:n]
}

func sortedCopy(v []int) []int {
	out := append([]int(nil), v...)
	sort.Ints(out)
	return out
}
