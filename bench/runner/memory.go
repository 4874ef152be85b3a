package runner

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"

	"github.com/fgrtbench/fgrtbench/bench/manifest"
	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/internal/memsize"
)

// The memory budget (Runner.Memory) bounds a study's peak by admitting
// units by their estimated footprint: a unit starts only while the
// footprints of the units running, with it, fit in what the budget leaves
// beside the data and plans already loaded. More workers (-j) then wait
// instead of each adding a fold's rows and a fit's working memory, so the
// peak stops growing with -j once the budget binds. Admission decides only
// when a unit starts, never what it computes: results are identical under
// any budget.

// The footprint model, in bytes, for a unit whose fold has n training
// rows of p inputs (a cell is one float64 value of a training row).
// Calibrated by TestFootprintCovers (FGRT_FOOTPRINT_ROWS=200000): one
// unit's peak heap above the data and plans loaded, sampled every
// millisecond at GOGC=10 (the collector setting of a large study), was
// 54.6 MB for CART (its single configuration) and 58.3 MB for FGRT (16
// configurations chosen by a 5-fold inner cross-validation) on 200000 ×
// 20 rows: 17 and 18 bytes per training cell, of which the fold's scaled
// rows take 11.5. The model below gives 85 and 120 MB there: an upper
// bound with room for what a millisecond's sampling misses and for the
// pages the runtime has not yet returned (resident memory, not heap, is
// what the budget bounds). docs/performance.md, section "Memory", gives
// the figures at 10^6 rows.
const (
	// rowHeader is the slice header each scaled row carries beside its
	// p·8 bytes of values.
	rowHeader = 24
	// fitCells is a fit's working memory and model in cells of its
	// training rows: CART's float32 columns and index arrays, FGRT's
	// memberships and supports, the trees. Measured: below 1.
	fitCells = 1
	// unitOverhead is what every unit holds whatever its data: buffers,
	// its results and artifacts before they are written.
	unitOverhead = 8 << 20
	// gcSlack is the collector's headroom at the large-study setting
	// (tightGC: 10 % growth over the live heap) plus a margin for the
	// allocator's spans, as a percentage of a footprint.
	gcSlack = 20
	// threadRowBytes is what each thread beyond the first that a fit keeps
	// busy holds per training row: CART sorts its columns at once, one per
	// thread, each with a key buffer of two uint64 per row, and its split
	// search gives each thread a scratch of 12 bytes per row. Measured
	// (TestFootprintCovers at -j 1 to 16, 200000 × 20): CART's peak grew
	// from 57.5 MB at -j 1 to 92.1 MB at -j 16, about 14 bytes per row per
	// thread, and passed its estimate from -j 8 on while the model ignored
	// threads.
	threadRowBytes = 16
)

// footprint is a unit's estimated peak memory: its own, and its fold's
// scaled rows, which units on the same fold share (foldCache) and
// admission counts once however many of them run.
type footprint struct {
	fold   string // the shared rows' key; "" when the plan holds the rows
	shared int64  // the fold's scaled training and test rows
	own    int64  // inner cross-validation's rows, the fit, the unit's overhead
	// threads is the unit's thread demand (demand.go): how many of the
	// budget's threads its fits can keep busy; 0 counts as 1.
	threads int
}

func (f footprint) total() int64 { return f.shared + f.own }

// estimateFootprint is the footprint model applied to unit u of plan
// (fold index fi) for method m. A protocol that scales rows per fold
// (clean) makes a fold's scaled copy, shared by the fold's units, and, for
// inner cross-validation, a rescaled copy of each inner split's rows (one
// at a time); the paper and holdout protocols' plans hold their rows,
// already counted in what is loaded. Folds are counted whole (training and
// test rows) and the inner phase beside the fold's rows, although a lone
// unit holds them one after the other: the estimate is an upper bound.
// threads is how many threads the unit's fits may keep busy: for a method
// that spreads its fits, -j or runtime.GOMAXPROCS if fewer (the idle
// threads of the budget go to the running units' loops, so any unit may
// get them all, but par.Budget.For lends no more helpers than the runtime
// runs beside their callers), else 1; each
// thread beyond the first, up to one per input (the widest of the loops
// that take a buffer per thread), adds threadRowBytes per training row.
func estimateFootprint(plan *protocol.Plan, m study.ResolvedMethod, fi, threads int) footprint {
	if fi < 0 || fi >= len(plan.Folds) {
		return footprint{own: unitOverhead}
	}
	f := &plan.Folds[fi]
	p := int64(len(plan.Schema.Features))
	row := 8*p + rowHeader
	ntr, nte := int64(f.NTrain()), int64(f.NTest())
	fp := footprint{own: unitOverhead + fitCells*8*p*ntr}
	if extra := min(int64(threads), p) - 1; extra > 0 {
		fp.own += extra * threadRowBytes * ntr
	}
	if fp.fold = foldKey(plan, fi); fp.fold != "" { // the key foldCache shares the rows under
		fp.shared = (ntr + nte) * row
	}
	if m.SelectionFor(plan) == protocol.SelectInnerCV {
		if f.Rescale != nil {
			fp.own += ntr * row // an inner split's training and test rows, rescaled
		} else {
			fp.own += ntr * rowHeader // views of the fold's rows
		}
	}
	fp.shared += fp.shared * gcSlack / 100
	fp.own += fp.own * gcSlack / 100
	return fp
}

// admission lets units start while their footprints fit the memory left
// for units, in the order they asked (first come, first admitted: a large
// unit is not starved by small ones passing it). A unit whose footprint
// alone exceeds what is left starts when nothing else runs, and nothing
// else starts while it runs: it runs alone rather than never.
type admission struct {
	mu      sync.Mutex
	cond    *sync.Cond
	avail   int64          // the budget less the memory loaded before units ran
	used    int64          // footprints of the running units, shared folds once
	threads int            // the CPU budget's threads (-j)
	procs   int            // runtime.GOMAXPROCS when the run began
	asked   int            // the thread demands of the running units
	folds   map[string]int // running units per shared fold
	running int
	queue   []*int // tickets of the waiting units, oldest first
	// warn, when set, receives the line about a unit that runs alone.
	warn func(string)
}

// newAdmission admits units within avail bytes (Runner.admission finds
// avail from the budget) and, when threads > 0, while their thread demands
// fit in threads (demand.go).
func newAdmission(avail int64, threads int, warn func(string)) *admission {
	a := &admission{avail: avail, threads: threads, procs: runtime.GOMAXPROCS(0), folds: map[string]int{}, warn: warn}
	a.cond = sync.NewCond(&a.mu)
	return a
}

// cost is what admitting fp adds to used.
func (a *admission) cost(fp footprint) int64 {
	if fp.fold != "" && a.folds[fp.fold] > 0 {
		return fp.own
	}
	return fp.total()
}

// fits reports whether fp may start beside the running units: within the
// memory left and, with a thread limit, within the threads left. A unit
// always fits when nothing runs.
func (a *admission) fits(fp footprint) bool {
	if a.running == 0 {
		return true
	}
	if a.threads > 0 && a.asked+fp.demand() > a.threads {
		return false
	}
	return a.used+a.cost(fp) <= a.avail
}

// admit waits until fp fits (or runs alone) and returns the function that
// gives its memory back; an error only when ctx ends first. A nil
// admission admits everything at once.
func (a *admission) admit(ctx context.Context, key string, fp footprint) (func(), error) {
	if a == nil {
		return func() {}, nil
	}
	stop := context.AfterFunc(ctx, func() {
		a.mu.Lock()
		a.cond.Broadcast()
		a.mu.Unlock()
	})
	defer stop()
	a.mu.Lock()
	defer a.mu.Unlock()
	ticket := new(int)
	a.queue = append(a.queue, ticket)
	for a.queue[0] != ticket || !a.fits(fp) {
		if err := ctx.Err(); err != nil {
			a.leave(ticket)
			return nil, err
		}
		a.cond.Wait()
	}
	a.leave(ticket)
	if fp.total() > a.avail && a.warn != nil {
		a.warn(fmt.Sprintf("%s: its estimated memory (%s) is more than the budget leaves for units (%s): it runs alone",
			key, memsize.Format(fp.total()), memsize.Format(max(0, a.avail))))
	}
	a.used += a.cost(fp)
	a.asked += fp.demand()
	a.running++
	if fp.fold != "" {
		a.folds[fp.fold]++
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			a.mu.Lock()
			defer a.mu.Unlock()
			a.running--
			a.asked -= fp.demand()
			a.used -= fp.own
			if fp.fold != "" {
				if a.folds[fp.fold]--; a.folds[fp.fold] == 0 {
					delete(a.folds, fp.fold)
					a.used -= fp.shared
				}
			}
			a.cond.Broadcast()
		})
	}, nil
}

// leave takes ticket out of the queue and wakes the waiters: the next in
// line may fit now.
func (a *admission) leave(ticket *int) {
	for i, t := range a.queue {
		if t == ticket {
			a.queue = append(a.queue[:i], a.queue[i+1:]...)
			break
		}
	}
	a.cond.Broadcast()
}

// heapInUse is the memory the process holds before any unit runs (the
// datasets and plans), measured after a collection so that garbage from
// loading is not counted.
func heapInUse() int64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapInuse + ms.StackInuse)
}

// admission returns the admission of a run's units within r.Memory (no
// memory limit without a budget) and the threads of -j. The budget covers
// the whole process: what the
// datasets and plans hold when units start is taken off it first. The Go
// runtime's own memory limit is left alone: a budget below what one unit
// needs would make its collector run without pause, and the large-study
// collector setting (tightGC) already keeps the heap within a tenth of
// what is live.
func (r *Runner) admission() *admission {
	if r.Memory <= 0 {
		return newAdmission(math.MaxInt64, r.threads(), nil)
	}
	base := heapInUse()
	warn := r.Warn
	if base >= r.Memory && r.Warn != nil {
		r.Warn(fmt.Sprintf("the loaded data and plans take %s of the %s memory budget: units run one at a time",
			memsize.Format(base), memsize.Format(r.Memory)))
		warn = nil // every unit would say it again
	}
	return newAdmission(r.Memory-base, r.threads(), warn)
}

// admitUnit waits until unit u of plan may start within the budgets and
// returns the function to call when it is done. threaded says whether the
// unit's method spreads its fits over free threads (learn.Threaded).
func (a *admission) admitUnit(ctx context.Context, u study.Unit, plan *protocol.Plan, m study.ResolvedMethod, nFolds int, threaded bool) (func(), error) {
	if a == nil {
		return func() {}, nil
	}
	fi := foldIndex(u, nFolds)
	busy := 1
	if threaded {
		// For lends a fit no more helpers than the runtime runs beside
		// its caller (internal/par), whatever -j.
		busy = max(1, min(a.threads, a.procs))
	}
	fp := estimateFootprint(plan, m, fi, busy)
	fp.threads = threadDemand(plan, fi, threaded, a.threads, a.procs)
	return a.admit(ctx, u.Key, fp)
}

// memoryRecord is the manifest's record of the run's budget and peak.
func (r *Runner) memoryRecord() *manifest.Memory {
	return &manifest.Memory{BudgetBytes: max(0, r.Memory), Budget: r.MemorySource, PeakRSSBytes: memsize.PeakRSS()}
}
