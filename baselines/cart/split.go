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
	visit, nFound, nTotal := b.drawFeatures(start, end, nConstant)
	best := split{pos: end, improvement: math.Inf(-1), impLeft: math.Inf(1), impRight: math.Inf(1)}
	if c := b.bestCandidate(visit, start, end); c.found {
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
			if c := b.scanFeature(b.own, f, start, end, best.proxy); c.found {
				best = c
			}
		}
		return best
	}
	slots := b.candidates[:len(visit)]
	b.forEach(end-start, len(visit), func(s *scratch, i int) {
		slots[i] = b.scanFeature(s, visit[i], start, end, math.Inf(-1))
	})
	for _, c := range slots {
		if c.found && c.proxy > best.proxy {
			best = c
		}
	}
	return best
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
		if b.xlogx != nil && b.screenEntropy(left, p, m) < best.proxy {
			continue
		}
		wL := float64(p)
		wR := wN - wL
		var iL, iR float64
		if b.crit == Gini {
			iL, iR = b.childGini(left, wL, wR)
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
// candidate with left holding the class counts of the first p of m
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
func (b *builder) screenEntropy(left []float64, p, m int) float64 {
	t := b.xlogx
	s := -t[p] - t[m-p]
	for k, l := range left {
		s += t[int(l)] + t[int(b.total[k]-l)]
	}
	slack := (t[m] + float64(m)) * float64(len(left)+2) * 0x1p-36
	return s/b.log2Base + slack
}

// childImpurities returns the impurities of s.left and of total-left.
func (b *builder) childImpurities(s *scratch, wL, wR float64) (float64, float64) {
	for k, t := range b.total {
		s.right[k] = t - s.left[k]
	}
	return b.impurityOf(s.left, wL), b.impurityOf(s.right, wR)
}

// childGini is childImpurities for the Gini criterion, in one pass and
// without writing the right counts: the same operations in the same order
// (a candidate split's hottest path).
func (b *builder) childGini(left []float64, wL, wR float64) (float64, float64) {
	left = left[:len(b.total)]
	sqL, sqR := 0.0, 0.0
	for k, t := range b.total {
		l := left[k]
		r := t - l
		sqL += float64(l * l)
		sqR += float64(r * r)
	}
	return 1.0 - sqL/float64(wL*wL), 1.0 - sqR/float64(wR*wR)
}
