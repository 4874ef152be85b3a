package cart

import (
	"github.com/fgrtbench/fgrtbench/internal/par"
	"github.com/fgrtbench/fgrtbench/learn"
)

// minParallelWork is the size (rows × columns to scan) below which a
// node's split search, its partition and the presort run serially on the
// fitting thread. Measured with BenchmarkNodeWork (threads=2 against
// threads=1, 2-core machine): handing a loop to a second thread costs a
// goroutine, a scratch buffer and the cache misses of a second core,
// about 10-20 µs per loop; a row costs 2-5 ns per column in the scan and
// the partition, so spreading pays from about 2·10⁴ row-columns and wins
// clearly from 6·10⁴. Nodes of the paper's datasets (at most 7,400 rows ×
// 20 columns at the root, a few hundred rows a few levels down) thus stay
// serial apart from the top levels of the largest ones. (A variable only
// so that tests can spread every node.)
var minParallelWork = 1 << 16

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
// worth spreading over the budget's threads.
func (b *builder) spreads(rows, columns int) bool {
	return b.threads.Threads() > 1 && columns > 1 && rows*columns >= minParallelWork
}

// scratch is one thread's working memory: class counts for a candidate
// scan (total: the node's, which the scan only reads), a column's labels
// in sorted order, and the right-hand side of a stable partition.
type scratch struct {
	total       []float64
	left, right []float64
	yf          []int32
	rows        []int32
	vals        []float32
}

func newScratch(n, classes int) *scratch {
	return &scratch{
		left: make([]float64, classes), right: make([]float64, classes),
		yf: make([]int32, n), rows: make([]int32, n), vals: make([]float32, n),
	}
}

// pool hands each task of a spread loop a buffer no other running task
// holds: at most one per busy thread exists, made on first need and kept
// for the fit's later loops. Which buffer a task gets never matters: each
// task overwrites what it reads.
type pool[T any] struct {
	free  chan T
	fresh func() T
}

func newPool[T any](threads int, fresh func() T) *pool[T] {
	return &pool[T]{free: make(chan T, threads), fresh: fresh}
}

func (p *pool[T]) get() T {
	select {
	case v := <-p.free:
		return v
	default:
		return p.fresh()
	}
}

func (p *pool[T]) put(v T) {
	select {
	case p.free <- v:
	default:
	}
}

// forEach calls body(s, i) for i in [0, n) with a scratch buffer s, spread
// over the budget's free threads when rows×n is large enough (spreads),
// serially on b.own otherwise. body(s, i) must write only what belongs to
// index i.
func (b *builder) forEach(rows, n int, body func(s *scratch, i int)) {
	if !b.spreads(rows, n) {
		for i := 0; i < n; i++ {
			body(b.own, i)
		}
		return
	}
	b.threads.For(n, func(i int) {
		s := b.scratches.get()
		body(s, i)
		b.scratches.put(s)
	})
}
