package runner

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fgrtbench/fgrtbench/bench/methods"
	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/internal/par"
	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/results"
)

// threaded is the centroid learner with a loop over the run's budget: each
// fit spreads a few short bodies with For, so that a run's loops take the
// threads its unit workers leave free. It counts the fits that received a
// budget, and the most loop bodies that ran at once.
type threaded struct {
	centroid
	budget *par.Budget
}

var (
	threadedFits, threadedWithBudget atomic.Int64
	threadedBodies, threadedPeak     atomic.Int64
)

func (t threaded) WithThreads(b *par.Budget) learn.Trainer { t.budget = b; return t }

func (t threaded) Fit(X [][]float64, y []int, s learn.Schema) (learn.Model, error) {
	defer liveRows.hold(X)()
	threadedFits.Add(1)
	if t.budget != nil {
		threadedWithBudget.Add(1)
	}
	t.budget.For(4, func(int) {
		n := threadedBodies.Add(1)
		for p := threadedPeak.Load(); n > p && !threadedPeak.CompareAndSwap(p, n); p = threadedPeak.Load() {
		}
		time.Sleep(200 * time.Microsecond)
		threadedBodies.Add(-1)
	})
	return t.centroid.Fit(X, y, s)
}

// rowSets counts the training sets that fits hold at once (by their first
// row), the trace of how many units and inner folds are live together.
type rowSets struct {
	mu   sync.Mutex
	live map[*float64]int
	most int
}

var liveRows = &rowSets{live: map[*float64]int{}}

func (r *rowSets) hold(X [][]float64) (release func()) {
	if len(X) == 0 || len(X[0]) == 0 {
		return func() {}
	}
	key := &X[0][0]
	r.mu.Lock()
	r.live[key]++
	r.most = max(r.most, len(r.live))
	r.mu.Unlock()
	return func() {
		r.mu.Lock()
		if r.live[key]--; r.live[key] == 0 {
			delete(r.live, key)
		}
		r.mu.Unlock()
	}
}

func (r *rowSets) reset() { r.mu.Lock(); r.most = 0; r.mu.Unlock() }

func init() {
	methods.Register(&learn.Spec{
		Name:    "test-threaded",
		Version: 1,
		Params:  []learn.Param{{Name: "k", Kind: learn.Int, Default: "2", Min: 1, HasMin: true}},
		Grids:   map[string]learn.Grid{"default": {{"k": "1"}, {"k": "2"}, {"k": "3"}}},
		New: func(c learn.Values, seed int64) (learn.Trainer, error) {
			return threaded{centroid: centroid{k: c.Int("k"), seed: seed}}, nil
		},
	})
}

// threadsStudy is a small clean study of real learners and the threaded
// one: grids selected by inner cross-validation (FGRT's fits as a group,
// CART's one by one), single configurations, a sweep, and artifacts.
func threadsStudy() study.Study {
	o := protocol.DefaultOptions()
	o.Repeats, o.Folds, o.InnerFolds = 1, 3, 3
	return study.Study{
		Protocols: []string{"clean"},
		Datasets:  []string{"alpha", "beta"},
		Methods: []study.MethodSpec{
			{Name: "fgrt", Params: map[string]string{"coverage_threshold": "0.01"}, Sweep: map[string][]string{"max_rules": {"3", "6"}, "min_improvement": {"0.01", "0"}}},
			{Name: "cart", Grid: "text"},
			{Name: "c45-entropy"},
			{Name: "ripper"},
			{Name: "test-threaded"},
			{Name: "test-threaded", Label: "threaded-sweep", Selection: protocol.SelectSweep},
		},
		Options: o,
	}
}

// TestResultsIdenticalForAnyThreads (issue 33, determinism): the study's
// results, predictions and models are byte-identical at -j 1 and -j 4 and
// under GOMAXPROCS 1 and 4, timing columns aside, while inner
// cross-validation and the test learner's loops spread over the threads.
func TestResultsIdenticalForAnyThreads(t *testing.T) {
	files := []string{"predictions.csv.gz", "models.jsonl.gz"}
	type run struct{ jobs, procs int }
	var ref map[string][]byte
	for _, c := range []run{{1, 1}, {4, 4}, {4, 1}, {1, 4}, {3, 2}} {
		prev := runtime.GOMAXPROCS(c.procs)
		dir := t.TempDir()
		r := &Runner{Load: testLoader, OutDir: dir, Jobs: c.jobs}
		sum, err := r.Run(context.Background(), threadsStudy())
		runtime.GOMAXPROCS(prev)
		if err != nil {
			t.Fatalf("-j %d GOMAXPROCS %d: %v", c.jobs, c.procs, err)
		}
		if sum.Ran != 36 {
			t.Fatalf("-j %d: ran %d units, want 2 datasets × 6 methods × 3 folds = 36", c.jobs, sum.Ran)
		}
		if peak := r.budget.Peak(); peak > c.jobs {
			t.Errorf("-j %d: %d threads busy at once", c.jobs, peak)
		}
		got := map[string][]byte{results.FileName: []byte(stripTiming(t, filepath.Join(dir, results.FileName)))}
		for _, name := range files {
			b, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			got[name] = b
		}
		if ref == nil {
			ref = got
			continue
		}
		for name, b := range got {
			if !bytes.Equal(b, ref[name]) {
				t.Errorf("-j %d GOMAXPROCS %d: %s differs from -j 1 GOMAXPROCS 1", c.jobs, c.procs, name)
			}
		}
	}
}

// TestBudgetBoundsBusyThreads (issue 33, one CPU budget): every trainer
// gets the run's budget; the busy threads (unit workers and loop bodies
// together) never exceed -j; and when a single unit is left, the idle
// threads go to its loops, as many as the runtime runs beside the unit's
// worker (GOMAXPROCS; par.Budget.For lends no more).
func TestBudgetBoundsBusyThreads(t *testing.T) {
	s := study.Study{Protocols: []string{"clean"}, Datasets: []string{"alpha", "beta"},
		Methods: []study.MethodSpec{{Name: "test-threaded"}}, Options: protocol.DefaultOptions()}
	s.Options.Repeats, s.Options.InnerFolds = 2, 3
	cases := []struct {
		name    string
		jobs    int
		shard   study.Shard
		procs   int // GOMAXPROCS for the run; 0 leaves it
		minPeak int // threads that must have been busy at once
		maxPeak int // and at most
	}{
		{"many units, -j 1", 1, study.Shard{}, 0, 1, 1},
		{"many units, -j 3", 3, study.Shard{}, 0, 1, 3},
		// One unit of the 20: its worker holds one thread, and its inner
		// folds (3) take two of the three free ones at once.
		{"one unit, -j 4", 4, study.Shard{Index: 0, Count: 20}, 4, 3, 4},
		// On two CPUs, one: the other two would cost memory, not time.
		{"one unit, -j 4, GOMAXPROCS 2", 4, study.Shard{Index: 0, Count: 20}, 2, 2, 2},
	}
	for _, c := range cases {
		threadedFits.Store(0)
		threadedWithBudget.Store(0)
		threadedPeak.Store(0)
		r := &Runner{Load: testLoader, OutDir: t.TempDir(), Jobs: c.jobs, Shard: c.shard, NoArtifacts: true}
		prev := runtime.GOMAXPROCS(c.procs) // 0 reads it
		_, err := r.Run(context.Background(), s)
		runtime.GOMAXPROCS(prev)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if fits := threadedFits.Load(); fits == 0 || threadedWithBudget.Load() != fits {
			t.Errorf("%s: %d of %d fits had the run's budget", c.name, threadedWithBudget.Load(), fits)
		}
		if peak := r.budget.Peak(); peak < c.minPeak || peak > c.maxPeak {
			t.Errorf("%s: %d threads busy at once, want %d to %d", c.name, peak, c.minPeak, c.maxPeak)
		}
		if loops := threadedPeak.Load(); loops > int64(c.jobs) {
			t.Errorf("%s: %d loop bodies ran at once, above -j", c.name, loops)
		}
	}
}

// TestLargeUnitsRunTwoAtATime (issue 33, memory independent of -j): when
// every unit is large (cellsPerThread lowered to one cell), each asks for
// half of -j, so two units run at once at -j 8, a large unit's inner
// folds run one after the other (one rescaled copy at a time), and the
// threads they leave go to the fits' loops. At most two training sets
// are then live at once, where -j 8 would otherwise hold eight; the
// results are those of -j 1.
func TestLargeUnitsRunTwoAtATime(t *testing.T) {
	s := study.Study{Protocols: []string{"clean"}, Datasets: []string{"alpha", "beta"},
		Methods: []study.MethodSpec{{Name: "test-threaded"}}, Options: protocol.DefaultOptions()}
	s.Options.Repeats, s.Options.InnerFolds = 2, 3
	run := func(jobs int, cells int64) (string, int, int64) {
		defer func(c int64) { cellsPerThread = c }(cellsPerThread)
		cellsPerThread = cells
		liveRows.reset()
		threadedPeak.Store(0)
		dir := t.TempDir()
		r := &Runner{Load: testLoader, OutDir: dir, Jobs: jobs, NoArtifacts: true}
		if _, err := r.Run(context.Background(), s); err != nil {
			t.Fatalf("-j %d: %v", jobs, err)
		}
		return stripTiming(t, filepath.Join(dir, results.FileName)), liveRows.most, threadedPeak.Load()
	}
	ref, _, _ := run(1, 1<<20)
	small, smallSets, _ := run(8, 1<<20)
	if small != ref {
		t.Error("small units at -j 8: results differ from -j 1")
	}
	if smallSets < 3 {
		t.Errorf("small units at -j 8: at most %d training sets live at once; want units and inner folds side by side", smallSets)
	}
	large, sets, loops := run(8, 1)
	if large != ref {
		t.Error("large units at -j 8: results differ from -j 1")
	}
	if sets > 2 {
		t.Errorf("large units at -j 8: %d training sets live at once, want at most 2 (two units, one inner fold each)", sets)
	}
	if loops < 2 {
		t.Errorf("large units at -j 8: at most %d loop bodies at once; the threads two units leave should go to their fits", loops)
	}
}
