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
// For is deterministic by construction: body(i) must write only what
// belongs to index i, and the caller combines the results in index order
// after For returns, so the outcome does not depend on how many threads
// took part or on the order they ran in. A nil *Budget runs every loop
// serially, in order, on its caller.
package par

import (
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
// for each thread free now, up to n-1 of them. A panic in any call is
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
	for extra := 0; extra < n-1 && b.tryAcquire(); extra++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer b.Release()
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
