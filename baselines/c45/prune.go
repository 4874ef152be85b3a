package c45

import "math"

// trainingErrors sums the training errors of the subtree's leaves.
func trainingErrors(nd *node) float64 {
	if nd.leaf {
		return nd.dist.numIncorrect()
	}
	s := 0.0
	for _, ch := range nd.children {
		s += trainingErrors(ch)
	}
	return s
}

// collapse is C45PruneableClassifierTree.collapse: top-down, a subtree
// whose leaves make (almost) as many training errors as the node would
// alone becomes a leaf.
func collapse(nd *node) {
	if nd.leaf {
		return
	}
	if trainingErrors(nd) >= nd.dist.numIncorrect()-1e-3 {
		nd.leaf = true
		nd.children = nil
		return
	}
	for _, ch := range nd.children {
		collapse(ch)
	}
}

// pruner carries the data needed to re-send training rows through
// subtrees during subtree raising.
type pruner struct {
	b     *builder
	cf    float64
	raise bool
	// Stacks reused by estimatedBranch for the rows sent down a branch and
	// for per-node distributions.
	ids    []int32
	w      []float64
	fstack []float64
}

func (p *pruner) estimated(d *distribution) float64 {
	return estimatedErrors(d.total, d.numIncorrect(), p.cf)
}

// estimatedTree is getEstimatedErrors: the leaves' pessimistic errors.
func (p *pruner) estimatedTree(nd *node) float64 {
	if nd.leaf {
		return p.estimated(nd.dist)
	}
	s := 0.0
	for _, ch := range nd.children {
		s += p.estimatedTree(ch)
	}
	return s
}

// prune is C45PruneableClassifierTree.prune: bottom-up, replace the node
// by a leaf when that is not (0.1) worse than the subtree and than its
// largest branch; otherwise, with subtree raising, replace it by its
// largest branch when that is not worse than the subtree, re-send the
// node's rows through it and prune again.
func (p *pruner) prune(nd *node) {
	if nd.leaf {
		return
	}
	for _, ch := range nd.children {
		p.prune(ch)
	}
	largest := nd.dist.maxBag()
	errLargest := math.MaxFloat64
	if p.raise && largest >= 0 {
		errLargest = p.estimatedBranch(nd.children[largest], nd.ids, nd.w)
	}
	errLeaf := p.estimated(nd.dist)
	errTree := p.estimatedTree(nd)
	if smOrEq(errLeaf, errTree+0.1) && smOrEq(errLeaf, errLargest+0.1) {
		nd.leaf = true
		nd.children = nil
		return
	}
	if smOrEq(errLargest, errTree+0.1) {
		br := nd.children[largest]
		nd.children = br.children
		nd.leaf = br.leaf
		nd.attr, nd.nominal, nd.threshold, nd.branches = br.attr, br.nominal, br.threshold, br.branches
		nd.dist = br.dist
		p.redistribute(nd, nd.ids, nd.w)
		p.prune(nd)
	}
}

// resetDistribution rebuilds a node's distribution from new rows
// (C45Split.resetDistribution / NoSplit's plain class distribution).
func (p *pruner) resetDistribution(nd *node, ids []int32, w []float64) *distribution {
	if nd.leaf {
		return p.b.classDistribution(ids, w)
	}
	return p.b.splitDistribution(nd, ids, w)
}

// estimatedBranch is getEstimatedErrorsForBranch: the pessimistic errors of
// the subtree if the given rows were sent through it, without changing it.
// Like Weka it re-derives each split's branch shares for missing values
// from the rows sent (C45Split.resetDistribution); the rows reaching each
// child are built one child at a time on a reusable stack, not allocated.
func (p *pruner) estimatedBranch(nd *node, ids []int32, w []float64) float64 {
	if nd.leaf {
		return p.estimatedLeaf(ids, w)
	}
	nb := nd.branches
	mark := len(p.fstack)
	p.fstack = append(p.fstack, make([]float64, 2*nb)...)
	share := p.fstack[mark+nb : mark+2*nb]
	p.missingShares(nd, ids, w, p.fstack[mark:mark+nb], share)
	sum := 0.0
	for k, ch := range nd.children {
		base := len(p.ids)
		p.sendDown(nd, k, share[k], ids, w)
		sum += p.estimatedBranch(ch, p.ids[base:], p.w[base:])
		p.ids, p.w = p.ids[:base], p.w[:base]
	}
	p.fstack = p.fstack[:mark]
	return sum
}

// estimatedLeaf is estimatedBranch at a leaf: the pessimistic errors of
// its majority class among the given rows.
func (p *pruner) estimatedLeaf(ids []int32, w []float64) float64 {
	b := p.b
	mark := len(p.fstack)
	p.fstack = append(p.fstack, make([]float64, b.nc)...)
	perClass := p.fstack[mark:]
	total := 0.0
	for i, id := range ids {
		perClass[b.y[id]] += w[i]
		total += w[i]
	}
	best, maxClass := 0.0, 0
	for k, v := range perClass {
		if gr(v, best) {
			best, maxClass = v, k
		}
	}
	e := estimatedErrors(total, total-perClass[maxClass], p.cf)
	p.fstack = p.fstack[:mark]
	return e
}

// missingShares fills bags with the known weight of each branch of nd among
// the given rows and, when some of them miss nd's attribute, share with
// each branch's share of a missing row (addInstWithUnknown on the re-sent
// rows, then weights = bag/total); share stays zero otherwise.
func (p *pruner) missingShares(nd *node, ids []int32, w []float64, bags, share []float64) {
	col := p.b.cols[nd.attr*p.b.n : (nd.attr+1)*p.b.n]
	nb := len(bags)
	known := 0.0
	missing := false
	for i, id := range ids {
		if s := nd.subset(col[id]); s >= 0 {
			bags[s] += w[i]
			known += w[i]
		} else {
			missing = true
		}
	}
	if !missing {
		return
	}
	total := known
	copy(share, bags)
	for i, id := range ids {
		if nd.subset(col[id]) >= 0 {
			continue
		}
		total += w[i]
		for k := range share {
			prob := 1 / float64(nb)
			if !eq(known, 0) {
				prob = bags[k] / known
			}
			share[k] += float64(prob * w[i])
		}
	}
	for k := range share {
		share[k] /= total
	}
}

// sendDown appends to p.ids and p.w the rows that reach branch k of nd:
// those with its value, and those missing it (weighted by share) when
// share is positive.
func (p *pruner) sendDown(nd *node, k int, share float64, ids []int32, w []float64) {
	col := p.b.cols[nd.attr*p.b.n : (nd.attr+1)*p.b.n]
	for i, id := range ids {
		s := nd.subset(col[id])
		switch {
		case s == k:
			p.ids = append(p.ids, id)
			p.w = append(p.w, w[i])
		case s < 0 && gr(share, 0):
			p.ids = append(p.ids, id)
			p.w = append(p.w, w[i]*share)
		}
	}
}

// redistribute is newDistribution: the subtree adopts the given rows as its
// training data. A leaf that now receives weight stops being empty; one
// that loses all weight keeps its flag, as in Weka.
func (p *pruner) redistribute(nd *node, ids []int32, w []float64) {
	nd.dist = p.resetDistribution(nd, ids, w)
	nd.ids, nd.w = ids, w
	if nd.leaf {
		if !eq(nd.dist.total, 0) {
			nd.empty = false
		}
		return
	}
	childIDs, childW := p.b.partition(nd, nd.dist, ids, w)
	for k, ch := range nd.children {
		p.redistribute(ch, childIDs[k], childW[k])
	}
}

// releaseTrainingData drops the rows kept for pruning from the final tree.
func releaseTrainingData(nd *node) {
	nd.ids, nd.w = nil, nil
	for _, ch := range nd.children {
		releaseTrainingData(ch)
	}
}
