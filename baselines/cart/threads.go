package cart

import (
	"sync"
	"sync/atomic"

	"github.com/fgrtbench/fgrtbench/internal/par"
	"github.com/fgrtbench/fgrtbench/learn"
)

// A fit speculates (speculate.go) only when its training set has at least
// minSpeculativeFit values (rows × columns) and its budget more than one
// thread: the paper's datasets (at most 4,597 × 57, spambase) grow
// serially, exactly as without a budget. Within a speculative fit,
// minSpreadSubtrees is the size of a node whose subtree is a task of the
// speculative pass's queue (smaller ones grow on the thread that made
// them), and minParallelWork the size from which a node's scans, its
// partition and the presort spread over columns. Starting a task costs a
// goroutine and the wake-up of an idle thread, some 20-50 µs measured
// with BenchmarkNodeWork (gini, 10 columns, 2-core machine, threads=2
// against threads=1: spreading one node over columns loses up to 2,000
// rows and wins from 5,000), so the columns of a node are too short a
// loop below that; a subtree holds its root's work again at every level
// below it, so subtrees pay from far smaller nodes. (Variables only so that
// tests can spread every node.)
var (
	minSpeculativeFit = 1 << 19
	minSpreadSubtrees = 1 << 13
	minParallelWork   = 1 << 16
)

// WithThreads returns a trainer with t's parameters whose fits spread the
// split searches, partitions and presort of large nodes over the free
// threads of b (learn.Threaded). The models are those of t.
func (t *Trainer) WithThreads(b *par.Budget) learn.Trainer {
	u := *t
	u.threads = b
	return &u
}

var _ learn.Threaded = (*Trainer)(nil)

// spreads reports whether a loop over columns of rows×columns work is
// worth spreading over the budget's threads (only in a speculative fit).
func (b *builder) spreads(rows, columns int) bool {
	return b.speculative && columns > 1 && rows*columns >= minParallelWork
}

// scratch is one thread's working memory: class counts for a candidate
// scan (total: the node's, which the scan only reads), a column's labels
// in sorted order, the marks of a split's samples, and the right-hand side
// of a stable partition.
type scratch struct {
	total       []float64
	left, right []float64
	yf          []int32
	// goesLeft[i] tells whether sample i goes left in the split being
	// made. Each thread marks its own: the samples of two nodes are
	// disjoint but interleaved, so one shared array would have two threads
	// writing the same cache lines at every split (a fit on 4·10⁵ × 10
	// rows took a tenth more CPU on two threads with one array).
	goesLeft []bool
	rows     []int32
	vals     []float32
	cand     []candidate // a speculative node's scans, one per feature
}

func newScratch(n, d, classes int) *scratch {
	return &scratch{
		left: ownLine(classes), right: ownLine(classes),
		yf: make([]int32, n), goesLeft: make([]bool, n), rows: make([]int32, n), vals: make([]float32, n),
		cand: make([]candidate, d),
	}
}

// ownLine returns k zeros that share no 64-byte cache line with any other
// allocation: a scan increments its class counts at every sample, and two
// threads' counts allocated side by side (3 classes are 24 bytes) would
// share a line (about 3 % of a two-thread fit's CPU on the runtime data).
func ownLine(k int) []float64 {
	return make([]float64, k+16)[8 : 8+k]
}

// forEach calls body(i) for i in [0, n), on the budget's free threads
// when rows×n is large enough (spreads), serially otherwise.
func (b *builder) forEach(rows, n int, body func(i int)) {
	if !b.spreads(rows, n) {
		for i := 0; i < n; i++ {
			body(i)
		}
		return
	}
	b.spread(n, body)
}

// forEachScratch calls body(s, i) for i in [0, n) on the budget's free
// threads, each call with a scratch s no other running call holds.
func (b *builder) forEachScratch(n int, body func(s *scratch, i int)) {
	b.spread(n, func(i int) {
		s := b.scratches.Get()
		body(s, i)
		b.scratches.Put(s)
	})
}

// spread calls body(i) for i in [0, n) on the budget's free threads and,
// while the speculative pass runs, on the fit's own threads that wait for
// a task: those hold their thread of the budget, so For cannot lend it,
// and at the top of a tree grown from lopsided splits (gini cuts off a few
// extreme samples of a large node, level after level) there is one large
// node at a time and the fit's other threads would only wait (a quarter
// of a thread's time on the runtime data at 4·10⁵ rows).
func (b *builder) spread(n int, body func(i int)) {
	q := b.queue
	if q == nil {
		b.threads.For(n, body)
		return
	}
	l := &sharedLoop{n: int64(n), body: body}
	q.offer(l)
	defer q.withdraw(l)
	if loopHook != nil {
		loopHook(l)
	}
	b.threads.For(n, func(int) { l.drain() })
}

// loopHook, when not nil, is called by the thread that spreads a loop
// after offering it and before taking its first index, and joinHook by a
// thread that joins one before taking its first index there, so that tests
// can hold a loop open until a thread joins it and panic in the joiner.
var (
	loopHook func(l *sharedLoop)
	joinHook func(l *sharedLoop)
)

// sharedLoop is a loop that threads join while it has indices left: each
// takes the next index until there is none. body(i) writes only what
// belongs to i (as For's body), so the result does not depend on which
// thread ran which index.
type sharedLoop struct {
	n, next int64 // next is taken atomically
	body    func(i int)
	// joined counts the threads that joined from the queue and have not
	// yet returned (guarded by the queue's lock for Add, Done without it).
	joined sync.WaitGroup
}

// drain runs the loop's indices that are left, one at a time.
func (l *sharedLoop) drain() {
	for {
		i := atomic.AddInt64(&l.next, 1) - 1
		if i >= l.n {
			return
		}
		l.body(int(i))
	}
}

// open reports whether the loop has indices that no thread has taken.
func (l *sharedLoop) open() bool { return atomic.LoadInt64(&l.next) < l.n }
