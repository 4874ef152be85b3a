package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fgrtbench/fgrtbench/bench/manifest"
	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/results"
)

// running tracks, outside the admission, the units that run at once and
// the memory their footprints add up to (a shared fold counted once), so
// that the tests check admission against their own sums.
type running struct {
	mu    sync.Mutex
	units map[string]footprint
	peak  int64
	most  int // the most units at once
	// asked is the running units' thread demands; mostAsked its peak.
	asked, mostAsked int
	events           []string
}

func (r *running) sum() int64 {
	folds := map[string]bool{}
	var s int64
	for _, fp := range r.units {
		s += fp.own
		if fp.fold == "" || !folds[fp.fold] {
			s += fp.shared
			folds[fp.fold] = true
		}
	}
	return s
}

func (r *running) start(key string, fp footprint) (sum int64, alone bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.units[key] = fp
	r.asked += fp.demand()
	r.mostAsked = max(r.mostAsked, r.asked)
	sum = r.sum()
	r.peak, r.most = max(r.peak, sum), max(r.most, len(r.units))
	r.events = append(r.events, "start "+key)
	return sum, len(r.units) == 1
}

// peakAsked reports whether the running units ask for more than threads
// (never, with no thread limit).
func (r *running) peakAsked(threads int) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return threads > 0 && r.asked > threads
}

func (r *running) stop(key string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.asked -= r.units[key].demand()
	delete(r.units, key)
	r.events = append(r.events, "stop "+key)
}

// runAdmitted admits every footprint, on a budget of threads (0: no
// thread limit), from its own goroutine (in order,
// each asking once the previous one asked) and holds each for a moment,
// or, with overlap > 0, until that many units have run at once (at most
// 5 s: a loaded machine may start goroutines late, but not that late); it
// returns the tracker and the warnings.
func runAdmitted(t *testing.T, avail int64, threads int, fps []footprint, overlap int) (*running, []string) {
	t.Helper()
	var warnMu sync.Mutex
	var warnings []string
	a := newAdmission(avail, threads, func(w string) { warnMu.Lock(); warnings = append(warnings, w); warnMu.Unlock() })
	tr := &running{units: map[string]footprint{}}
	var wg sync.WaitGroup
	errs := make(chan error, len(fps))
	for i, fp := range fps {
		key := fmt.Sprintf("u%d", i)
		asked := make(chan struct{})
		wg.Add(1)
		go func() {
			defer wg.Done()
			go func() { time.Sleep(2 * time.Millisecond); close(asked) }()
			done, err := a.admit(context.Background(), key, fp)
			if err != nil {
				errs <- err
				return
			}
			sum, alone := tr.start(key, fp)
			if sum > avail && !alone {
				errs <- fmt.Errorf("%s admitted beside others with %d bytes of footprints running, budget %d", key, sum, avail)
			}
			if tr.peakAsked(threads) && !alone {
				errs <- fmt.Errorf("%s admitted beside others asking for more than the %d threads", key, threads)
			}
			time.Sleep(5 * time.Millisecond)
			for deadline := time.Now().Add(5 * time.Second); overlap > 0 && time.Now().Before(deadline); time.Sleep(time.Millisecond) {
				tr.mu.Lock()
				most := tr.most
				tr.mu.Unlock()
				if most >= overlap {
					break
				}
			}
			tr.stop(key)
			done()
		}()
		<-asked
	}
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()
	select {
	case <-finished:
	case <-time.After(20 * time.Second):
		t.Fatalf("admission deadlocked; events so far: %v", tr.events)
	}
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if a.used != 0 || a.running != 0 || a.asked != 0 || len(a.folds) != 0 || len(a.queue) != 0 {
		t.Errorf("after every unit: used %d, running %d, asked %d, folds %v, queue %d; want all empty", a.used, a.running, a.asked, a.folds, len(a.queue))
	}
	return tr, warnings
}

// TestAdmissionWithinBudget: with fake estimates, the units running at
// once never add up to more than the budget, yet as many run as fit (a
// budget that fits everything runs everything at once; a shared fold is
// counted once).
func TestAdmissionWithinBudget(t *testing.T) {
	own := func(n int64) footprint { return footprint{own: n} }
	fold := func(key string, shared, own int64) footprint { return footprint{fold: key, shared: shared, own: own} }
	cases := []struct {
		name     string
		avail    int64
		fps      []footprint
		wantMost int // most units at once (0: not checked); the units wait until that many ran together
	}{
		{"everything fits", 1000, []footprint{own(100), own(200), own(300)}, 3},
		{"one at a time", 100, []footprint{own(60), own(60), own(60), own(60)}, 1},
		{"two at a time", 100, []footprint{own(50), own(50), own(50), own(50), own(50), own(50)}, 2},
		{"mixed sizes", 100, []footprint{own(70), own(30), own(40), own(60), own(10), own(90), own(20)}, 0},
		{"a shared fold counts once", 100, []footprint{fold("f0", 60, 20), fold("f0", 60, 20)}, 2},
		{"different folds do not share", 100, []footprint{fold("f0", 60, 20), fold("f1", 60, 20)}, 1},
		{"folds and others", 150, []footprint{fold("f0", 60, 20), own(30), fold("f0", 60, 20), fold("f1", 60, 20), own(50), fold("f1", 60, 10)}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			overlap := 0
			if c.wantMost > 1 {
				overlap = c.wantMost
			}
			tr, warnings := runAdmitted(t, c.avail, 0, c.fps, overlap)
			if tr.peak > c.avail {
				t.Errorf("peak of running footprints %d > budget %d", tr.peak, c.avail)
			}
			if c.wantMost > 0 && tr.most != c.wantMost {
				t.Errorf("at most %d units ran at once, want %d (events %v)", tr.most, c.wantMost, tr.events)
			}
			if len(warnings) != 0 {
				t.Errorf("warnings for units that fit: %q", warnings)
			}
		})
	}
}

// TestAdmissionOversizeRunsAlone: a unit larger than the whole budget
// runs, alone (nothing else starts while it runs), with one warning that
// names it; the units after it still run.
func TestAdmissionOversizeRunsAlone(t *testing.T) {
	fps := []footprint{{own: 30}, {own: 30}, {own: 250}, {own: 30}, {fold: "f", shared: 200, own: 10}, {own: 30}}
	tr, warnings := runAdmitted(t, 100, 0, fps, 0)
	if len(warnings) != 2 || !strings.Contains(warnings[0], "u2") || !strings.Contains(warnings[1], "u4") ||
		!strings.Contains(warnings[0], "runs alone") || strings.Contains(warnings[0], "\n") {
		t.Errorf("warnings %q, want one line each for u2 and u4 saying they run alone", warnings)
	}
	// Between an oversize unit's start and stop, no other event.
	for _, big := range []string{"u2", "u4"} {
		for i, e := range tr.events {
			if e == "start "+big && (i+1 >= len(tr.events) || tr.events[i+1] != "stop "+big) {
				t.Errorf("%s did not run alone: events %v", big, tr.events)
			}
		}
	}
	if len(tr.events) != 2*len(fps) {
		t.Errorf("events %v: not every unit ran", tr.events)
	}
}

// TestAdmissionCancelled: a unit waiting for memory returns the context's
// error when the run is cancelled, and the units queued behind it are not
// blocked by it.
func TestAdmissionCancelled(t *testing.T) {
	a := newAdmission(100, 0, nil)
	done, err := a.admit(context.Background(), "first", footprint{own: 80})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	waited := make(chan error)
	go func() {
		_, err := a.admit(ctx, "second", footprint{own: 80})
		waited <- err
	}()
	time.Sleep(10 * time.Millisecond)
	cancel()
	select {
	case err := <-waited:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled wait: %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a cancelled wait did not return")
	}
	done()
	third, err := a.admit(context.Background(), "third", footprint{own: 90})
	if err != nil {
		t.Fatal(err)
	}
	third()
	if a.used != 0 || len(a.queue) != 0 {
		t.Errorf("used %d, queue %d after every unit", a.used, len(a.queue))
	}
}

// cleanPlan is the clean protocol's plan of the test dataset alpha.
func cleanPlan(t *testing.T) *protocol.Plan {
	t.Helper()
	d, err := testLoader(context.Background(), "alpha")
	if err != nil {
		t.Fatal(err)
	}
	p, err := protocol.Lookup("clean")
	if err != nil {
		t.Fatal(err)
	}
	plan, err := p.Plan(d, protocol.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return plan
}

// TestFoldCacheSharesAndFrees: units holding a fold's rows at the same
// time share one scaled copy (the same memory, scaled once), the rows
// equal the fold's own, and the cache lets go of each part when its last
// holder drops it; a unit that comes after scales its own.
func TestFoldCacheSharesAndFrees(t *testing.T) {
	plan := cleanPlan(t)
	f := &plan.Folds[1]
	key := foldKey(plan, 1)
	if key == "" || foldKey(plan, 1) == foldKey(plan, 2) {
		t.Fatalf("fold keys %q, %q: want distinct keys for a clean plan's folds", foldKey(plan, 1), foldKey(plan, 2))
	}
	wantTr, wantTe := f.Matrices(nil)
	var c foldCache
	a := c.rows(key, f)
	b := c.rows(key, f)
	if &a.xtr[0][0] != &b.xtr[0][0] || &a.xte()[0][0] != &b.xte()[0][0] {
		t.Fatal("two holders of the same fold got different copies")
	}
	if e := c.m[key]; e.trainBuilds != 1 || e.trainUsers != 2 || e.testUsers != 2 {
		t.Fatalf("%d scalings, %d and %d holders: want the rows scaled once for two holders", e.trainBuilds, e.trainUsers, e.testUsers)
	}
	if fmt.Sprint(a.xtr) != fmt.Sprint(wantTr) || fmt.Sprint(a.xte()) != fmt.Sprint(wantTe) {
		t.Fatal("shared rows differ from the fold's own")
	}
	other := c.rows(foldKey(plan, 2), &plan.Folds[2])
	if &other.xtr[0][0] == &a.xtr[0][0] {
		t.Fatal("another fold got this fold's rows")
	}
	a.dropTrain()
	a.dropTrain() // a second drop is a no-op
	if e := c.m[key]; e.xtr == nil || e.trainUsers != 1 {
		t.Fatalf("after one of two drops: trainUsers %d, rows held %v", e.trainUsers, e.xtr != nil)
	}
	b.dropTrain()
	if e := c.m[key]; e.xtr != nil {
		t.Fatal("training rows still held after their last holder dropped them")
	}
	late := c.rows(key, f) // the test rows are still held: shared; the training rows are scaled again
	if e := c.m[key]; e.trainBuilds != 2 || &late.xte()[0][0] != &a.xte()[0][0] {
		t.Fatalf("a late unit: %d scalings of the training rows (want 2), same test rows %v", e.trainBuilds, &late.xte()[0][0] == &a.xte()[0][0])
	}
	for _, r := range []sharedRows{a, b, late, other} {
		r.dropTrain()
		r.dropTest()
	}
	if n := c.held(); n != 0 {
		t.Fatalf("%d folds still held after every holder dropped them", n)
	}
	// Rows the plan holds (no per-fold scaling) are not cached.
	if k := foldKey(&protocol.Plan{Folds: []protocol.Fold{{}}}, 0); k != "" {
		t.Fatalf("fold key %q for a fold without rescaling", k)
	}
}

// TestFoldCacheConcurrent: many units asking for the same fold at once
// all get the same rows, scaled once (run with -race).
func TestFoldCacheConcurrent(t *testing.T) {
	plan := cleanPlan(t)
	key := foldKey(plan, 0)
	var c foldCache
	const n = 8
	got := make([]sharedRows, n)
	var wg sync.WaitGroup
	for i := range got {
		wg.Add(1)
		go func() { defer wg.Done(); got[i] = c.rows(key, &plan.Folds[0]); got[i].xte() }()
	}
	wg.Wait()
	if e := c.m[key]; e.trainBuilds != 1 {
		t.Errorf("%d holders at once: training rows scaled %d times, want 1", n, e.trainBuilds)
	}
	for _, g := range got[1:] {
		if &g.xtr[0][0] != &got[0].xtr[0][0] || &g.xte()[0][0] != &got[0].xte()[0][0] {
			t.Fatal("concurrent holders got different rows")
		}
	}
	for _, g := range got {
		wg.Add(1)
		go func() { defer wg.Done(); g.dropTest(); g.dropTrain() }()
	}
	wg.Wait()
	if c.held() != 0 {
		t.Fatal("rows held after every holder dropped them")
	}
}

// TestEstimateFootprint checks the model's terms on a clean plan: the fold
// rows are shared, inner cross-validation adds a rescaled copy, a plan
// that holds its rows shares nothing.
func TestEstimateFootprint(t *testing.T) {
	plan := cleanPlan(t)
	f := plan.Folds[0]
	p := int64(len(plan.Schema.Features))
	row := 8*p + rowHeader
	ntr, nte := int64(f.NTrain()), int64(f.NTest())
	slack := func(n int64) int64 { return n + n*gcSlack/100 }
	fixed := study.ResolvedMethod{Configs: make([]learn.Values, 1)}
	grid := study.ResolvedMethod{Configs: make([]learn.Values, 3), Selection: protocol.SelectInnerCV}
	cases := []struct {
		name    string
		plan    *protocol.Plan
		m       study.ResolvedMethod
		threads int
		want    footprint
	}{
		{"fixed configuration", plan, fixed, 1, footprint{fold: foldKey(plan, 0), shared: slack((ntr + nte) * row), own: slack(unitOverhead + fitCells*8*p*ntr)}},
		{"inner cross-validation", plan, grid, 1, footprint{fold: foldKey(plan, 0), shared: slack((ntr + nte) * row), own: slack(unitOverhead + fitCells*8*p*ntr + ntr*row)}},
		{"rows held by the plan", &protocol.Plan{Schema: plan.Schema, Folds: []protocol.Fold{{YTrain: f.YTrain, YTest: f.YTest}}}, fixed, 1,
			footprint{own: slack(unitOverhead + fitCells*8*p*ntr)}},
		{"three threads", plan, fixed, 3, footprint{fold: foldKey(plan, 0), shared: slack((ntr + nte) * row), own: slack(unitOverhead + fitCells*8*p*ntr + 2*threadRowBytes*ntr)}},
		{"more threads than inputs", plan, fixed, int(p) + 5, footprint{fold: foldKey(plan, 0), shared: slack((ntr + nte) * row), own: slack(unitOverhead + fitCells*8*p*ntr + (p-1)*threadRowBytes*ntr)}},
	}
	for _, c := range cases {
		if got := estimateFootprint(c.plan, c.m, 0, c.threads); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

// TestBudgetDoesNotChangeResults: a budget that binds (every unit alone)
// gives the results and artifacts of no budget, and the manifest records
// the budget and the peak.
func TestBudgetDoesNotChangeResults(t *testing.T) {
	dirs := map[string]string{}
	for _, c := range []struct {
		name   string
		memory int64
	}{{"none", 0}, {"binding", 1}} {
		dir := t.TempDir()
		dirs[c.name] = dir
		var warnings []string
		r := &Runner{Load: testLoader, OutDir: dir, Jobs: 4, Memory: c.memory, MemorySource: "--memory " + fmt.Sprint(c.memory),
			Warn: func(w string) { warnings = append(warnings, w) }}
		if _, err := r.Run(context.Background(), testStudy()); err != nil {
			t.Fatal(err)
		}
		if c.memory > 0 && (len(warnings) != 1 || !strings.Contains(warnings[0], "units run one at a time")) {
			t.Errorf("%s: warnings %q, want one saying units run one at a time", c.name, warnings)
		}
		data, err := os.ReadFile(filepath.Join(dir, manifest.FileName))
		if err != nil {
			t.Fatal(err)
		}
		var m manifest.Manifest
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		last := m.History[len(m.History)-1]
		if m.Memory == nil || m.Memory.BudgetBytes != c.memory || m.Memory.Budget != r.MemorySource || m.Memory.PeakRSSBytes <= 0 ||
			last.Memory == nil || *last.Memory != *m.Memory {
			t.Errorf("%s: manifest memory %+v (history %+v), want budget %d from %q and a peak", c.name, m.Memory, last.Memory, c.memory, r.MemorySource)
		}
	}
	if a, b := stripTiming(t, filepath.Join(dirs["none"], results.FileName)), stripTiming(t, filepath.Join(dirs["binding"], results.FileName)); a != b {
		t.Fatalf("results differ with a binding budget:\n%s\n---\n%s", a, b)
	}
	for _, name := range []string{"predictions.csv.gz", "models.jsonl.gz"} {
		a, errA := os.ReadFile(filepath.Join(dirs["none"], name))
		b, errB := os.ReadFile(filepath.Join(dirs["binding"], name))
		if errA != nil || errB != nil || string(a) != string(b) {
			t.Errorf("%s differs with a binding budget (%v, %v)", name, errA, errB)
		}
	}
}
