package c45

import (
	"math"
	"slices"

	"github.com/fgrtbench/fgrtbench/internal/fmath"
)

// node is one J48 tree node. An internal node's dist is its split's
// distribution (one bag per branch, unknowns spread proportionally); a
// leaf's dist holds the class weights that reached it (its bags unused).
type node struct {
	leaf bool
	// empty marks a leaf that received no training weight when grown; it
	// then predicts from its parent's bag (Weka's m_isEmpty).
	empty     bool
	attr      int
	nominal   bool
	threshold float64
	// branches is the number of children of a split (set before they exist).
	branches int
	dist     *distribution
	children []*node
	// ids and w are the training rows (with their fractional weights) that
	// reached the node, kept for pruning (Weka's m_train).
	ids []int32
	w   []float64
}

// sortByValue fills idx with the rows 0..len(idx)-1 ordered by column
// value, missing (NaN) last, ties by row index. It is a stable LSD radix
// sort on order-preserving 64-bit keys; keys and scratch are caller-owned
// buffers of len(idx), so presorting every column allocates nothing.
func sortByValue(idx []int32, col []float64, keys, keysTmp []uint64, idxTmp []int32) {
	n := 0
	for i, v := range col[:len(idx)] {
		if math.IsNaN(v) {
			continue
		}
		keys[n], idx[n] = orderedKey(v), int32(i)
		n++
	}
	missing := n
	for i, v := range col[:len(idx)] {
		if math.IsNaN(v) {
			idx[missing] = int32(i)
			missing++
		}
	}
	src, dst := keys[:n], keysTmp[:n]
	srcIdx, dstIdx := idx[:n], idxTmp[:n]
	var count [256]int
	for shift := uint(0); shift < 64; shift += 8 {
		clear(count[:])
		for _, k := range src {
			count[byte(k>>shift)]++
		}
		if n == 0 || count[byte(src[0]>>shift)] == n {
			continue // every key has this digit: the pass would not move anything
		}
		pos := 0
		for d, c := range count {
			count[d] = pos
			pos += c
		}
		for i, k := range src {
			d := byte(k >> shift)
			dst[count[d]] = k
			dstIdx[count[d]] = srcIdx[i]
			count[d]++
		}
		src, dst = dst, src
		srcIdx, dstIdx = dstIdx, srcIdx
	}
	if n > 0 && &srcIdx[0] != &idx[0] {
		copy(idx[:n], srcIdx)
	}
}

// orderedKey maps a float64 to a uint64 with the same order.
func orderedKey(v float64) uint64 {
	bits := math.Float64bits(v)
	if bits>>63 == 1 {
		return ^bits
	}
	return bits | 1<<63
}

// classDistribution returns the one-bag distribution of the given rows.
func (b *builder) classDistribution(ids []int32, w []float64) *distribution {
	d := newDistribution(1, b.nc)
	for i, id := range ids {
		d.add(0, int(b.y[id]), w[i])
	}
	return d
}

// grow is ClassifierTree.buildTree with C45ModelSelection.selectModel.
// ids and w are the node's rows and weights; rows holds the same rows
// presorted per numeric column.
func (b *builder) grow(ids []int32, w []float64, rows sortedRows) *node {
	nd := &node{ids: ids, w: w}
	cd := b.classDistribution(ids, w)
	if sm(cd.total, 2*b.minObj) || eq(cd.total, cd.perClass[cd.maxClass()]) {
		return b.makeLeaf(nd, cd)
	}
	s := b.scratches.Get()
	childIDs, childW, childRows, ok := b.split(s, nd, cd.total, rows)
	b.scratches.Put(s)
	if !ok {
		return b.makeLeaf(nd, cd)
	}
	b.growChildren(nd, childIDs, childW, childRows)
	return nd
}

// split chooses nd's attribute (none: ok is false) and hands its rows to
// the branches: their rows, weights and presorted rows.
func (b *builder) split(s *scratch, nd *node, total float64, rows sortedRows) (childIDs [][]int32, childW [][]float64, childRows []sortedRows, ok bool) {
	attr, ok := b.selectAttribute(s, nd.ids, nd.w, total, rows)
	if !ok {
		return nil, nil, nil, false
	}
	nd.attr = attr
	nd.nominal = b.nominal[attr]
	nd.branches = 2
	if nd.nominal {
		nd.branches = b.numValues[attr]
	} else {
		nd.threshold = b.snap(attr, s.cand[attr].threshold)
	}
	nd.dist = b.splitDistribution(nd, nd.ids, nd.w)
	childIDs, childW = b.partition(nd, nd.dist, nd.ids, nd.w)
	return childIDs, childW, b.partitionRows(s, nd, rows, childIDs), true
}

// growChildren grows nd's children in branch order, or one task each on
// the budget's free threads when the node is large and no row goes down
// two branches (subtrees then share no row, and so no per-row buffer).
func (b *builder) growChildren(nd *node, childIDs [][]int32, childW [][]float64, childRows []sortedRows) {
	nd.children = make([]*node, len(childIDs))
	if !b.spreads(len(nd.ids), len(childIDs), minSpreadChildren) || rowsInBranches(childIDs) > len(nd.ids) {
		for k := range childIDs {
			nd.children[k] = b.grow(childIDs[k], childW[k], childRows[k])
		}
		return
	}
	b.threads.For(len(childIDs), func(k int) { nd.children[k] = b.grow(childIDs[k], childW[k], childRows[k]) })
}

// rowsInBranches is the number of rows the branches hold together: more
// than the node's when rows with a missing value go down several.
func rowsInBranches(childIDs [][]int32) int {
	total := 0
	for _, c := range childIDs {
		total += len(c)
	}
	return total
}

// partitionRows gives each child its presorted rows. When every row goes
// to at most one child, the parent's lists are partitioned stably in place
// (children get consecutive sub-ranges); when rows with a missing split
// value go down several branches, the children get a fresh store filled by
// order-preserving filtering.
func (b *builder) partitionRows(s *scratch, nd *node, rows sortedRows, childIDs [][]int32) []sortedRows {
	if b.numNum == 0 {
		return make([]sortedRows, len(childIDs))
	}
	if total := rowsInBranches(childIDs); total > rows.n {
		return b.filterRows(nd, rows, childIDs, total)
	}
	for _, id := range rows.list(0) {
		b.childOf[id] = -1
	}
	out := make([]sortedRows, len(childIDs))
	offset := make([]int, len(childIDs))
	lo := 0
	for k, c := range childIDs {
		for _, id := range c {
			b.childOf[id] = int32(k)
		}
		out[k] = sortedRows{store: rows.store, stride: rows.stride, lo: rows.lo + lo, n: len(c)}
		offset[k] = lo
		lo += len(c)
	}
	start := slices.Clone(offset)
	if cap(s.tmp) < lo {
		s.tmp = make([]int32, lo)
	}
	tmp := s.tmp[:lo]
	for slot := 0; slot < b.numNum; slot++ {
		copy(offset, start)
		list := rows.list(slot)
		for _, id := range list {
			if c := b.childOf[id]; c >= 0 {
				tmp[offset[c]] = id
				offset[c]++
			}
		}
		copy(list, tmp)
	}
	return out
}

// filterRows is partitionRows when rows go down several branches: a fresh
// store of total rows per column, filled in the parent's order.
func (b *builder) filterRows(nd *node, rows sortedRows, childIDs [][]int32, total int) []sortedRows {
	out := make([]sortedRows, len(childIDs))
	store := make([]int32, b.numNum*total)
	lo := 0
	for k, c := range childIDs {
		out[k] = sortedRows{store: store, stride: total, lo: lo, n: len(c)}
		lo += len(c)
	}
	col := b.cols[nd.attr*b.n : (nd.attr+1)*b.n]
	takesMissing := make([]bool, len(childIDs))
	for k := range takesMissing {
		takesMissing[k] = gr(nd.dist.bagWeight(k), 0)
	}
	fill := make([]int, len(childIDs))
	for slot := 0; slot < b.numNum; slot++ {
		clear(fill)
		for _, id := range rows.list(slot) {
			if sub := nd.subset(col[id]); sub >= 0 {
				out[sub].list(slot)[fill[sub]] = id
				fill[sub]++
				continue
			}
			for k, ok := range takesMissing {
				if ok {
					out[k].list(slot)[fill[k]] = id
					fill[k]++
				}
			}
		}
	}
	return out
}

func (b *builder) makeLeaf(nd *node, cd *distribution) *node {
	nd.leaf = true
	nd.dist = cd
	nd.empty = eq(cd.total, 0)
	return nd
}

// selectAttribute evaluates every attribute into s.cand and applies J48's
// rule (chooseAttribute). A large node evaluates its attributes on the
// budget's free threads, each into its own slot with its own scratch.
func (b *builder) selectAttribute(s *scratch, ids []int32, w []float64, total float64, rows sortedRows) (int, bool) {
	s.unitWeights = true
	for i, id := range ids {
		b.rowW[id] = w[i]
		if w[i] != 1 {
			s.unitWeights = false
		}
	}
	if !b.spreads(len(ids), b.d, minSpreadSearch) {
		for j := 0; j < b.d; j++ {
			s.cand[j] = b.evalAttribute(s, s, j, ids, w, total, rows)
		}
		return b.chooseAttribute(s.cand)
	}
	b.threads.For(b.d, func(j int) {
		col := b.scratches.Get()
		col.unitWeights = s.unitWeights
		s.cand[j] = b.evalAttribute(s, col, j, ids, w, total, rows)
		b.scratches.Put(col)
	})
	return b.chooseAttribute(s.cand)
}

// evalAttribute evaluates attribute j at the node of scratch s, a numeric
// one with the scratch col.
func (b *builder) evalAttribute(s, col *scratch, j int, ids []int32, w []float64, total float64, rows sortedRows) candidate {
	if b.nominal[j] {
		return b.evalNominal(s.nomDist[j], j, ids, w, total)
	}
	return b.evalNumeric(col, j, rows.list(b.slot[j]), total)
}

// chooseAttribute is J48's rule: the largest gain ratio among valid splits
// whose information gain is at least the average (minus 1e-3), first
// attribute on ties; none if that ratio is 0.
func (b *builder) chooseAttribute(cand []candidate) (int, bool) {
	sum, valid := 0.0, 0
	for j, c := range cand {
		if c.valid && (!b.manyValues[j] || b.allManyValues) {
			sum += c.infoGain
			valid++
		}
	}
	if valid == 0 {
		return -1, false
	}
	avg := sum / float64(valid)
	best, bestAttr := 0.0, -1
	for j, c := range cand {
		if c.valid && c.infoGain >= avg-1e-3 && gr(c.gainRatio, best) {
			best, bestAttr = c.gainRatio, j
		}
	}
	if eq(best, 0) || bestAttr < 0 {
		return -1, false
	}
	return bestAttr, true
}

// evalNominal is C45Split.handleEnumeratedAttribute: one bag per value,
// valid when two bags hold at least MinObj. d is the attribute's
// distribution to fill.
func (b *builder) evalNominal(d *distribution, j int, ids []int32, w []float64, total float64) candidate {
	clear(d.perBag)
	clear(d.perClass)
	clear(d.perClassPerBag)
	d.total = 0
	col := b.cols[j*b.n : (j+1)*b.n]
	for i, id := range ids {
		v := col[id]
		if math.IsNaN(v) {
			continue
		}
		d.add(int(v), int(b.y[id]), w[i])
	}
	if !d.check(b.minObj) {
		return candidate{}
	}
	ig := infoGainFrom(b.lt.oldEnt(d), b.lt.newEnt(d), d.total, total)
	return candidate{valid: true, infoGain: ig, gainRatio: b.lt.gainRatio(d, total, ig)}
}

// gather fills s.sv/sw/sc with the values, weights and classes of the
// known rows of a presorted list (missing values come last); at a node of
// unit weights it leaves sw empty.
func (b *builder) gather(s *scratch, j int, list []int32) {
	col := b.cols[j*b.n : (j+1)*b.n]
	if cap(s.sv) < len(list) { // once at the root when serial
		s.sv, s.sw, s.sc = make([]float64, 0, len(list)), make([]float64, 0, len(list)), make([]int32, 0, len(list))
	}
	s.sv, s.sw, s.sc = s.sv[:0], s.sw[:0], s.sc[:0]
	weighted := !s.unitWeights // else evalNumeric, scanUnit and cutGainRatio count
	for _, id := range list {
		v := col[id]
		if math.IsNaN(v) {
			break
		}
		s.sv = append(s.sv, v)
		if weighted {
			s.sw = append(s.sw, b.rowW[id])
		}
		s.sc = append(s.sc, b.y[id])
	}
}

// evalNumeric is C45Split.handleNumericAttribute: the best binary cut by
// information gain among cut points leaving minSplit weight on both sides,
// MDL-corrected by log2(#admissible cuts)/node weight.
func (b *builder) evalNumeric(s *scratch, j int, list []int32, total float64) candidate {
	b.gather(s, j, list)
	sv := s.sv
	clear(s.left)
	clear(s.right)
	known := 0.0
	if s.unitWeights {
		// Sums of ones, in any order, are the counts exactly. scanUnit
		// starts from these counts: left ones 0, right ones the classes'.
		cnt := s.counts[:2*b.nc]
		clear(cnt)
		for _, c := range s.sc {
			cnt[b.nc+int(c)]++
		}
		for c, k := range cnt[b.nc:] {
			s.right[c] = float64(k)
		}
		known = float64(len(s.sc))
	} else {
		for k, c := range s.sc {
			s.right[c] += s.sw[k]
			known += s.sw[k]
		}
	}
	minSplit := b.minSplit(known)
	if sm(float64(len(sv)), 2*minSplit) {
		return candidate{}
	}
	oldEnt := 0.0
	for _, v := range s.right {
		oldEnt += b.lt.lnFunc(v)
	}
	oldEnt = (b.lt.lnFunc(known) - oldEnt) / math.Ln2
	var best float64
	var splitIdx, admissible int
	if s.unitWeights {
		best, splitIdx, admissible = b.scanUnit(s, oldEnt, known, total, minSplit)
	} else {
		best, splitIdx, admissible = b.scanWeighted(s, oldEnt, known, total, minSplit)
	}
	if admissible == 0 {
		return candidate{}
	}
	ig := best - fmath.Log(float64(admissible))/math.Ln2/total
	if smOrEq(ig, 0) || splitIdx < 0 {
		return candidate{}
	}
	thr := (sv[splitIdx+1] + sv[splitIdx]) / 2
	if thr == sv[splitIdx+1] { // midpoint rounded up onto the right value
		thr = sv[splitIdx]
	}
	return candidate{valid: true, infoGain: ig, gainRatio: b.cutGainRatio(s, splitIdx, total, ig), threshold: thr}
}

// minSplit is C45Split's minimum weight either side of a cut: a tenth of
// the known weight per class, within [MinObj, 25].
func (b *builder) minSplit(known float64) float64 {
	minSplit := 0.1 * known / float64(b.nc)
	if smOrEq(minSplit, b.minObj) {
		return b.minObj
	}
	if gr(minSplit, 25) {
		return 25
	}
	return minSplit
}

// cutGainRatio is the gain ratio of the cut after s.sv[splitIdx]: its
// split information needs only the bag weights of the cut (C45Split
// rebuilds the distribution with addRange).
func (b *builder) cutGainRatio(s *scratch, splitIdx int, total, ig float64) float64 {
	d := s.numDist
	if s.unitWeights { // the weight sums are the counts, exactly
		n := len(s.sv)
		d.perBag[0], d.perBag[1], d.total = float64(splitIdx+1), float64(n-splitIdx-1), float64(n)
		return b.lt.gainRatio(d, total, ig)
	}
	d.perBag[0], d.perBag[1], d.total = 0, 0, 0
	for k, wk := range s.sw {
		if k <= splitIdx {
			d.perBag[0] += wk
		} else {
			d.perBag[1] += wk
		}
		d.total += wk
	}
	return b.lt.gainRatio(d, total, ig)
}

// scanWeighted walks the cut points of the sorted known values (s.sv, sw,
// sc), moving instances from the right bag to the left one, and returns the
// best information gain, the index of the last instance left of the best
// cut, and the number of admissible cuts (both sides >= minSplit).
func (b *builder) scanWeighted(s *scratch, oldEnt, known, total, minSplit float64) (best float64, splitIdx, admissible int) {
	sv, sw, sc, lt := s.sv, s.sw, s.sc, b.lt
	left, right := s.left, s.right
	leftTot, rightTot := 0.0, known
	splitIdx = -1
	last := 0
	for next := 1; next < len(sv); next++ {
		if !(sv[next-1]+1e-5 < sv[next]) {
			continue
		}
		for i := last; i < next; i++ {
			c, wi := sc[i], sw[i]
			right[c] -= wi
			left[c] += wi
			rightTot -= wi
			leftTot += wi
		}
		last = next
		if !grOrEq(leftTot, minSplit) || !grOrEq(rightTot, minSplit) {
			continue
		}
		s := 0.0
		for _, v := range left {
			s += lt.lnFunc(v)
		}
		s -= lt.lnFunc(leftTot)
		for _, v := range right {
			s += lt.lnFunc(v)
		}
		s -= lt.lnFunc(rightTot)
		// infoGainFrom's "0 when eq(gain, 0)" never wins gr(g, best >= 0),
		// so the raw value is compared directly.
		g := (1 - (total-known)/total) * (oldEnt + s/math.Ln2) / known
		if gr(g, best) {
			best, splitIdx = g, next-1
		}
		admissible++
	}
	return best, splitIdx, admissible
}

// scanUnit is scanWeighted for nodes where every weight is 1: counts are
// integers and x*ln(x) comes from the table, with results identical to the
// weighted path. evalNumeric has put the class counts in s.counts.
func (b *builder) scanUnit(s *scratch, oldEnt, known, total, minSplit float64) (best float64, splitIdx, admissible int) {
	sv, sc, lt := s.sv, s.sc, b.lt
	nc := b.nc
	cnt := s.counts[:2*nc] // left counts then right counts, as evalNumeric left them
	nK := len(sv)
	scale := 1 - (total-known)/total
	splitIdx = -1
	last := 0
	for next := 1; next < nK; next++ {
		if !(sv[next-1]+1e-5 < sv[next]) {
			continue
		}
		for i := last; i < next; i++ {
			c := int(sc[i])
			cnt[nc+c]--
			cnt[c]++
		}
		last = next
		leftTot, rightTot := float64(next), float64(nK-next)
		if !grOrEq(leftTot, minSplit) || !grOrEq(rightTot, minSplit) {
			continue
		}
		var s float64
		if nc == 2 {
			// Same summation order as the general loop below.
			s = lt[cnt[0]] + lt[cnt[1]] - lt[next] + lt[cnt[2]] + lt[cnt[3]] - lt[nK-next]
		} else {
			for _, k := range cnt[:nc] {
				s += lt[k]
			}
			s -= lt[next]
			for _, k := range cnt[nc:] {
				s += lt[k]
			}
			s -= lt[nK-next]
		}
		g := scale * (oldEnt + s/math.Ln2) / known
		if gr(g, best) {
			best, splitIdx = g, next-1
		}
		admissible++
	}
	return best, splitIdx, admissible
}

// snap is C45Split.setSplitPoint: the threshold becomes the largest value
// of the column in the whole training set that is <= the midpoint (Weka's
// tolerant comparisons, first such value in row order).
func (b *builder) snap(j int, thr float64) float64 {
	best := -math.MaxFloat64
	for _, v := range b.cols[j*b.n : (j+1)*b.n] {
		if !math.IsNaN(v) && gr(v, best) && smOrEq(v, thr) {
			best = v
		}
	}
	return best
}

// subset is C45Split.whichSubset: the branch of a value, -1 when missing
// (or, at prediction, a nominal code the tree has no branch for).
func (nd *node) subset(v float64) int {
	if math.IsNaN(v) {
		return -1
	}
	if nd.nominal {
		if v < 0 || v != math.Trunc(v) || v >= float64(nd.branches) {
			return -1
		}
		return int(v)
	}
	if smOrEq(v, nd.threshold) {
		return 0
	}
	return 1
}

// splitDistribution builds the node's split distribution from the given
// rows: known rows into their bags, then (Distribution.addInstWithUnknown)
// each row with a missing value spread over the bags in proportion to the
// known bag weights (uniformly if there are none).
func (b *builder) splitDistribution(nd *node, ids []int32, w []float64) *distribution {
	nBags := nd.branches
	d := newDistribution(nBags, b.nc)
	col := b.cols[nd.attr*b.n : (nd.attr+1)*b.n]
	for i, id := range ids {
		if s := nd.subset(col[id]); s >= 0 {
			d.add(s, int(b.y[id]), w[i])
		}
	}
	probs := make([]float64, nBags)
	for k := range probs {
		if eq(d.total, 0) {
			probs[k] = 1 / float64(nBags)
		} else {
			probs[k] = d.perBag[k] / d.total
		}
	}
	for i, id := range ids {
		if !math.IsNaN(col[id]) {
			continue
		}
		c := int(b.y[id])
		d.perClass[c] += w[i]
		d.total += w[i]
		for k, p := range probs {
			nw := float64(p * w[i])
			d.perClassPerBag[k*b.nc+c] += nw
			d.perBag[k] += nw
		}
	}
	return d
}

// partition is ClassifierSplitModel.split: known rows go to their branch;
// a row with a missing value goes to every branch k with a positive share
// p_k = bag_k/total of d, with its weight multiplied by p_k.
func (b *builder) partition(nd *node, d *distribution, ids []int32, w []float64) ([][]int32, [][]float64) {
	nBags := len(d.perBag)
	col := b.cols[nd.attr*b.n : (nd.attr+1)*b.n]
	counts := make([]int, nBags)
	missing := 0
	for _, id := range ids {
		if s := nd.subset(col[id]); s >= 0 {
			counts[s]++
		} else {
			missing++
		}
	}
	share := make([]float64, nBags)
	for k := range share {
		share[k] = d.bagWeight(k)
		if missing > 0 && gr(share[k], 0) {
			counts[k] += missing
		}
	}
	childIDs := make([][]int32, nBags)
	childW := make([][]float64, nBags)
	for k := range childIDs {
		childIDs[k] = make([]int32, 0, counts[k])
		childW[k] = make([]float64, 0, counts[k])
	}
	for i, id := range ids {
		if s := nd.subset(col[id]); s >= 0 {
			childIDs[s] = append(childIDs[s], id)
			childW[s] = append(childW[s], w[i])
			continue
		}
		for k, p := range share {
			if gr(p, 0) {
				childIDs[k] = append(childIDs[k], id)
				childW[k] = append(childW[k], w[i]*p)
			}
		}
	}
	return childIDs, childW
}
