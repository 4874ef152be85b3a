package cart

import (
	"math"

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

// stackRecord is one pending node of the depth-first builder. pre holds
// the node's split scans when its parent's partition computed them.
type stackRecord struct {
	start, end, depth int
	parent            int
	isLeft            bool
	impurity          float64
	nConstant         int
	pre               *nodeScans
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
	sorted   []int32
	values   []float32
	samples  []int32
	goesLeft []bool
	isConst  []bool
	columns  []int // the columns a partition reorders

	total    []float64 // class counts of the node, length C
	log2Base float64

	// xlogx[k] = k·ln(k) for the integer counts 0..n, used by the entropy
	// criterion to screen split candidates without logarithms (see
	// screenEntropy); nil for gini.
	xlogx []float64

	// threads is the fit's CPU budget (nil: serial). own is the fitting
	// thread's scratch; scratches hands the tasks of a spread loop theirs,
	// and candidates holds a spread split search's per-feature results.
	threads    *par.Budget
	own        *scratch
	scratches  *pool[*scratch]
	candidates []candidate
	freeScans  []*nodeScans // nodeScans no pending node holds
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
		goesLeft:         make([]bool, n),
		isConst:          make([]bool, d),
		columns:          make([]int, 0, d),
		total:            make([]float64, c),
		log2Base:         math.Log(2.0),
		threads:          threads,
		own:              newScratch(n, c),
		scratches:        newPool(threads.Threads(), func() *scratch { return newScratch(n, c) }),
		candidates:       make([]candidate, d),
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
			b.xlogx[k] = float64(k) * math.Log(float64(k))
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
	keyBuffers := newPool(b.threads.Threads(), func() []uint64 { return make([]uint64, 2*n) })
	b.forEach(n, d, func(_ *scratch, f int) {
		buf := keyBuffers.get()
		keys, _ := sortKeys(fillKeys(buf[:n], cols[f*n:(f+1)*n]), buf[n:])
		seg, vals := b.sorted[f*n:(f+1)*n], b.values[f*n:(f+1)*n]
		for i, k := range keys {
			seg[i] = int32(uint32(k))
			vals[i] = cols[f*n+int(uint32(k))]
		}
		keyBuffers.put(buf)
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

// build runs sklearn's DepthFirstTreeBuilder.build, spreading large nodes'
// loops over the free threads of the budget (nil: serial).
func build(data *dataset, p Config, threads *par.Budget) *Tree {
	return newBuilder(data, p, threads).grow()
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
			left, right := b.children(r, id, sp, nConstant)
			stack = append(stack, right, left)
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
	defer b.releaseScans(r.pre)
	if !b.splittable(r.depth, r.end-r.start, r.impurity) {
		return split{}, r.nConstant, true
	}
	sp, nConstant = b.nodeSplit(r.start, r.end, r.impurity, r.nConstant, r.pre)
	return sp, nConstant, sp.pos >= r.end || sp.improvement+epsilon < b.minDecrease
}

// children partitions the node r by sp and returns its two children.
func (b *builder) children(r stackRecord, id int, sp split, nConstant int) (left, right stackRecord) {
	left = stackRecord{start: r.start, end: sp.pos, depth: r.depth + 1, parent: id, isLeft: true, impurity: sp.impLeft, nConstant: nConstant}
	right = stackRecord{start: sp.pos, end: r.end, depth: r.depth + 1, parent: id, isLeft: false, impurity: sp.impRight, nConstant: nConstant}
	b.partition(r.start, r.end, sp, nConstant, &left, &right)
	return left, right
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
			e -= float64(p * (math.Log(p) / b.log2Base))
		}
	}
	return e
}

// partition reorders samples[start:end] and every column's sorted segment
// that may still be scanned so that the rows going left come first, each
// side keeping its order (stable, so sorted segments stay sorted). The
// columns and the samples reorder independently: a large node reorders
// them on the budget's free threads, and each column's task then scans
// that column in the children that may be split (prescan), so that their
// split searches are done by the time grow pops them.
func (b *builder) partition(start, end int, sp split, nConstant int, left, right *stackRecord) {
	n := b.data.n
	f := sp.feature
	for k, i := range b.sorted[f*n+start : f*n+end] {
		b.goesLeft[i] = float64(b.values[f*n+start+k]) <= sp.threshold
	}
	columns := b.partitionedColumns(nConstant)
	if !b.spreads(end-start, len(columns)+1) {
		b.stablePartition(b.own, b.samples[start:end])
		for _, f := range columns {
			b.stablePartitionSorted(b.own, b.sorted[f*n+start:f*n+end], b.values[f*n+start:f*n+end])
		}
		return
	}
	b.prepareScans(start, end, left, right)
	b.forEach(end-start, len(columns)+1, func(s *scratch, k int) {
		if k == len(columns) {
			b.stablePartition(s, b.samples[start:end])
			return
		}
		f := columns[k]
		b.stablePartitionSorted(s, b.sorted[f*n+start:f*n+end], b.values[f*n+start:f*n+end])
		b.prescan(s, f, left)
		b.prescan(s, f, right)
	})
}

// partitionedColumns returns the columns not known constant in a node
// with nConstant known constants (the others are never scanned again in
// its subtree, so their segments need no order).
func (b *builder) partitionedColumns(nConstant int) []int {
	clear(b.isConst)
	for _, f := range b.constantFeatures[:nConstant] {
		b.isConst[f] = true
	}
	b.columns = b.columns[:0]
	for f := range b.isConst {
		if !b.isConst[f] {
			b.columns = append(b.columns, f)
		}
	}
	return b.columns
}

func (b *builder) stablePartition(s *scratch, seg []int32) {
	nl, nr := 0, 0
	right := s.rows
	for _, i := range seg {
		if b.goesLeft[i] {
			seg[nl] = i
			nl++
		} else {
			right[nr] = i
			nr++
		}
	}
	copy(seg[nl:], right[:nr])
}

// stablePartitionSorted is stablePartition of a sorted segment and of its
// values alongside.
func (b *builder) stablePartitionSorted(s *scratch, seg []int32, vals []float32) {
	nl, nr := 0, 0
	right, rightVals := s.rows, s.vals
	vals = vals[:len(seg)]
	for k, i := range seg {
		if b.goesLeft[i] {
			seg[nl], vals[nl] = i, vals[k]
			nl++
		} else {
			right[nr], rightVals[nr] = i, vals[k]
			nr++
		}
	}
	copy(seg[nl:], right[:nr])
	copy(vals[nl:], rightVals[:nr])
}
