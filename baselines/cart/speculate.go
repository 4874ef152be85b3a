package cart

import (
	"errors"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/fgrtbench/fgrtbench/internal/par"
)

// A large fit with free threads grows its tree in two passes, which run at
// the same time (growSpeculatively), because the serial builder cannot
// hand subtrees to other threads: sklearn's xorshift and feature
// permutation pass from node to node in depth-first order, so a node's
// draws depend on every node before it.
//
// They matter less than it seems. When every feature is drawn at every node
// (max_features = all, the paper's setting), a node visits all its
// non-constant features whatever the draws; the draws only order them, and
// the order picks the winner only when several features reach the best
// proxy exactly. So the speculative pass (speculate) splits a node without
// any draw when one feature has the best proxy, and grows large subtrees as
// tasks on the fit's threads; it leaves a node with tied features open.
// The replay (replay) walks the tree in the serial builder's order, each
// node once the speculative pass has reached it, drawing as the serial
// builder would, which fixes the ties of open nodes (whose subtrees are
// then speculated in turn) and leaves the generator and the permutation as
// the serial builder leaves them, node after node. The tree is the serial
// builder's: every node holds the same samples, so its scans, constant
// features and unique winners are the same, and every draw is.

// specNode is a node of the speculative pass.
type specNode struct {
	start, end, depth int
	impurity          float64
	total             []float64 // class counts
	known             []bool    // features found constant above the node
	found             []int     // features first found constant in the node
	state             specState
	sp                split
	ties              []candidate // the features tied for the best, if several
	// tieSplits[k] is ties[k]'s split of a node whose ties all make the
	// same two children, and mirrored[k] whether it sends left the samples
	// ties[0] sends right.
	tieSplits   []split
	mirrored    []bool
	left, right *specNode
	// task is set when the node was queued to be grown as a task (before
	// its parent is done); done, guarded by the queue's lock, when that
	// task has grown its subtree, but for the children it queued.
	task, done bool
}

type specState uint8

const (
	specLeaf  specState = iota // a leaf, by the leaf rules or the search
	specSplit                  // split by sp; left and right are its children
	specOpen                   // its winner depends on the draws (ties)
)

// speculates reports whether build grows the tree speculatively: with
// every feature drawn at every node, a training set of at least
// minSpeculativeFit values, and a thread of the budget free to help when
// the fit starts. On its own thread the speculative growth is about a
// tenth slower than the serial builder (its scans start from -inf, its
// nodes keep their class counts and ties), so a fit that starts while
// every thread is busy (two large units at -j 2) grows serially: on the
// 10^6 x 20 study at -j 2 CART's fits took 23.1 s in all against 21.1 s
// on the build before the parallel fits, and 21.7 s with this rule. The
// tree is the same either way.
func speculates(n, d, maxFeatures int, threads *par.Budget) bool {
	return threads.Threads() > 1 && (maxFeatures == 0 || maxFeatures >= d) && n*d >= minSpeculativeFit && threads.CanLend()
}

// growSpeculatively is grow by speculation and replay, which run at the
// same time on the threads the budget has free when the fit starts (and
// those it frees later).
//
// Why not fork and join (par.Budget.For over a node's two children): a
// thread that has finished its child waits, holding its thread, until the
// other child's whole subtree is grown, and splits are often lopsided (a
// split that cuts off the 2 samples of an extreme value is the best of
// many gini nodes), so the other subtree then grows on one thread. And
// the replay came after the speculation, resolving open nodes alone on
// one thread; with gini, open nodes of up to 57,000 samples (ties between
// such cut-offs, which give the same class counts) left it 1.3 s of a
// 2.8 s fit on 4·10⁵ × 10 rows, spread no better. So the subtrees are tasks
// in one queue (specQueue) that every thread of the fit takes from as
// long as there is one; the replay is one of those threads, and while the
// node it has reached is not grown yet it grows that node itself if no
// thread has taken it, or any other queued subtree, and waits only when
// the queue is empty. The subtrees of the open nodes it resolves go into
// the same queue. The threads are those of one par.Budget.For, so a panic
// in any of them reaches the caller, the fit never holds more threads
// than the budget lends it, and none outlives the fit; a thread freed
// later joins through the For that every subtree grows in (run).
//
// The root is split first, alone, with its scans and partition spread
// over the free threads (the queue holds one task then, and the other
// threads would wait). Below it, a thread that finds the queue empty joins
// the loops over columns that another thread spreads (threads.go, spread):
// lopsided splits leave one large node at a time near the top of the tree.
func (b *builder) growSpeculatively() *Tree {
	b.countTotal(0, b.data.n)
	root := &specNode{end: b.data.n, total: slices.Clone(b.total), known: make([]bool, b.data.d)}
	root.impurity = b.impurityOf(root.total, float64(b.data.n))
	q := newSpecQueue()
	b.speculate(root)
	if root.state == specSplit {
		b.growChildren(q, root)
	}
	// The root was split while the budget could lend its free threads to
	// its loops; from now on those threads serve the queue.
	b.queue = q
	defer func() { b.queue = nil }()
	tree := &Tree{NumClasses: b.data.classes, MaxDepth: -1}
	var replaying atomic.Bool
	b.threads.For(b.threads.Threads(), func(int) {
		if replaying.CompareAndSwap(false, true) {
			b.replayAll(q, tree, root)
		} else {
			b.work(q)
		}
	})
	return tree
}

// specQueue is the speculative pass's queue of subtrees to grow. Its lock
// also guards the done field of every node that was queued.
type specQueue struct {
	mu sync.Mutex
	// changed is broadcast when a task is queued or done, and when the
	// pass ends.
	changed sync.Cond
	tasks   []*specNode // last in, first out: the replay's order, roughly
	// loops are the spread loops (spread) running now, which a thread
	// that finds no task joins.
	loops []*sharedLoop
	// over is set when the replay has finished or a thread panicked: the
	// workers return.
	over bool
}

func newSpecQueue() *specQueue {
	q := &specQueue{}
	q.changed.L = &q.mu
	return q
}

// taskHook, when not nil, is called by the thread that is about to grow a
// queued node, so that tests can reorder the threads' work and panic in it.
var taskHook func(nd *specNode)

// errAbandoned unwinds the replay when a worker has panicked; the
// worker's panic is the one For raises on the caller.
var errAbandoned = errors.New("cart: speculative pass abandoned")

// push queues the nodes as tasks, the last to be taken first.
func (q *specQueue) push(nodes ...*specNode) {
	q.mu.Lock()
	for _, nd := range nodes {
		nd.task = true
	}
	q.tasks = append(q.tasks, nodes...)
	q.mu.Unlock()
	q.changed.Broadcast()
}

// take removes and returns want if it is queued, else the last queued
// task; nil if there is none. q.mu must be held.
func (q *specQueue) take(want *specNode) *specNode {
	k := len(q.tasks) - 1
	if i := slices.Index(q.tasks, want); i >= 0 {
		k = i
	}
	if k < 0 {
		return nil
	}
	nd := q.tasks[k]
	q.tasks = slices.Delete(q.tasks, k, k+1)
	return nd
}

// offer lets the threads that wait for a task join the loop l.
func (q *specQueue) offer(l *sharedLoop) {
	q.mu.Lock()
	q.loops = append(q.loops, l)
	q.mu.Unlock()
	q.changed.Broadcast()
}

// withdraw takes the loop l back from the queue and returns once every
// thread that joined it has returned from it; l's caller has taken the
// last index by then, so every index has run.
func (q *specQueue) withdraw(l *sharedLoop) {
	q.mu.Lock()
	q.loops = slices.DeleteFunc(q.loops, func(m *sharedLoop) bool { return m == l })
	q.mu.Unlock()
	l.joined.Wait()
}

// openLoop returns a loop that has indices left, counting the caller in
// it; nil if there is none. q.mu must be held.
func (q *specQueue) openLoop() *sharedLoop {
	for _, l := range q.loops {
		if l.open() {
			l.joined.Add(1)
			return l
		}
	}
	return nil
}

// end ends the pass: the workers return.
func (q *specQueue) end() {
	q.mu.Lock()
	q.over = true
	q.mu.Unlock()
	q.changed.Broadcast()
}

// run grows the subtree of the task nd and marks it done. It does so
// inside a For of two, whose second call helps with the other queued
// subtrees until nd is done: a thread of the budget that has become free
// since the fit started (a unit of the study has ended) joins the fit
// there, for as long as nd takes. When no thread is free, the second call
// comes after the first and returns at once. A call that panics ends the
// pass, so that the other returns and For raises the panic.
func (b *builder) run(q *specQueue, nd *specNode) {
	b.threads.For(2, func(k int) {
		finished := false
		defer func() {
			if !finished {
				q.end()
			}
		}()
		if k == 0 {
			b.growTask(q, nd)
		} else {
			b.helpUntil(q, nd)
		}
		finished = true
	})
}

// growTask grows the subtree of the task nd and marks it done.
func (b *builder) growTask(q *specQueue, nd *specNode) {
	if taskHook != nil {
		taskHook(nd)
	}
	b.grow1(q, nd)
	q.mu.Lock()
	nd.done = true
	q.mu.Unlock()
	q.changed.Broadcast()
}

// helpUntil grows queued subtrees until the task nd is done or the pass
// is over.
func (b *builder) helpUntil(q *specQueue, nd *specNode) {
	b.serve(q, nil, func() bool { return nd.done || q.over })
}

// work is a worker thread of the speculative pass: it grows queued
// subtrees until the pass is over. If it panics, the pass ends for every
// thread and For raises the panic on the caller.
func (b *builder) work(q *specQueue) {
	defer q.end()
	b.serve(q, nil, func() bool { return q.over })
}

// serve grows queued subtrees, want first while it is queued (nil: the
// last queued), until stop, called with q.mu held, says the caller may go
// on; while the queue is empty it helps with the spread loops of other
// threads, and waits when there is none. The lock is not held while a
// subtree grows or a loop runs, so a panic there leaves it unlocked.
func (b *builder) serve(q *specQueue, want *specNode, stop func() bool) {
	q.mu.Lock()
	for !stop() {
		if t := q.take(want); t != nil {
			q.mu.Unlock()
			b.run(q, t)
			q.mu.Lock()
			continue
		}
		if l := q.openLoop(); l != nil {
			q.mu.Unlock()
			b.join(l)
			q.mu.Lock()
			continue
		}
		q.changed.Wait()
	}
	q.mu.Unlock()
}

// join runs indices of the loop l that another thread spread, until none
// is left. If one panics, the loop's thread still returns from withdraw
// (its results are not used: the pass ends, and For raises the panic).
func (b *builder) join(l *sharedLoop) {
	defer l.joined.Done()
	if joinHook != nil {
		joinHook(l)
	}
	l.drain()
}

// replayAll is the replaying thread: it replays the tree from root, then
// ends the pass. If a worker panicked, it returns at once (so that For
// raises the worker's panic); if it panics, the pass ends for the workers.
func (b *builder) replayAll(q *specQueue, tree *Tree, root *specNode) {
	defer func() {
		q.end()
		if r := recover(); r != nil && r != errAbandoned {
			panic(r)
		}
	}()
	b.replay(q, tree, root, Undefined, false, 0)
}

// await returns once the queued node nd is grown, growing queued subtrees
// meanwhile: nd's own if no thread has taken it yet, else any other.
func (b *builder) await(q *specQueue, nd *specNode) {
	abandoned := false
	b.serve(q, nd, func() bool {
		abandoned = !nd.done && q.over
		return nd.done || q.over
	})
	if abandoned {
		panic(errAbandoned)
	}
}

// grow1 speculates nd and its subtree: the children of a split that are
// large enough are queued, the others grown here.
func (b *builder) grow1(q *specQueue, nd *specNode) {
	b.speculate(nd)
	if nd.state == specSplit {
		b.growChildren(q, nd)
	}
}

// growChildren queues nd's children that are large enough to be worth a
// task (minSpreadSubtrees) and grows the others here.
func (b *builder) growChildren(q *specQueue, nd *specNode) {
	large := func(c *specNode) bool { return (c.end-c.start)*b.data.d >= minSpreadSubtrees }
	switch l, r := large(nd.left), large(nd.right); {
	case l && r:
		q.push(nd.right, nd.left)
	case l:
		q.push(nd.left)
		b.grow1(q, nd.right)
	case r:
		q.push(nd.right)
		b.grow1(q, nd.left)
	default:
		b.grow1(q, nd.left)
		b.grow1(q, nd.right)
	}
}

// speculate decides nd without draws when the leaf rules and a unique
// winner allow it: a leaf, a split (whose children it creates), or open.
func (b *builder) speculate(nd *specNode) {
	m := nd.end - nd.start
	if !b.splittable(nd.depth, m, nd.impurity) {
		nd.state = specLeaf
		return
	}
	s := b.scratches.Get()
	nd.found = b.constantsFound(nd)
	c, ties := b.scanNode(s, nd)
	switch {
	case len(ties) > 1:
		b.splitTied(s, nd, ties)
	case !c.found:
		nd.state = specLeaf
	default:
		b.splitSpec(s, nd, b.completeSplit(s, nd.total, c, nd.start, nd.end, nd.impurity))
	}
	b.scratches.Put(s)
}

// constantsFound lists the features not known constant that node_split
// would find constant in nd, whose sorted segments are current.
func (b *builder) constantsFound(nd *specNode) []int {
	var found []int
	constant := b.constantIn(nd.start, nd.end)
	for f, known := range nd.known {
		if !known && constant(f) {
			found = append(found, f)
		}
	}
	return found
}

// scanNode scans every feature node_split may visit in nd and returns the
// best candidate and the candidates tied with it. Serially, each feature's
// scan starts from the best proxy so far (ties included), which lets the
// entropy screen skip more; a large node scans its features on the
// budget's free threads, each from -∞.
func (b *builder) scanNode(s *scratch, nd *specNode) (candidate, []candidate) {
	best := candidate{proxy: math.Inf(-1)}
	var ties []candidate
	keep := func(c candidate) {
		switch {
		case !c.found || c.proxy < best.proxy:
		case c.proxy > best.proxy:
			best, ties = c, append(ties[:0], c)
		default:
			ties = append(ties, c)
		}
	}
	scanned := func(f int) bool { return !nd.known[f] && !slices.Contains(nd.found, f) }
	d := b.data.d
	if !b.spreads(nd.end-nd.start, d) {
		s.total = nd.total
		for f := 0; f < d; f++ {
			if scanned(f) {
				keep(b.scanFeature(s, f, nd.start, nd.end, best.proxy, true))
			}
		}
		return best, ties
	}
	b.forEachScratch(d, func(t *scratch, f int) {
		s.cand[f] = candidate{}
		if scanned(f) {
			t.total = nd.total
			s.cand[f] = b.scanFeature(t, f, nd.start, nd.end, math.Inf(-1), false)
		}
	})
	for _, c := range s.cand {
		keep(c)
	}
	return best, ties
}

// splitSpec makes nd a split by sp, unless the impurity decrease is too
// small: it partitions nd's samples and creates its children.
func (b *builder) splitSpec(s *scratch, nd *specNode, sp split) {
	nd.sp = sp
	if b.rejects(sp, nd.end) {
		nd.state = specLeaf
		return
	}
	nd.state = specSplit
	known := nd.known
	if len(nd.found) > 0 {
		known = slices.Clone(known)
		for _, f := range nd.found {
			known[f] = true
		}
	}
	b.markLeft(s, nd.start, nd.end, sp)
	b.partition(s, nd.start, nd.end, known)
	// The left child's rows come first now: counting them needs no test
	// per row (counts are whole numbers, exact in any order).
	left := make([]float64, len(nd.total))
	right := slices.Clone(nd.total)
	for _, i := range b.samples[nd.start:sp.pos] {
		left[b.data.y[i]]++
	}
	for k := range right {
		right[k] -= left[k]
	}
	nd.left = &specNode{start: nd.start, end: sp.pos, depth: nd.depth + 1, impurity: sp.impLeft, total: left, known: known}
	nd.right = &specNode{start: sp.pos, end: nd.end, depth: nd.depth + 1, impurity: sp.impRight, total: right, known: known}
}

// replay adds nd and its subtree to tree in the serial builder's order
// (depth first, left first), making node_split's draws for every node
// the serial builder searches, and resolving open nodes. nKnown is the
// node's number of known constant features.
func (b *builder) replay(q *specQueue, tree *Tree, nd *specNode, parent int, isLeft bool, nKnown int) {
	if nd.task {
		b.await(q, nd)
	}
	nTotal := nKnown
	if b.splittable(nd.depth, nd.end-nd.start, nd.impurity) {
		visit, nFound, total := b.drawFeatures(nKnown, func(f int) bool { return slices.Contains(nd.found, f) })
		switch {
		case nd.state == specOpen:
			b.resolve(q, nd, visit)
		case nd.ties != nil:
			k := firstTied(visit, nd.ties)
			nd.sp = nd.tieSplits[k]
			if nd.mirrored[k] && nd.state == specSplit {
				nd.left, nd.right = nd.right, nd.left
			}
		}
		b.keepConstants(nKnown, nFound)
		nTotal = total
	}
	isLeaf := nd.state != specSplit
	id := tree.addNode(parent, isLeft, isLeaf, nd.sp.feature, nd.sp.threshold, nd.impurity, nd.end-nd.start, nd.total)
	tree.MaxDepth = max(tree.MaxDepth, nd.depth)
	if !isLeaf {
		b.replay(q, tree, nd.left, id, true, nTotal)
		b.replay(q, tree, nd.right, id, false, nTotal)
	}
}

// resolve splits an open node by the first of its tied features in the
// drawing order visit, as node_split would, and grows its children (as
// tasks when they are large).
func (b *builder) resolve(q *specQueue, nd *specNode, visit []int) {
	c := nd.ties[firstTied(visit, nd.ties)]
	nd.ties = nil
	b.splitSpec(b.own, nd, b.completeSplit(b.own, nd.total, c, nd.start, nd.end, nd.impurity))
	if nd.state == specSplit {
		b.growChildren(q, nd)
	}
}

// firstTied returns the index of the first of the tied candidates in the
// drawing order visit: the one node_split keeps.
func firstTied(visit []int, ties []candidate) int {
	for _, f := range visit {
		for k, c := range ties {
			if c.feature == f {
				return k
			}
		}
	}
	panic("cart: tied features were not drawn") // cannot happen: every non-constant feature is
}

// splitTied splits nd, whose best proxy several features reach, when the
// choice among them changes neither child (only which one is left, and the
// split's feature and threshold, which the replay picks); otherwise nd
// stays open.
func (b *builder) splitTied(s *scratch, nd *specNode, ties []candidate) {
	nd.ties = slices.Clone(ties)
	mirrored, ok := b.sameChildren(s, nd, nd.ties)
	if !ok {
		nd.state = specOpen
		return
	}
	nd.mirrored = mirrored
	nd.tieSplits = make([]split, len(ties))
	for k, c := range nd.ties {
		nd.tieSplits[k] = b.completeSplit(s, nd.total, c, nd.start, nd.end, nd.impurity)
		if b.rejects(nd.tieSplits[k], nd.end) != b.rejects(nd.tieSplits[0], nd.end) {
			nd.state = specOpen
			return
		}
	}
	b.splitSpec(s, nd, nd.tieSplits[0])
}

// sameChildren reports whether every tied candidate of nd sends left the
// samples ties[0] sends left, or those it sends right (mirrored).
func (b *builder) sameChildren(s *scratch, nd *specNode, ties []candidate) (mirrored []bool, ok bool) {
	n, first := b.data.n, ties[0]
	for k, i := range b.sorted[first.feature*n+nd.start : first.feature*n+nd.end] {
		s.goesLeft[i] = nd.start+k < first.pos
	}
	mirrored = make([]bool, len(ties))
	for k, c := range ties[1:] {
		left := b.sorted[c.feature*n+nd.start : c.feature*n+c.pos]
		switch {
		case c.pos == first.pos && all(left, s.goesLeft, true):
		case c.pos-nd.start == nd.end-first.pos && all(left, s.goesLeft, false):
			mirrored[k+1] = true
		default:
			return nil, false
		}
	}
	return mirrored, true
}

// all reports whether mark[i] == want for every sample i of rows.
func all(rows []int32, mark []bool, want bool) bool {
	for _, i := range rows {
		if mark[i] != want {
			return false
		}
	}
	return true
}
