package cart

import "math"

// candidate is the best split of one feature found by a scan: samples
// [start, pos) go left. found is false when no threshold of the feature
// beat the proxy the scan started from.
type candidate struct {
	found     bool
	proxy     float64
	feature   int
	pos       int
	threshold float64
}

// nodeSplit is BestSplitter.node_split: it draws features in sklearn's
// random order, skips known and newly found constant features, and keeps
// the first split with the best proxy improvement. It returns the split
// (pos == end when none is valid) and the node's updated constant count.
func (b *builder) nodeSplit(start, end int, impurity float64, nConstant int) (split, int) {
	visit, nFound, nTotal := b.drawFeatures(nConstant, b.constantIn(start, end))
	best := noSplit(end)
	if c := b.bestCandidate(visit, start, end); c.found {
		best = b.completeSplit(b.own, b.total, c, start, end, impurity)
	}
	b.keepConstants(nConstant, nFound)
	return best, nTotal
}

// noSplit is node_split's result when no threshold is valid.
func noSplit(end int) split {
	return split{pos: end, improvement: math.Inf(-1), impLeft: math.Inf(1), impRight: math.Inf(1)}
}

// keepConstants ends node_split: the known constants go back to the front
// of features and the newly found ones join the persistent list.
func (b *builder) keepConstants(nKnown, nFound int) {
	copy(b.features[:nKnown], b.constantFeatures[:nKnown])
	copy(b.constantFeatures[nKnown:nKnown+nFound], b.features[nKnown:nKnown+nFound])
}

// constantIn is node_split's test of a drawn feature in the node
// [start, end) whose sorted segments are current: all its values within
// FEATURE_THRESHOLD of the smallest.
func (b *builder) constantIn(start, end int) func(f int) bool {
	n, m := b.data.n, end-start
	return func(f int) bool {
		xf := b.values[f*n+start : f*n+end]
		return xf[m-1] <= xf[0]+featureThreshold
	}
}

// drawFeatures is node_split's drawing loop: it permutes b.features as
// sklearn does and returns the non-constant features to scan, in the order
// sklearn scans them, with the number of constant features it found and
// the node's new constant count. constant tells whether a drawn feature is
// constant in the node, which depends only on its extreme values: drawing
// needs no scan, and the scans can follow in any order.
func (b *builder) drawFeatures(nKnown int, constant func(f int) bool) (visit []int, nFound, nTotal int) {
	d := b.data.d
	features := b.features
	visit = b.visit[:0]
	fi, nVisited, nDrawn := d, 0, 0
	nTotal = nKnown
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
		if constant(f) {
			features[fj], features[nTotal] = features[nTotal], features[fj]
			nFound++
			nTotal++
			continue
		}
		fi--
		features[fi], features[fj] = features[fj], features[fi]
		visit = append(visit, f)
	}
	b.visit = visit
	return visit, nFound, nTotal
}

// bestCandidate scans the features of visit in order and returns the
// first candidate with the best proxy (strict improvement, as sklearn
// keeps the first best). Each scan starts from the best proxy so far,
// which lets the entropy screen skip more candidates; the screen never
// changes which candidate wins.
func (b *builder) bestCandidate(visit []int, start, end int) candidate {
	best := candidate{proxy: math.Inf(-1)}
	b.own.total = b.total
	for _, f := range visit {
		if c := b.scanFeature(b.own, f, start, end, best.proxy, false); c.found {
			best = c
		}
	}
	return best
}

// scanFeature evaluates every threshold of feature f in the node
// [start, end) and returns the first one whose proxy improvement is
// strictly above bestProxy (or equal to it, when orEqual) and above every
// earlier one (found is false if none is). s is the calling thread's
// scratch.
func (b *builder) scanFeature(s *scratch, f, start, end int, bestProxy float64, orEqual bool) candidate {
	n, m := b.data.n, end-start
	xf := b.values[f*n+start : f*n+end]
	yf, y := s.yf[:m], b.data.y
	for k, i := range b.sorted[f*n+start : f*n+end] {
		yf[k] = y[i]
	}
	// The best so far stays in locals, not in a candidate: a struct of five
	// fields is not kept in registers, and the loop compares with its proxy
	// at every distinct value (2-5 % of a serial fit on the runtime data).
	found, bestPos := false, 0
	left, wN := s.left, float64(m)
	clear(left)
	added := 0 // samples xf[:added] are in left
	for p := 0; p < m; {
		for p+1 < m && xf[p+1] <= xf[p]+featureThreshold {
			p++
		}
		p++
		if p >= m || p < b.minLeaf || m-p < b.minLeaf {
			continue
		}
		for ; added < p; added++ {
			left[yf[added]]++
		}
		if b.xlogx != nil && b.screenEntropy(s, p, m) < bestProxy {
			continue
		}
		wL := float64(p)
		wR := wN - wL
		var iL, iR float64
		if b.crit == Gini {
			iL, iR = b.childGini(s, wL, wR)
		} else {
			iL, iR = b.childImpurities(s, wL, wR)
		}
		if proxy := -float64(wR*iR) - float64(wL*iL); proxy > bestProxy || (orEqual && !found && proxy == bestProxy) {
			found, bestProxy, bestPos = true, proxy, p
		}
	}
	if !found {
		return candidate{proxy: bestProxy}
	}
	return candidate{found: true, proxy: bestProxy, feature: f, pos: start + bestPos, threshold: midpoint(xf[bestPos-1], xf[bestPos])}
}

// midpoint is sklearn's threshold between two neighbouring float32 values:
// their float64 mean, or the lower one when the mean rounds onto the upper
// one or overflows.
func midpoint(lo32, hi32 float32) float64 {
	lo, hi := float64(lo32), float64(hi32)
	thr := float64(lo/2.0) + float64(hi/2.0)
	if thr == hi || math.IsInf(thr, 0) {
		thr = lo
	}
	return thr
}

// completeSplit turns the chosen candidate of the node [start, end) with
// class counts total into node_split's split record: its child impurities
// and its weighted impurity decrease. s is the calling thread's scratch.
func (b *builder) completeSplit(s *scratch, total []float64, c candidate, start, end int, impurity float64) split {
	n := b.data.n
	s.total = total
	clear(s.left)
	for _, i := range b.sorted[c.feature*n+start : c.feature*n+c.pos] {
		s.left[b.data.y[i]]++
	}
	sp := split{pos: c.pos, feature: c.feature, threshold: c.threshold}
	wN := float64(end - start)
	wL := float64(c.pos - start)
	wR := wN - wL
	sp.impLeft, sp.impRight = b.childImpurities(s, wL, wR)
	sp.improvement = (wN / float64(n)) *
		(impurity - float64(wR/wN*sp.impRight) - float64(wL/wN*sp.impLeft))
	return sp
}

// screenEntropy returns an upper bound of the entropy proxy of the
// candidate with s.left holding the class counts of the first p of m
// samples (s.total those of all m), so that candidates that cannot beat the best so far skip the
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
func (b *builder) screenEntropy(s *scratch, p, m int) float64 {
	t := b.xlogx
	sum := -t[p] - t[m-p]
	for k, l := range s.left {
		sum += t[int(l)] + t[int(s.total[k]-l)]
	}
	slack := float64((t[m] + float64(m)) * float64(len(s.left)+2) * 0x1p-36)
	return sum/b.log2Base + slack
}

// childImpurities returns the impurities of s.left and of s.total-s.left.
func (b *builder) childImpurities(s *scratch, wL, wR float64) (float64, float64) {
	for k, t := range s.total {
		s.right[k] = t - s.left[k]
	}
	return b.impurityOf(s.left, wL), b.impurityOf(s.right, wR)
}

// childGini is childImpurities for the Gini criterion, in one pass and
// without writing the right counts: the same operations in the same order
// (a candidate split's hottest path).
func (b *builder) childGini(s *scratch, wL, wR float64) (float64, float64) {
	left := s.left[:len(s.total)]
	sqL, sqR := 0.0, 0.0
	for k, t := range s.total {
		l := left[k]
		r := t - l
		sqL += float64(l * l)
		sqR += float64(r * r)
	}
	return 1.0 - sqL/float64(wL*wL), 1.0 - sqR/float64(wR*wR)
}
