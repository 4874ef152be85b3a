package cart

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fgrtbench/fgrtbench/internal/par"
	"github.com/fgrtbench/fgrtbench/learn"
)

// tiedData draws n rows of d columns and the given number of classes, full
// of the ties a parallel search must break as the serial one does: column
// 0 is constant, column 1 a copy of column 2 when copy is set (so that
// their splits tie exactly) and continuous otherwise, columns of few levels
// alternate with continuous ones, every fifth row repeats an earlier one,
// and labels follow column 2 and 3 with noise.
func tiedData(n, d, classes int, copy bool, seed uint64) ([][]float64, []int, learn.Schema) {
	rng := rand.New(rand.NewPCG(seed, 33))
	X, y := make([][]float64, n), make([]int, n)
	for i := range X {
		if i >= 5 && i%5 == 0 {
			j := rng.IntN(i)
			X[i], y[i] = append([]float64(nil), X[j]...), y[j]
			continue
		}
		row := make([]float64, d)
		for f := 2; f < d; f++ {
			if f%2 == 0 {
				row[f] = float64(rng.IntN(3 + f))
			} else {
				row[f] = rng.NormFloat64()
			}
		}
		row[0], row[1] = 7, rng.NormFloat64()
		if copy {
			row[1] = row[min(2, d-1)]
		}
		X[i] = row
		y[i] = int(row[min(2, d-1)]) % classes
		if row[min(3, d-1)] > 0 {
			y[i] = (y[i] + 1) % classes
		}
		if rng.IntN(4) == 0 {
			y[i] = rng.IntN(classes)
		}
	}
	s := learn.Schema{Features: make([]learn.Feature, d)}
	for f := range s.Features {
		s.Features[f].Name = fmt.Sprintf("x%d", f)
	}
	for c := 0; c < classes; c++ {
		s.Classes = append(s.Classes, fmt.Sprintf("c%d", c))
	}
	return X, y, s
}

// fitBytes fits tr (with the budget b when not nil, inside b.Do as a unit
// worker would) and returns the model's JSON description and its
// predictions on X.
func fitBytes(t *testing.T, tr *Trainer, b *par.Budget, X [][]float64, y []int, s learn.Schema) ([]byte, []int) {
	t.Helper()
	var m learn.Model
	var err error
	fit := func() { m, err = learn.WithThreads(tr, b).Fit(X, y, s) }
	if b == nil {
		fit()
	} else {
		b.Do(fit)
	}
	if err != nil {
		t.Fatal(err)
	}
	desc, err := m.(*Tree).Describe(s)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(desc)
	if err != nil {
		t.Fatal(err)
	}
	return raw, m.Predict(X)
}

// TestThreadsGrowTheSameTree: fits spread over a budget of 2, 4 or 16
// threads (more than GOMAXPROCS, which some cases lower to 1; the budgets
// Oversubscribe, so that For lends them all) give the
// serial fit's model and predictions byte for byte, with the real size
// thresholds and with every node spread, and did run in parallel (except
// with max_features, which never speculates).
func TestThreadsGrowTheSameTree(t *testing.T) {
	big := minSpeculativeFit/10 + 100
	cases := []struct {
		name              string
		n, d, classes     int
		copy              bool
		p                 Config
		spreadAll         bool
		threads, maxprocs int
	}{
		{"gini paper", big, 10, 3, false, PaperConfig(Gini), false, 4, 0},
		{"entropy paper, tied columns", big, 10, 3, true, PaperConfig(Entropy), false, 2, 0},
		{"gini every node", 3000, 7, 4, false, DefaultConfig(), true, 4, 0},
		{"gini every node, tied columns", 3000, 7, 4, true, DefaultConfig(), true, 4, 0},
		{"entropy every node", 3000, 7, 5, false, Config{Criterion: Entropy, MinSamplesSplit: 2, MinSamplesLeaf: 3}, true, 2, 0},
		{"entropy every node, tied columns", 3000, 7, 5, true, Config{Criterion: Entropy, MinSamplesSplit: 2, MinSamplesLeaf: 1}, true, 4, 0},
		{"max_depth, min_impurity_decrease", 4000, 8, 3, false, Config{Criterion: Gini, MinSamplesSplit: 4, MinSamplesLeaf: 1, MaxDepth: 7, MinImpurityDecrease: 0.0005}, true, 4, 0},
		{"max_features", 3000, 12, 3, false, Config{Criterion: Gini, MinSamplesSplit: 2, MinSamplesLeaf: 1, MaxFeatures: 5, RandomState: 9}, true, 4, 0},
		{"pruned entropy", 4000, 9, 2, true, Config{Criterion: Entropy, MinSamplesSplit: 5, MinSamplesLeaf: 2, CCPAlpha: 0.001}, true, 4, 0},
		{"budget above GOMAXPROCS=1", 3000, 10, 3, false, PaperConfig(Entropy), true, 16, 1},
		{"budget above GOMAXPROCS=2", 3000, 7, 3, true, PaperConfig(Gini), true, 16, 2},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.spreadAll {
				defer func(f, s, w int) { minSpeculativeFit, minSpreadSubtrees, minParallelWork = f, s, w }(
					minSpeculativeFit, minSpreadSubtrees, minParallelWork)
				minSpeculativeFit, minSpreadSubtrees, minParallelWork = 0, 0, 0
			}
			if c.maxprocs > 0 {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(c.maxprocs))
			}
			X, y, s := tiedData(c.n, c.d, c.classes, c.copy, uint64(i))
			tr := mustTrainer(t, c.p)
			wantJSON, wantPred := fitBytes(t, tr, nil, X, y, s)
			b := par.NewBudget(c.threads).Oversubscribe()
			gotJSON, gotPred := fitBytes(t, tr, b, X, y, s)
			if !bytes.Equal(gotJSON, wantJSON) {
				t.Errorf("the model fitted on %d threads differs from the serial one", c.threads)
			}
			if fmt.Sprint(gotPred) != fmt.Sprint(wantPred) {
				t.Errorf("the predictions of the model fitted on %d threads differ", c.threads)
			}
			if spread := b.Peak() > 1; spread != (c.p.MaxFeatures == 0) {
				t.Errorf("peak %d busy threads with max_features %d", b.Peak(), c.p.MaxFeatures)
			}
		})
	}
}

// TestSmallFitsStaySerial: below the size threshold a fit takes no thread
// beyond its own, whatever the budget.
func TestSmallFitsStaySerial(t *testing.T) {
	X, y, s := tiedData(minSpeculativeFit/10-1, 10, 3, false, 5)
	b := par.NewBudget(4).Oversubscribe()
	fitBytes(t, mustTrainer(t, PaperConfig(Entropy)), b, X, y, s)
	if b.Peak() != 1 {
		t.Errorf("a %d×10 fit used %d threads, want 1", len(X), b.Peak())
	}
}

// TestWithThreadsKeepsSettings: the budget is not a setting, and a group
// fit under a budget gives the serial group's models.
func TestWithThreadsKeepsSettings(t *testing.T) {
	p := PaperConfig(Gini)
	p.CCPAlpha = 0.002
	tr := mustTrainer(t, p)
	b := par.NewBudget(3).Oversubscribe()
	threaded := learn.WithThreads(tr, b).(*Trainer)
	if threaded.Config() != tr.Config() || threaded.threads != b || tr.threads != nil {
		t.Fatalf("WithThreads: config %+v budget %p, original budget %p", threaded.Config(), threaded.threads, tr.threads)
	}
	X, y, s := tiedData(9000, 8, 3, true, 11)
	var group []learn.Model
	var err error
	b.Do(func() { group, err = threaded.FitGroup([]learn.Trainer{threaded, tr}, X, y, s) })
	if err != nil {
		t.Fatal(err)
	}
	want, _ := fitBytes(t, tr, nil, X, y, s)
	for i, m := range group {
		desc, err := m.(*Tree).Describe(s)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := json.Marshal(desc); !bytes.Equal(got, want) {
			t.Errorf("group model %d differs from the serial fit", i)
		}
	}
}

// spreadEveryNode lowers the size thresholds so that every fit speculates
// and every subtree is a task, until the returned function restores them.
func spreadEveryNode() (restore func()) {
	f, s, w := minSpeculativeFit, minSpreadSubtrees, minParallelWork
	minSpeculativeFit, minSpreadSubtrees, minParallelWork = 0, 0, 0
	return func() { minSpeculativeFit, minSpreadSubtrees, minParallelWork = f, s, w }
}

// TestSpeculationOrderDoesNotMatter: however the threads' tasks are
// delayed (the replay overtaking the speculation and growing the nodes it
// reaches itself; subtrees finishing in an order unrelated to the tree's),
// the fit gives the serial model, with tied columns whose open nodes the
// replay resolves while subtrees are still growing. A replay that read a
// node before its task had grown it, or drew in another order, gives
// another tree.
func TestSpeculationOrderDoesNotMatter(t *testing.T) {
	defer spreadEveryNode()()
	X, y, s := tiedData(2500, 7, 3, true, 21)
	cases := []struct {
		name    string
		threads int
		delay   func(nd *specNode) time.Duration
	}{
		{"slow tasks", 2, func(*specNode) time.Duration { return 100 * time.Microsecond }},
		{"deep tasks slower", 2, func(nd *specNode) time.Duration { return time.Duration(nd.depth) * 20 * time.Microsecond }},
		{"scrambled", 4, func(nd *specNode) time.Duration {
			return time.Duration((nd.start*7919+nd.end*104729)%13) * 30 * time.Microsecond
		}},
		{"right halves slower", 3, func(nd *specNode) time.Duration {
			return time.Duration(min(nd.start, 300)) * time.Microsecond
		}},
	}
	for _, p := range []Config{PaperConfig(Gini), PaperConfig(Entropy)} {
		tr := mustTrainer(t, p)
		wantJSON, wantPred := fitBytes(t, tr, nil, X, y, s)
		for _, c := range cases {
			t.Run(fmt.Sprintf("%v/%s", p.Criterion, c.name), func(t *testing.T) {
				var tasks atomic.Int64
				taskHook = func(nd *specNode) {
					tasks.Add(1)
					time.Sleep(c.delay(nd))
				}
				defer func() { taskHook = nil }()
				b := par.NewBudget(c.threads).Oversubscribe()
				gotJSON, gotPred := fitBytes(t, tr, b, X, y, s)
				if !bytes.Equal(gotJSON, wantJSON) || fmt.Sprint(gotPred) != fmt.Sprint(wantPred) {
					t.Errorf("the model fitted on %d threads differs from the serial one", c.threads)
				}
				if tasks.Load() < 100 || b.Peak() != c.threads {
					t.Errorf("%d tasks on a peak of %d threads: the speculative pass did not run as intended", tasks.Load(), b.Peak())
				}
			})
		}
	}
}

// TestSpeculationPanicReachesCaller: a panic in any queued subtree of the
// speculative pass (the first, one in the middle, the last) is raised on
// the fit's caller, every thread of the fit has returned and given its
// thread back.
func TestSpeculationPanicReachesCaller(t *testing.T) {
	defer spreadEveryNode()()
	X, y, s := tiedData(2500, 7, 3, true, 22)
	tr := learn.WithThreads(mustTrainer(t, PaperConfig(Gini)), nil)
	fit := func(b *par.Budget) (raised any) {
		defer func() { raised = recover() }()
		b.Do(func() { learn.WithThreads(tr, b).Fit(X, y, s) })
		return nil
	}
	var tasks atomic.Int64
	taskHook = func(*specNode) { tasks.Add(1) }
	defer func() { taskHook = nil }()
	if r := fit(par.NewBudget(2).Oversubscribe()); r != nil || tasks.Load() < 10 {
		t.Fatalf("a fit without injected panic raised %v after %d queued subtrees", r, tasks.Load())
	}
	for _, at := range []int64{1, tasks.Load() / 2, tasks.Load()} {
		t.Run(fmt.Sprint("task ", at), func(t *testing.T) {
			type injected struct{ task int64 }
			tasks.Store(0)
			taskHook = func(*specNode) {
				if tasks.Add(1) == at {
					panic(injected{at})
				}
			}
			before := runtime.NumGoroutine()
			b := par.NewBudget(2).Oversubscribe()
			if got := fit(b); got != (injected{at}) {
				t.Fatalf("the fit raised %v, want the panic of task %d", got, at)
			}
			returned := make(chan struct{})
			go func() {
				b.Acquire()
				b.Acquire()
				b.Release()
				b.Release()
				close(returned)
			}()
			select {
			case <-returned:
			case <-time.After(10 * time.Second):
				t.Fatal("the fit did not give its threads back")
			}
			for deadline := time.Now().Add(10 * time.Second); runtime.NumGoroutine() > before; time.Sleep(time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("%d goroutines after the fit, %d before", runtime.NumGoroutine(), before)
				}
			}
		})
	}
}

// TestSpeculationTakesThreadsFreedLater: a fit that starts with a thread
// free to help speculates, and takes a further thread of the budget once
// it is freed (a unit of the study ending), still giving the serial model:
// after the first queued subtree frees the third thread, subtrees grow on
// three threads at once.
func TestSpeculationTakesThreadsFreedLater(t *testing.T) {
	defer spreadEveryNode()()
	X, y, s := tiedData(2500, 7, 3, true, 23)
	for _, p := range []Config{PaperConfig(Gini), PaperConfig(Entropy)} {
		t.Run(p.Criterion.String(), func(t *testing.T) {
			tr := mustTrainer(t, p)
			wantJSON, _ := fitBytes(t, tr, nil, X, y, s)
			b := par.NewBudget(3).Oversubscribe()
			b.Acquire() // the other unit
			var freed sync.Once
			var running, most atomic.Int64
			taskHook = func(*specNode) {
				freed.Do(b.Release)
				now := running.Add(1)
				for m := most.Load(); now > m && !most.CompareAndSwap(m, now); m = most.Load() {
				}
				time.Sleep(200 * time.Microsecond)
				running.Add(-1)
			}
			defer func() { taskHook = nil }()
			gotJSON, _ := fitBytes(t, tr, b, X, y, s)
			if !bytes.Equal(gotJSON, wantJSON) {
				t.Error("the model differs from the serial one")
			}
			if most.Load() < 3 {
				t.Errorf("at most %d subtrees grew at once after the third thread was freed", most.Load())
			}
		})
	}
}

// TestBusyBudgetGrowsSerially: a fit that starts while every other thread
// of its budget is busy (two large units at -j 2) grows with the serial
// builder, which on one thread is faster than the speculative pass, and
// gives the same model.
func TestBusyBudgetGrowsSerially(t *testing.T) {
	defer spreadEveryNode()()
	X, y, s := tiedData(2500, 7, 3, true, 23)
	for _, p := range []Config{PaperConfig(Gini), PaperConfig(Entropy)} {
		t.Run(p.Criterion.String(), func(t *testing.T) {
			tr := mustTrainer(t, p)
			wantJSON, _ := fitBytes(t, tr, nil, X, y, s)
			b := par.NewBudget(2).Oversubscribe()
			b.Acquire() // the other unit, busy throughout
			defer b.Release()
			var tasks atomic.Int64
			taskHook = func(*specNode) { tasks.Add(1) }
			defer func() { taskHook = nil }()
			gotJSON, _ := fitBytes(t, tr, b, X, y, s)
			if !bytes.Equal(gotJSON, wantJSON) {
				t.Error("the model differs from the serial one")
			}
			if n := tasks.Load(); n != 0 {
				t.Errorf("%d subtrees were grown as speculative tasks with no thread free", n)
			}
		})
	}
}

// TestIdleThreadsJoinSpreadLoops: a thread of the fit that finds no
// subtree to grow joins the loop another thread spreads over a node's
// columns (the first loop is held open until one does), the fit gives the
// serial model, and a panic in the joining thread reaches the fit's
// caller with every thread given back and no goroutine left.
func TestIdleThreadsJoinSpreadLoops(t *testing.T) {
	defer spreadEveryNode()()
	X, y, s := tiedData(2500, 7, 3, true, 24)
	tr := mustTrainer(t, PaperConfig(Gini))
	wantJSON, wantPred := fitBytes(t, tr, nil, X, y, s)
	for _, panics := range []bool{false, true} {
		t.Run(fmt.Sprint("joiner panics=", panics), func(t *testing.T) {
			type injected struct{}
			var joins atomic.Int64
			var offered atomic.Bool
			held := make(chan bool, 1)
			loopHook = func(*sharedLoop) {
				if !offered.CompareAndSwap(false, true) {
					return // only the first loop waits (sync.Once would hold the others too)
				}
				deadline := time.Now().Add(10 * time.Second)
				for joins.Load() == 0 && time.Now().Before(deadline) {
					time.Sleep(50 * time.Microsecond)
				}
				held <- joins.Load() > 0
			}
			joinHook = func(*sharedLoop) {
				if joins.Add(1) == 1 && panics {
					panic(injected{})
				}
			}
			defer func() { loopHook, joinHook = nil, nil }()
			before := runtime.NumGoroutine()
			b := par.NewBudget(2).Oversubscribe()
			var raised any
			var gotJSON []byte
			var gotPred []int
			func() {
				defer func() { raised = recover() }()
				gotJSON, gotPred = fitBytes(t, tr, b, X, y, s)
			}()
			select {
			case ok := <-held:
				if !ok {
					t.Fatal("no thread joined the first spread loop within 10 s")
				}
			default:
				t.Fatal("the fit spread no loop")
			}
			if panics {
				if raised != (injected{}) {
					t.Fatalf("the fit raised %v, want the joiner's panic", raised)
				}
				for deadline := time.Now().Add(10 * time.Second); runtime.NumGoroutine() > before; time.Sleep(time.Millisecond) {
					if time.Now().After(deadline) {
						t.Fatalf("%d goroutines after the fit, %d before", runtime.NumGoroutine(), before)
					}
				}
				returned := make(chan struct{})
				go func() {
					b.Acquire()
					b.Acquire()
					close(returned)
				}()
				select {
				case <-returned:
				case <-time.After(10 * time.Second):
					t.Fatal("the fit did not give its threads back")
				}
				return
			}
			if raised != nil {
				t.Fatal(raised)
			}
			if !bytes.Equal(gotJSON, wantJSON) || fmt.Sprint(gotPred) != fmt.Sprint(wantPred) {
				t.Error("the model fitted with joined loops differs from the serial one")
			}
		})
	}
}
