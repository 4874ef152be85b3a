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
// pre, when not nil, holds every feature's scan of the node, done while
// its parent was partitioned.
func (b *builder) nodeSplit(start, end int, impurity float64, nConstant int, pre *nodeScans) (split, int) {
	visit, nFound, nTotal := b.drawFeatures(start, end, nConstant)
	best := split{pos: end, improvement: math.Inf(-1), impLeft: math.Inf(1), impRight: math.Inf(1)}
	var c candidate
	if pre != nil {
		c = firstBest(visit, pre.best)
	} else {
		c = b.bestCandidate(visit, start, end)
	}
	if c.found {
		best.feature, best.pos, best.threshold = c.feature, c.pos, c.threshold
		b.completeSplit(&best, start, end, impurity)
	}
	copy(b.features[:nConstant], b.constantFeatures[:nConstant])
	copy(b.constantFeatures[nConstant:nConstant+nFound], b.features[nConstant:nConstant+nFound])
	return best, nTotal
}

// drawFeatures is node_split's drawing loop: it permutes b.features as
// sklearn does and returns the non-constant features to scan, in the order
// sklearn scans them, with the number of constant features it found and
// the node's new constant count. Whether a feature is constant in the node
// depends only on its extreme values, so drawing needs no scan and the
// scans can follow in any order.
func (b *builder) drawFeatures(start, end, nKnown int) (visit []int, nFound, nTotal int) {
	n, d, m := b.data.n, b.data.d, end-start
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
		if xf := b.values[f*n+start : f*n+end]; xf[m-1] <= xf[0]+featureThreshold {
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

// bestCandidate scans the features of visit and returns the first
// candidate with the best proxy, in visiting order then position (strict
// improvement, as sklearn keeps the first best). A large node scans its
// features on the budget's free threads, each from -∞ into its own slot,
// and the slots are reduced in visiting order with the same strict
// comparison: the winner is the serial scan's, bit for bit. Serially, each
// scan starts from the best proxy so far, which lets the entropy screen
// skip more candidates; the screen never changes which candidate wins.
func (b *builder) bestCandidate(visit []int, start, end int) candidate {
	best := candidate{proxy: math.Inf(-1)}
	if !b.spreads(end-start, len(visit)) {
		for _, f := range visit {
			b.own.total = b.total
			if c := b.scanFeature(b.own, f, start, end, best.proxy); c.found {
				best = c
			}
		}
		return best
	}
	slots := b.candidates
	b.forEach(end-start, len(visit), func(s *scratch, i int) {
		s.total = b.total
		slots[visit[i]] = b.scanFeature(s, visit[i], start, end, math.Inf(-1))
	})
	return firstBest(visit, slots)
}

// firstBest reduces per-feature scans (byFeature[f], each the feature's
// first best from -∞) in visiting order, keeping a later feature's only if
// strictly better: the candidate one serial scan of visit would keep.
func firstBest(visit []int, byFeature []candidate) candidate {
	best := candidate{proxy: math.Inf(-1)}
	for _, f := range visit {
		if c := byFeature[f]; c.found && c.proxy > best.proxy {
			best = c
		}
	}
	return best
}

// nodeScans is a pending node's split scans, computed before grow pops it:
// best[f] is feature f's first best candidate from -∞ (meaningless for
// features constant in the node, which the draw skips), total the node's
// class counts they were scanned with.
type nodeScans struct {
	best  []candidate
	total []float64
}

// prepareScans gives each child that the leaf rules let be split a
// nodeScans with its class counts, which b.goesLeft and b.total (the
// parent's counts) determine, for the partition's tasks to fill.
func (b *builder) prepareScans(start, end int, children ...*stackRecord) {
	var left []float64
	for _, c := range children {
		if !b.splittable(c.depth, c.end-c.start, c.impurity) {
			continue
		}
		if left == nil {
			left = b.own.left
			clear(left)
			for _, i := range b.samples[start:end] {
				if b.goesLeft[i] {
					left[b.data.y[i]]++
				}
			}
		}
		c.pre = b.takeScans()
		for k, t := range b.total {
			c.pre.total[k] = left[k]
			if !c.isLeft {
				c.pre.total[k] = t - left[k]
			}
		}
	}
}

// prescan scans feature f of a child that prepareScans gave a nodeScans,
// once f's segment has been partitioned.
func (b *builder) prescan(s *scratch, f int, child *stackRecord) {
	if child.pre == nil {
		return
	}
	s.total = child.pre.total
	child.pre.best[f] = b.scanFeature(s, f, child.start, child.end, math.Inf(-1))
}

func (b *builder) takeScans() *nodeScans {
	if k := len(b.freeScans); k > 0 {
		ns := b.freeScans[k-1]
		b.freeScans = b.freeScans[:k-1]
		return ns
	}
	return &nodeScans{best: make([]candidate, b.data.d), total: make([]float64, b.data.classes)}
}

func (b *builder) releaseScans(ns *nodeScans) {
	if ns != nil {
		b.freeScans = append(b.freeScans, ns)
	}
}

// scanFeature evaluates every threshold of feature f in the node
// [start, end) and returns the first one whose proxy improvement is
// strictly above bestProxy and above every earlier one (found is false if
// none is). s is the calling thread's scratch.
func (b *builder) scanFeature(s *scratch, f, start, end int, bestProxy float64) candidate {
	n, m := b.data.n, end-start
	xf := b.values[f*n+start : f*n+end]
	yf, y := s.yf[:m], b.data.y
	for k, i := range b.sorted[f*n+start : f*n+end] {
		yf[k] = y[i]
	}
	best := candidate{proxy: bestProxy}
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
		if b.xlogx != nil && b.screenEntropy(s, p, m) < best.proxy {
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
		if proxy := -float64(wR*iR) - float64(wL*iL); proxy > best.proxy {
			best = candidate{found: true, proxy: proxy, feature: f, pos: start + p, threshold: midpoint(xf[p-1], xf[p])}
		}
	}
	return best
}

// midpoint is sklearn's threshold between two neighbouring float32 values:
// their float64 mean, or the lower one when the mean rounds onto the upper
// one or overflows.
func midpoint(lo32, hi32 float32) float64 {
	lo, hi := float64(lo32), float64(hi32)
	thr := lo/2.0 + hi/2.0
	if thr == hi || math.IsInf(thr, 0) {
		thr = lo
	}
	return thr
}

// completeSplit fills in the chosen split's child impurities and its
// weighted impurity decrease, as node_split does after its scan.
func (b *builder) completeSplit(best *split, start, end int, impurity float64) {
	n, s := b.data.n, b.own
	s.total = b.total
	clear(s.left)
	for _, i := range b.sorted[best.feature*n+start : best.feature*n+best.pos] {
		s.left[b.data.y[i]]++
	}
	wN := float64(end - start)
	wL := float64(best.pos - start)
	wR := wN - wL
	best.impLeft, best.impRight = b.childImpurities(s, wL, wR)
	best.improvement = (wN / float64(n)) *
		(impurity - float64(wR/wN*best.impRight) - float64(wL/wN*best.impLeft))
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
	slack := (t[m] + float64(m)) * float64(len(s.left)+2) * 0x1p-36
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
