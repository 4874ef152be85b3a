// Package par is fgrtbench's one CPU budget: a fixed number of busy
// threads that the units of a study and the loops inside their fits share.
//
// A unit worker holds one thread of the budget for each unit it runs
// (Acquire, Release, or Do). A fit that has a loop worth spreading calls
// For: the calling goroutine works on the loop itself, and For adds a
// goroutine only for each thread that is free at that moment, without
// waiting for one. While units are many, their workers hold every thread
// and loops run serially on their callers; when units run out (the long
// tail of a study, one large dataset), the threads their workers give back
// go to the loops of the units still running. The number of busy threads
// never exceeds the budget.
//
// For lends a loop no more helper goroutines, budget-wide, than the Go
// runtime can run beside its caller (runtime.GOMAXPROCS(0)-1, read at each
// call): -j above the CPUs (-j 64 on two cores) would otherwise start a
// helper for every free thread, each with its own working buffers (CART's
// scratch and presort keys, FGRT's workspaces), adding memory and no speed.
// Oversubscribe lifts the cap for tests that want more interleavings than
// CPUs.
//
// For is deterministic by construction: body(i) must write only what
// belongs to index i, and the caller combines the results in index order
// after For returns, so the outcome does not depend on how many threads
// took part or on the order they ran in. A nil *Budget runs every loop
// serially, in order, on its caller.
package par

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Budget is a fixed number of threads shared by everything that runs under
// it. Its methods are safe for concurrent use.
type Budget struct {
	free    chan struct{}
	threads int
	busy    atomic.Int64
	peak    atomic.Int64
	// helpers counts the goroutines For has started and not yet seen
	// end, over every loop of the budget.
	helpers atomic.Int64
	// uncapped lets For lend every free thread (Oversubscribe).
	uncapped bool
}

// Oversubscribe makes For lend every free thread of b, even beyond what
// the runtime can run at once, and returns b. It is for tests that force
// more threads than the machine has CPUs to exercise concurrent
// interleavings; a run never calls it, since those helpers only cost
// memory. Call it before b is shared.
func (b *Budget) Oversubscribe() *Budget {
	b.uncapped = true
	return b
}

// NewBudget returns a budget of threads busy threads (at least 1).
func NewBudget(threads int) *Budget {
	if threads < 1 {
		threads = 1
	}
	b := &Budget{free: make(chan struct{}, threads), threads: threads}
	for i := 0; i < threads; i++ {
		b.free <- struct{}{}
	}
	return b
}

// Threads is the size of the budget; 1 for a nil budget.
func (b *Budget) Threads() int {
	if b == nil {
		return 1
	}
	return b.threads
}

// Peak is the largest number of threads that were busy at once.
func (b *Budget) Peak() int {
	if b == nil {
		return 1
	}
	return int(b.peak.Load())
}

func (b *Budget) taken() {
	n := b.busy.Add(1)
	for {
		p := b.peak.Load()
		if n <= p || b.peak.CompareAndSwap(p, n) {
			return
		}
	}
}

// Acquire waits for a free thread and takes it for the caller.
func (b *Budget) Acquire() {
	if b == nil {
		return
	}
	<-b.free
	b.taken()
}

// tryAcquire takes a free thread if there is one, without waiting.
func (b *Budget) tryAcquire() bool {
	select {
	case <-b.free:
		b.taken()
		return true
	default:
		return false
	}
}

// lend takes a free thread for a helper goroutine of For if there is one
// and the helpers in flight are fewer than the runtime can run beside the
// caller. The helper gives both back with unlend.
func (b *Budget) lend() bool {
	limit := b.helperLimit()
	for {
		h := b.helpers.Load()
		if h >= limit {
			return false
		}
		if b.helpers.CompareAndSwap(h, h+1) {
			break
		}
	}
	if b.tryAcquire() {
		return true
	}
	b.helpers.Add(-1)
	return false
}

// CanLend reports whether For could lend a helper now: a thread of b is
// free and the helpers in flight are fewer than the runtime can run (false
// for a nil budget). It is a hint for a loop whose spread form costs more
// than its serial one on a single thread (CART's speculative growth): by
// the time the loop spreads, the answer may have changed either way, so
// nothing that depends on it may change a result.
func (b *Budget) CanLend() bool {
	if b == nil {
		return false
	}
	return len(b.free) > 0 && b.helpers.Load() < b.helperLimit()
}

// helperLimit is the most helper goroutines For keeps in flight over
// every loop of b: what the runtime can run beside their callers, or every
// thread of b when b is Oversubscribed.
func (b *Budget) helperLimit() int64 {
	if b.uncapped {
		return int64(b.threads)
	}
	return int64(runtime.GOMAXPROCS(0) - 1)
}

func (b *Budget) unlend() {
	b.Release()
	b.helpers.Add(-1)
}

// Release gives back a thread taken by Acquire.
func (b *Budget) Release() {
	if b == nil {
		return
	}
	b.busy.Add(-1)
	b.free <- struct{}{}
}

// Do runs f on the caller while holding one thread of the budget, so that
// the loops f spreads with For count the caller's own thread.
func (b *Budget) Do(f func()) {
	b.Acquire()
	defer b.Release()
	f()
}

// For calls body(i) once for every i in [0, n) and returns when all calls
// have returned. The caller, which must hold a thread of the budget (a
// unit worker, or inside Do), works on the loop; one more goroutine joins
// for each thread free now, up to n-1 of them and while the helpers of
// every loop of the budget stay below runtime.GOMAXPROCS(0) (the caller
// runs too). A panic in any call is
// raised again on the caller once the others have finished.
func (b *Budget) For(n int, body func(i int)) {
	if n <= 0 {
		return
	}
	if b == nil || n == 1 {
		for i := 0; i < n; i++ {
			body(i)
		}
		return
	}
	var next atomic.Int64
	var failure atomic.Pointer[panicked]
	work := func() {
		defer func() {
			if r := recover(); r != nil {
				failure.CompareAndSwap(nil, &panicked{r})
				next.Store(int64(n)) // the others stop taking indices
			}
		}()
		for {
			i := int(next.Add(1) - 1)
			if i >= n {
				return
			}
			body(i)
		}
	}
	var wg sync.WaitGroup
	for extra := 0; extra < n-1 && b.lend(); extra++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer b.unlend()
			work()
		}()
	}
	work()
	wg.Wait()
	if p := failure.Load(); p != nil {
		panic(p.value)
	}
}

type panicked struct{ value any }
