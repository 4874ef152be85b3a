package cart

import (
	"math"
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

	rng              xorshift
	features         []int // persists across nodes (sklearn's features)
	constantFeatures []int // persists across nodes

	// sorted[f*n+start : f*n+end] lists the samples of the node being split
	// in ascending order of column f (for every column not known constant in
	// the node), and values[f*n+start : f*n+end] their values of column f,
	// so a scan reads its feature's values in order instead of gathering
	// them from the column; samples[start:end] lists the samples in no
	// particular order.
	sorted      []int32
	values      []float32
	samples     []int32
	goesLeft    []bool
	scratch     []int32
	scratchVals []float32
	yf          []int32
	isConst     []bool

	total, left, right []float64 // class counts, length C
	log2Base           float64

	// xlogx[k] = k·ln(k) for the integer counts 0..n, used by the entropy
	// criterion to screen split candidates without logarithms (see
	// screenEntropy); nil for gini.
	xlogx []float64
}

func newBuilder(data *dataset, p Config) *builder {
	n, d, c := data.n, data.d, data.classes
	b := &builder{
		// The sorted values are all the builder reads of the columns, so
		// it keeps no reference to them: once the caller drops the
		// dataset, they are not held beside their sorted copy.
		data:             &dataset{n: n, d: d, classes: c, y: data.y},
		crit:             p.Criterion,
		minLeaf:          p.MinSamplesLeaf,
		maxFeatures:      p.MaxFeatures,
		rng:              xorshift{state: splitterSeed(p.RandomState)},
		features:         make([]int, d),
		constantFeatures: make([]int, d),
		sorted:           make([]int32, n*d),
		values:           make([]float32, n*d),
		samples:          make([]int32, n),
		goesLeft:         make([]bool, n),
		scratch:          make([]int32, n),
		scratchVals:      make([]float32, n),
		yf:               make([]int32, n),
		isConst:          make([]bool, d),
		total:            make([]float64, c),
		left:             make([]float64, c),
		right:            make([]float64, c),
		log2Base:         math.Log(2.0),
	}
	if p.Criterion == Entropy {
		b.xlogx = make([]float64, n+1)
		for k := 2; k <= n; k++ {
			b.xlogx[k] = float64(k) * math.Log(float64(k))
		}
	}
	if b.maxFeatures == 0 || b.maxFeatures > d {
		b.maxFeatures = d
	}
	for f := range b.features {
		b.features[f] = f
	}
	for i := range b.samples {
		b.samples[i] = int32(i)
	}
	// Presort every column once. Keys pack an order-preserving image of the
	// float32 value above the row index, so one integer sort orders by value
	// (ties by row, which keeps the fit deterministic).
	keys, tmp := make([]uint64, n), make([]uint64, n)
	for f := 0; f < d; f++ {
		col := data.cols[f*n : (f+1)*n]
		for i, v := range col {
			keys[i] = uint64(orderedBits(v))<<32 | uint64(i)
		}
		keys, tmp = sortKeys(keys, tmp)
		seg, vals := b.sorted[f*n:(f+1)*n], b.values[f*n:(f+1)*n]
		for i, k := range keys {
			seg[i] = int32(uint32(k))
			vals[i] = col[uint32(k)]
		}
	}
	return b
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

// build runs sklearn's DepthFirstTreeBuilder.build.
func build(data *dataset, p Config) *Tree {
	return newBuilder(data, p).grow(p)
}

func (b *builder) grow(p Config) *Tree {
	data := b.data
	n, c := data.n, data.classes
	maxDepth := p.MaxDepth
	if maxDepth == 0 {
		maxDepth = math.MaxInt32
	}
	minSplit := max(p.MinSamplesSplit, 2*p.MinSamplesLeaf)

	tree := &Tree{NumClasses: c}
	stack := []stackRecord{{start: 0, end: n, depth: 0, parent: Undefined, impurity: math.Inf(1)}}
	first := true
	maxDepthSeen := -1
	for len(stack) > 0 {
		r := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		m := r.end - r.start
		b.countTotal(r.start, r.end)

		isLeaf := r.depth >= maxDepth || m < minSplit || m < 2*p.MinSamplesLeaf
		impurity := r.impurity
		if first {
			impurity = b.impurityOf(b.total, float64(m))
			first = false
		}
		isLeaf = isLeaf || impurity <= epsilon

		var sp split
		nConstant := r.nConstant
		if !isLeaf {
			sp, nConstant = b.nodeSplit(r.start, r.end, impurity, r.nConstant)
			isLeaf = sp.pos >= r.end || sp.improvement+epsilon < p.MinImpurityDecrease
		}
		id := tree.addNode(r.parent, r.isLeft, isLeaf, sp.feature, sp.threshold, impurity, m, b.total)
		if !isLeaf {
			b.partition(r.start, r.end, sp, nConstant)
			stack = append(stack,
				stackRecord{start: sp.pos, end: r.end, depth: r.depth + 1, parent: id, isLeft: false, impurity: sp.impRight, nConstant: nConstant},
				stackRecord{start: r.start, end: sp.pos, depth: r.depth + 1, parent: id, isLeft: true, impurity: sp.impLeft, nConstant: nConstant})
		}
		maxDepthSeen = max(maxDepthSeen, r.depth)
	}
	tree.MaxDepth = maxDepthSeen
	return tree
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

// nodeSplit is BestSplitter.node_split: it draws features in sklearn's
// random order, skips known and newly found constant features, and keeps
// the first split with the best proxy improvement. It returns the split
// (pos == end when none is valid) and the node's updated constant count.
func (b *builder) nodeSplit(start, end int, impurity float64, nConstant int) (split, int) {
	n, d := b.data.n, b.data.d
	m := end - start
	best := split{pos: end, improvement: math.Inf(-1), impLeft: math.Inf(1), impRight: math.Inf(1)}
	bestProxy := math.Inf(-1)
	wN := float64(m)
	features := b.features

	fi := d
	nVisited, nFound, nDrawn := 0, 0, 0
	nKnown := nConstant
	nTotal := nKnown
	for fi > nTotal && (nVisited < b.maxFeatures || nVisited <= nFound+nDrawn) {
		nVisited++
		fj := b.rng.intn(nDrawn, fi-nFound)
		if fj < nKnown {
			features[nDrawn], features[fj] = features[fj], features[nDrawn]
			nDrawn++
			continue
		}
		fj += nFound
		f := features[fj]
		seg := b.sorted[f*n+start : f*n+end]
		xf := b.values[f*n+start : f*n+end]
		if xf[m-1] <= xf[0]+featureThreshold {
			features[fj], features[nTotal] = features[nTotal], features[fj]
			nFound++
			nTotal++
			continue
		}
		fi--
		features[fi], features[fj] = features[fj], features[fi]

		yf, y := b.yf[:m], b.data.y
		for k, i := range seg {
			yf[k] = y[i]
		}
		clear(b.left)
		added := 0 // samples xf[:added] are in b.left
		for p := 0; p < m; {
			for p+1 < m && xf[p+1] <= xf[p]+featureThreshold {
				p++
			}
			p++
			if p >= m || p < b.minLeaf || m-p < b.minLeaf {
				continue
			}
			for ; added < p; added++ {
				b.left[yf[added]]++
			}
			if b.xlogx != nil && b.screenEntropy(p, m) < bestProxy {
				continue
			}
			wL := float64(p)
			wR := wN - wL
			var iL, iR float64
			if b.crit == Gini {
				iL, iR = b.childGini(wL, wR)
			} else {
				iL, iR = b.childImpurities(wL, wR)
			}
			proxy := -float64(wR*iR) - float64(wL*iL)
			if proxy > bestProxy {
				bestProxy = proxy
				lo, hi := float64(xf[p-1]), float64(xf[p])
				thr := lo/2.0 + hi/2.0
				if thr == hi || math.IsInf(thr, 0) {
					thr = lo
				}
				best.feature, best.pos, best.threshold = f, start+p, thr
			}
		}
	}

	if best.pos < end {
		f := best.feature
		seg := b.sorted[f*n+start : f*n+best.pos]
		clear(b.left)
		for _, i := range seg {
			b.left[b.data.y[i]]++
		}
		wL := float64(best.pos - start)
		wR := wN - wL
		best.impLeft, best.impRight = b.childImpurities(wL, wR)
		best.improvement = (wN / float64(n)) *
			(impurity - float64(wR/wN*best.impRight) - float64(wL/wN*best.impLeft))
	}

	copy(features[:nKnown], b.constantFeatures[:nKnown])
	copy(b.constantFeatures[nKnown:nKnown+nFound], features[nKnown:nKnown+nFound])
	return best, nTotal
}

// screenEntropy returns an upper bound of the entropy proxy of the
// candidate with b.left holding the class counts of the first p of m
// samples, so that candidates that cannot beat the best so far skip the
// 2·C logarithms of the exact proxy. With integer counts,
//
//	-(wL·iL + wR·iR) = (Σ l·ln l + Σ r·ln r − wL·ln wL − wR·ln wR) / ln 2,
//
// a sum of table entries. It differs from the exact proxy (computed as
// sklearn computes it) only by rounding, and the slack added to it bounds
// both computations' rounding errors with a wide margin (the errors are a
// few ulps of terms at most m·ln m each; the slack is 2^-36 relative). A
// candidate whose bound is below the best proxy is exactly one the exact
// comparison would reject, so the chosen split, its threshold and every
// impurity stay those of the exact scan: only the number of logarithms
// changes.
func (b *builder) screenEntropy(p, m int) float64 {
	t := b.xlogx
	s := -t[p] - t[m-p]
	for k, l := range b.left {
		s += t[int(l)] + t[int(b.total[k]-l)]
	}
	slack := (t[m] + float64(m)) * float64(len(b.left)+2) * 0x1p-36
	return s/b.log2Base + slack
}

// childImpurities returns the impurities of b.left and of total-left.
func (b *builder) childImpurities(wL, wR float64) (float64, float64) {
	for k, t := range b.total {
		b.right[k] = t - b.left[k]
	}
	return b.impurityOf(b.left, wL), b.impurityOf(b.right, wR)
}

// childGini is childImpurities for the Gini criterion, in one pass and
// without writing b.right: the same operations in the same order (a
// candidate split's hottest path).
func (b *builder) childGini(wL, wR float64) (float64, float64) {
	left := b.left[:len(b.total)]
	sqL, sqR := 0.0, 0.0
	for k, t := range b.total {
		l := left[k]
		r := t - l
		sqL += float64(l * l)
		sqR += float64(r * r)
	}
	return 1.0 - sqL/float64(wL*wL), 1.0 - sqR/float64(wR*wR)
}

// partition reorders samples[start:end] and every column's sorted segment
// that may still be scanned so that the rows going left come first, each
// side keeping its order (stable, so sorted segments stay sorted).
func (b *builder) partition(start, end int, sp split, nConstant int) {
	n, d := b.data.n, b.data.d
	f := sp.feature
	for k, i := range b.sorted[f*n+start : f*n+end] {
		b.goesLeft[i] = float64(b.values[f*n+start+k]) <= sp.threshold
	}
	clear(b.isConst)
	for _, f := range b.constantFeatures[:nConstant] {
		b.isConst[f] = true
	}
	b.stablePartition(b.samples[start:end])
	for f := 0; f < d; f++ {
		if !b.isConst[f] {
			b.stablePartitionSorted(b.sorted[f*n+start:f*n+end], b.values[f*n+start:f*n+end])
		}
	}
}

func (b *builder) stablePartition(seg []int32) {
	nl, nr := 0, 0
	right := b.scratch
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
func (b *builder) stablePartitionSorted(seg []int32, vals []float32) {
	nl, nr := 0, 0
	right, rightVals := b.scratch, b.scratchVals
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
