package cart

import (
	"math"

	"github.com/fgrtbench/fgrtbench/internal/branchless"

	"github.com/fgrtbench/fgrtbench/internal/fmath"
	"github.com/fgrtbench/fgrtbench/internal/par"
)

const (
	// featureThreshold is sklearn's FEATURE_THRESHOLD, a float32 constant:
	// values closer than this (in float32 arithmetic) are not split apart.
	featureThreshold float32 = 1e-7
	// epsilon is np.finfo(float64).eps, used by the builder's leaf tests.
	epsilon = 2.220446049250313e-16
)

// split is the best split of a node (sklearn's SplitRecord).
type split struct {
	pos         int // samples [start,pos) go left
	feature     int
	threshold   float64
	improvement float64
	impLeft     float64
	impRight    float64
}

// stackRecord is one pending node of the depth-first builder.
type stackRecord struct {
	start, end, depth int
	parent            int
	isLeft            bool
	impurity          float64
	nConstant         int
}

// builder holds the state of one fit: sklearn's Splitter state (feature
// permutation, constant-feature list, xorshift) plus the presorted columns.
type builder struct {
	data        *dataset
	crit        Criterion
	minLeaf     int
	maxFeatures int
	// The leaf rules of grow: a node deeper than maxDepth, with fewer than
	// minSplit samples or an impurity of at most epsilon is a leaf, and so
	// is one whose best split decreases impurity by less than minDecrease.
	maxDepth    int
	minSplit    int
	minDecrease float64

	rng              xorshift
	features         []int // persists across nodes (sklearn's features)
	constantFeatures []int // persists across nodes
	visit            []int // the features a node scans, in drawing order

	// sorted[f*n+start : f*n+end] lists the samples of the node being split
	// in ascending order of column f (for every column not known constant in
	// the node), and values[f*n+start : f*n+end] their values of column f,
	// so a scan reads its feature's values in order instead of gathering
	// them from the column; samples[start:end] lists the samples in no
	// particular order.
	sorted  []int32
	values  []float32
	samples []int32
	isConst []bool

	total    []float64 // class counts of the node, length C
	log2Base float64

	// xlogx[k] = k·ln(k) for the integer counts 0..n, used by the entropy
	// criterion to screen split candidates without logarithms (see
	// screenEntropy); nil for gini.
	xlogx []float64

	// threads is the fit's CPU budget (nil: serial). own is the fitting
	// thread's scratch; scratches hands the tasks of the speculative pass
	// theirs (see speculate.go).
	threads     *par.Budget
	speculative bool // grow by speculate.go's passes, spreading large loops
	own         *scratch
	scratches   *par.Pool[*scratch]
	// queue is the speculative pass's queue while its threads serve it
	// (nil before and after): spread loops offer their indices there too.
	queue *specQueue
}

func newBuilder(data *dataset, p Config, threads *par.Budget) *builder {
	n, d, c := data.n, data.d, data.classes
	b := &builder{
		// The sorted values are all the builder reads of the columns, so
		// it keeps no reference to them: once the caller drops the
		// dataset, they are not held beside their sorted copy.
		data: &dataset{n: n, d: d, classes: c, y: data.y},
		crit: p.Criterion, minLeaf: p.MinSamplesLeaf, maxFeatures: p.MaxFeatures,
		maxDepth: p.MaxDepth, minSplit: max(p.MinSamplesSplit, 2*p.MinSamplesLeaf), minDecrease: p.MinImpurityDecrease,
		rng:              xorshift{state: splitterSeed(p.RandomState)},
		features:         make([]int, d),
		constantFeatures: make([]int, d),
		visit:            make([]int, 0, d),
		samples:          make([]int32, n),
		isConst:          make([]bool, d),
		total:            make([]float64, c),
		log2Base:         fmath.Log(2.0),
		threads:          threads,
		speculative:      speculates(n, d, p.MaxFeatures, threads),
		own:              newScratch(n, d, c),
		scratches:        par.NewPool(func() *scratch { return newScratch(n, d, c) }),
	}
	if b.maxDepth == 0 {
		b.maxDepth = math.MaxInt32
	}
	if b.maxFeatures == 0 || b.maxFeatures > d {
		b.maxFeatures = d
	}
	if p.Criterion == Entropy {
		b.xlogx = make([]float64, n+1)
		for k := 2; k <= n; k++ {
			b.xlogx[k] = float64(k) * fmath.Log(float64(k))
		}
	}
	for f := range b.features {
		b.features[f] = f
	}
	for i := range b.samples {
		b.samples[i] = int32(i)
	}
	b.presort(data.cols)
	return b
}

// presort fills sorted and values with every column in ascending order.
// Keys pack an order-preserving image of the float32 value above the row
// index, so one integer sort orders by value (ties by row, which keeps the
// fit deterministic). Columns sort independently, on the budget's free
// threads when the data is large.
func (b *builder) presort(cols []float32) {
	n, d := b.data.n, b.data.d
	b.sorted, b.values = make([]int32, n*d), make([]float32, n*d)
	keyBuffers := par.NewPool(func() []uint64 { return make([]uint64, 2*n) })
	b.forEach(n, d, func(f int) {
		buf := keyBuffers.Get()
		keys, _ := sortKeys(fillKeys(buf[:n], cols[f*n:(f+1)*n]), buf[n:])
		seg, vals := b.sorted[f*n:(f+1)*n], b.values[f*n:(f+1)*n]
		for i, k := range keys {
			seg[i] = int32(uint32(k))
			vals[i] = cols[f*n+int(uint32(k))]
		}
		keyBuffers.Put(buf)
	})
}

// fillKeys writes the sort key of every value of col into keys.
func fillKeys(keys []uint64, col []float32) []uint64 {
	for i, v := range col {
		keys[i] = uint64(orderedBits(v))<<32 | uint64(i)
	}
	return keys
}

// orderedBits maps a float32 to a uint32 with the same order (-0 and +0
// map to neighbouring keys, which only affects the order among equal values).
func orderedBits(v float32) uint32 {
	u := math.Float32bits(v)
	if u&0x80000000 != 0 {
		return ^u
	}
	return u | 0x80000000
}

// build runs sklearn's DepthFirstTreeBuilder.build. A large fit with
// more than one thread to spread over grows its tree speculatively
// (speculate.go); the tree is the same.
func build(data *dataset, p Config, threads *par.Budget) *Tree {
	b := newBuilder(data, p, threads)
	if b.speculative {
		return b.growSpeculatively()
	}
	return b.grow()
}

// grow is DepthFirstTreeBuilder.build's loop: nodes in depth-first order,
// left child first, each split as soon as it is popped.
func (b *builder) grow() *Tree {
	tree := &Tree{NumClasses: b.data.classes}
	stack := []stackRecord{{start: 0, end: b.data.n, depth: 0, parent: Undefined, impurity: math.Inf(1)}}
	maxDepthSeen := -1
	for len(stack) > 0 {
		r := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		m := r.end - r.start
		b.countTotal(r.start, r.end)
		if r.parent == Undefined { // the root: sklearn computes its impurity
			r.impurity = b.impurityOf(b.total, float64(m))
		}
		sp, nConstant, isLeaf := b.splitNode(r)
		id := tree.addNode(r.parent, r.isLeft, isLeaf, sp.feature, sp.threshold, r.impurity, m, b.total)
		if !isLeaf {
			b.markLeft(b.own, r.start, r.end, sp)
			b.partition(b.own, r.start, r.end, b.isConstant(nConstant))
			stack = append(stack,
				stackRecord{start: sp.pos, end: r.end, depth: r.depth + 1, parent: id, isLeft: false, impurity: sp.impRight, nConstant: nConstant},
				stackRecord{start: r.start, end: sp.pos, depth: r.depth + 1, parent: id, isLeft: true, impurity: sp.impLeft, nConstant: nConstant})
		}
		maxDepthSeen = max(maxDepthSeen, r.depth)
	}
	tree.MaxDepth = maxDepthSeen
	return tree
}

// splittable reports whether the leaf rules that precede the split search
// let a node of m samples at depth with the given impurity be split.
func (b *builder) splittable(depth, m int, impurity float64) bool {
	return depth < b.maxDepth && m >= b.minSplit && impurity > epsilon
}

// splitNode searches the best split of r (b.total holding its class
// counts) and reports whether r is a leaf, with the node's constant count.
func (b *builder) splitNode(r stackRecord) (sp split, nConstant int, isLeaf bool) {
	if !b.splittable(r.depth, r.end-r.start, r.impurity) {
		return split{}, r.nConstant, true
	}
	sp, nConstant = b.nodeSplit(r.start, r.end, r.impurity, r.nConstant)
	return sp, nConstant, b.rejects(sp, r.end)
}

// rejects reports whether node_split's result makes the node a leaf: no
// valid split, or too small an impurity decrease.
func (b *builder) rejects(sp split, end int) bool {
	return sp.pos >= end || sp.improvement+epsilon < b.minDecrease
}

// countTotal fills b.total with the class counts of samples[start:end].
func (b *builder) countTotal(start, end int) {
	clear(b.total)
	for _, i := range b.samples[start:end] {
		b.total[b.data.y[i]]++
	}
}

// impurityOf is the criterion's impurity of a node with the given class
// counts and weight. Products are wrapped in float64() so that the compiler
// cannot fuse them into FMAs, which would change the last bits.
func (b *builder) impurityOf(counts []float64, w float64) float64 {
	if b.crit == Gini {
		sq := 0.0
		for _, k := range counts {
			sq += float64(k * k)
		}
		return 1.0 - sq/float64(w*w)
	}
	e := 0.0
	for _, k := range counts {
		if k > 0 {
			p := k / w
			e -= float64(p * (fmath.Log(p) / b.log2Base))
		}
	}
	return e
}

// markLeft sets s.goesLeft for the samples of the node [start, end)
// split by sp (s: the calling thread's scratch).
func (b *builder) markLeft(s *scratch, start, end int, sp split) {
	n, f := b.data.n, sp.feature
	for k, i := range b.sorted[f*n+start : f*n+end] {
		s.goesLeft[i] = float64(b.values[f*n+start+k]) <= sp.threshold
	}
}

// isConstant marks the node's nConstant known constant features in
// b.isConst and returns it.
func (b *builder) isConstant(nConstant int) []bool {
	clear(b.isConst)
	for _, f := range b.constantFeatures[:nConstant] {
		b.isConst[f] = true
	}
	return b.isConst
}

// partition reorders samples[start:end] and the sorted segment of every
// column not known constant (the others are never scanned again in the
// subtree) so that the rows s.goesLeft marks come first, each side
// keeping its order (stable, so sorted segments stay sorted). The columns
// and the samples reorder independently: a large node reorders them on
// the budget's free threads, each task with its own scratch for the right
// side but reading the marks of s, the calling thread's.
func (b *builder) partition(s *scratch, start, end int, known []bool) {
	n, d := b.data.n, b.data.d
	marks := s.goesLeft
	if !b.spreads(end-start, d+1) {
		stablePartition(s, marks, b.samples[start:end])
		for f := 0; f < d; f++ {
			if !known[f] {
				stablePartitionSorted(s, marks, b.sorted[f*n+start:f*n+end], b.values[f*n+start:f*n+end])
			}
		}
		return
	}
	b.forEachScratch(d+1, func(t *scratch, f int) {
		if f == d {
			stablePartition(t, marks, b.samples[start:end])
		} else if !known[f] {
			stablePartitionSorted(t, marks, b.sorted[f*n+start:f*n+end], b.values[f*n+start:f*n+end])
		}
	})
}

// stablePartition moves the samples of seg that goesLeft marks to its
// front, each side in its order; s is the calling thread's scratch.
func stablePartition(s *scratch, goesLeft []bool, seg []int32) {
	nl, nr := 0, 0
	right := s.rows[:len(seg)]
	for _, i := range seg {
		// Both sides are written and one index moves: no branch on the
		// data, whose side is as often one as the other. seg[nl] was
		// already read (nl never passes the row being read) and is
		// rewritten before the end.
		left := branchless.Int(goesLeft[i])
		seg[nl], right[nr] = i, i
		nl += left
		nr += 1 - left
	}
	copy(seg[nl:], right[:nr])
}

// stablePartitionSorted is stablePartition of a sorted segment and of its
// values alongside.
func stablePartitionSorted(s *scratch, goesLeft []bool, seg []int32, vals []float32) {
	nl, nr := 0, 0
	right, rightVals := s.rows[:len(seg)], s.vals[:len(seg)]
	vals = vals[:len(seg)]
	for k, i := range seg {
		v := vals[k]
		left := branchless.Int(goesLeft[i])
		seg[nl], vals[nl] = i, v
		right[nr], rightVals[nr] = i, v
		nl += left
		nr += 1 - left
	}
	copy(seg[nl:], right[:nr])
	copy(vals[nl:], rightVals[:nr])
}
