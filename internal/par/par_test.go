package par

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestForCallsEachIndexOnce(t *testing.T) {
	for _, threads := range []int{1, 2, 3, 8} {
		for _, n := range []int{0, 1, 2, 7, 100} {
			b := NewBudget(threads).Oversubscribe()
			counts := make([]int32, n)
			b.Do(func() {
				b.For(n, func(i int) { atomic.AddInt32(&counts[i], 1) })
			})
			for i, c := range counts {
				if c != 1 {
					t.Fatalf("threads %d n %d: index %d called %d times", threads, n, i, c)
				}
			}
			if b.Peak() > threads {
				t.Fatalf("threads %d: peak %d", threads, b.Peak())
			}
		}
	}
}

func TestNilBudgetIsSerialInOrder(t *testing.T) {
	var b *Budget
	var order []int
	b.Do(func() { b.For(5, func(i int) { order = append(order, i) }) })
	for i, v := range order {
		if v != i {
			t.Fatalf("order %v", order)
		}
	}
	if len(order) != 5 || b.Threads() != 1 || b.Peak() != 1 {
		t.Fatalf("order %v threads %d peak %d", order, b.Threads(), b.Peak())
	}
}

// Loops use the threads that are free and only those: with every thread
// held by a unit worker, a loop runs on its caller alone; once the workers
// give theirs back, a loop spreads over them.
func TestForTakesOnlyFreeThreads(t *testing.T) {
	b := NewBudget(4).Oversubscribe()
	for i := 0; i < 3; i++ {
		b.Acquire() // three other units run
	}
	if m := mostAtOnce(b, 64); m != 1 {
		t.Fatalf("with every other thread held, a loop ran %d calls at once, want 1", m)
	}
	for i := 0; i < 3; i++ {
		b.Release()
	}
	if m := mostAtOnce(b, 64); m < 2 || m > 4 {
		t.Fatalf("a loop with 4 free threads ran %d calls at once, want 2..4", m)
	}
	if b.Peak() > 4 {
		t.Fatalf("peak %d over a budget of 4", b.Peak())
	}
}

// Nested loops and units competing for threads never make more threads
// busy than the budget, and every thread comes back.
func TestNeverOversubscribes(t *testing.T) {
	const threads = 3
	b := NewBudget(threads).Oversubscribe()
	var wg sync.WaitGroup
	var sum atomic.Int64
	for u := 0; u < 12; u++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Do(func() {
				b.For(8, func(i int) {
					b.For(8, func(j int) { sum.Add(int64(i*8 + j)) })
				})
			})
		}()
	}
	wg.Wait()
	if got, want := sum.Load(), int64(12*(63*64/2)); got != want {
		t.Fatalf("sum %d, want %d", got, want)
	}
	if b.Peak() > threads {
		t.Fatalf("peak %d over a budget of %d", b.Peak(), threads)
	}
	if n := len(b.free); n != threads {
		t.Fatalf("%d of %d threads came back", n, threads)
	}
}

// For lends no more helpers, over every loop of the budget, than the
// runtime can run beside their callers: a budget far above GOMAXPROCS runs
// a lone loop on GOMAXPROCS goroutines, and two unit workers' loops on
// their two callers and GOMAXPROCS-1 helpers in all. Oversubscribe lends
// every free thread.
func TestForLendsNoMoreHelpersThanTheRuntimeRuns(t *testing.T) {
	for _, c := range []struct {
		threads, procs int
		uncapped       bool
		lone, two      int64 // the most calls at once: one loop, two workers' loops
	}{
		{16, 1, false, 1, 2},
		{16, 2, false, 2, 3},
		{16, 3, false, 3, 4},
		{2, 4, false, 2, 2},   // the budget bounds first
		{16, 1, true, 16, 16}, // every free thread, CPUs or not
	} {
		prev := runtime.GOMAXPROCS(c.procs)
		b := NewBudget(c.threads)
		if c.uncapped {
			b.Oversubscribe()
		}
		lone := mostAtOnce(b, 64)
		var calls atOnce
		var wg sync.WaitGroup
		for w := 0; w < 2; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				b.Do(func() { b.For(64, calls.call) })
			}()
		}
		wg.Wait()
		most := &calls.most
		runtime.GOMAXPROCS(prev)
		if lone != c.lone || most.Load() > c.two {
			t.Errorf("budget %d GOMAXPROCS %d uncapped %v: %d calls at once in a lone loop (want %d), %d in two workers' loops (want at most %d)",
				c.threads, c.procs, c.uncapped, lone, c.lone, most.Load(), c.two)
		}
		if n, h := len(b.free), b.helpers.Load(); n != c.threads || h != 0 {
			t.Errorf("budget %d GOMAXPROCS %d: %d threads came back, %d helpers still counted", c.threads, c.procs, n, h)
		}
	}
}

func TestPanicReachesTheCaller(t *testing.T) {
	b := NewBudget(4)
	defer func() {
		if r := recover(); r != "boom" {
			t.Fatalf("recovered %v, want boom", r)
		}
		if n := len(b.free); n != 3 { // the caller still holds its thread inside Do
			t.Fatalf("%d threads free after a panic, want 3", n)
		}
	}()
	b.Acquire()
	b.For(100, func(i int) {
		if i == 17 {
			panic("boom")
		}
	})
}

// mostAtOnce runs a loop of n short sleeps on a thread of b and returns the
// largest number of calls that ran at the same time.
func mostAtOnce(b *Budget, n int) int64 {
	var calls atOnce
	b.Do(func() { b.For(n, calls.call) })
	return calls.most.Load()
}

// atOnce counts the calls of a loop body running at the same time; most
// is the largest count seen.
type atOnce struct{ now, most atomic.Int64 }

// call is a loop body: a short sleep, counted while it runs.
func (a *atOnce) call(int) {
	c := a.now.Add(1)
	for {
		m := a.most.Load()
		if c <= m || a.most.CompareAndSwap(m, c) {
			break
		}
	}
	time.Sleep(2 * time.Millisecond)
	a.now.Add(-1)
}

// TestCanLend: a free thread and room under the runtime's helper limit,
// nothing else; a nil budget never lends.
func TestCanLend(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	var none *Budget
	if none.CanLend() {
		t.Error("a nil budget can lend")
	}
	b := NewBudget(2)
	b.Acquire() // the caller's own thread
	if !b.CanLend() {
		t.Error("one thread free at GOMAXPROCS 2, but no helper")
	}
	b.Acquire() // another unit
	if b.CanLend() {
		t.Error("every thread busy, but a helper")
	}
	b.Release()
	runtime.GOMAXPROCS(1)
	if b.CanLend() {
		t.Error("GOMAXPROCS 1 runs no helper beside the caller")
	}
	if !b.Oversubscribe().CanLend() {
		t.Error("an oversubscribed budget with a free thread does not lend")
	}
	b.Release()
}
