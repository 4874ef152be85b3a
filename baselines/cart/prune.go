package cart

import "math"

// Prune returns the tree after minimal cost-complexity pruning with
// complexity parameter alpha, exactly as sklearn's _prune_tree does
// (_cost_complexity_prune with an alpha controller, then
// _build_pruned_tree). The receiver is not modified. Note that alpha == 0
// still collapses branches whose effective alpha is <= 0; sklearn (and
// Trainer.Fit) skip pruning entirely when ccp_alpha is 0.
func (t *Tree) Prune(alpha float64) *Tree {
	leafInSubtree := t.costComplexityPrune(func(effectiveAlpha float64) bool { return alpha < effectiveAlpha }, nil)
	return t.rebuild(leafInSubtree)
}

// PruningPath returns sklearn's cost_complexity_pruning_path: alpha 0 with
// the total leaf impurity of the full tree, then the effective alpha and
// total leaf impurity after each collapse, down to the root alone.
func (t *Tree) PruningPath() (alphas, impurities []float64) {
	t.costComplexityPrune(func(float64) bool { return false }, func(a, r float64) {
		alphas = append(alphas, a)
		impurities = append(impurities, r)
	})
	return alphas, impurities
}

// costComplexityPrune is sklearn's _cost_complexity_prune. stop is asked
// before each collapse with the smallest effective alpha; record (when not
// nil) receives (0, R(T)) first and (alpha, R(T)) after every collapse. It
// returns which nodes are leaves of the pruned subtree; nodes below a
// pruned leaf are not reachable from the root in it.
func (t *Tree) costComplexityPrune(stop func(float64) bool, record func(alpha, r float64)) []bool {
	c := t.newCCP()
	if record != nil {
		record(0.0, c.rBranch[0])
	}
	for c.candidate[0] {
		effectiveAlpha, pruned := c.weakestLink()
		if stop(effectiveAlpha) {
			break
		}
		c.collapse(t, pruned)
		if record != nil {
			record(effectiveAlpha, c.rBranch[0])
		}
	}
	return c.leafInSubtree
}

// ccp is the state of _cost_complexity_prune: per node, its weighted
// impurity as a leaf (rNode) and of its current subtree (rBranch), the
// leaves of that subtree, its parent, whether it is a leaf of the pruned
// tree and whether it may still be collapsed.
type ccp struct {
	rNode, rBranch []float64
	nLeaves        []int
	parent         []int
	leafInSubtree  []bool
	candidate      []bool
	pending        []int // collapse's stack, reused
}

func (t *Tree) newCCP() *ccp {
	count := t.NodeCount()
	total := float64(t.NodeSamples[0])
	c := &ccp{
		rNode: make([]float64, count), rBranch: make([]float64, count), nLeaves: make([]int, count),
		parent: make([]int, count), leafInSubtree: make([]bool, count), candidate: make([]bool, count),
	}
	for i := range c.rNode {
		c.rNode[i] = float64(float64(t.NodeSamples[i])*t.Impurity[i]) / total
		c.leafInSubtree[i] = t.IsLeaf(i)
		c.candidate[i] = !c.leafInSubtree[i]
		c.parent[i] = Undefined
	}
	// Parents: every internal node's children point back to it.
	for i := range c.parent {
		if !t.IsLeaf(i) {
			c.parent[t.ChildrenLeft[i]] = i
			c.parent[t.ChildrenRight[i]] = i
		}
	}
	// Leaves in ascending id, each added to all its ancestors bottom-up:
	// this is sklearn's summation order, which fixes the float64 result.
	for leaf := range count {
		if !c.leafInSubtree[leaf] {
			continue
		}
		c.rBranch[leaf] = c.rNode[leaf]
		for a := c.parent[leaf]; a != Undefined; a = c.parent[a] {
			c.rBranch[a] += c.rNode[leaf]
			c.nLeaves[a]++
		}
	}
	return c
}

// weakestLink returns the smallest effective alpha of the candidates and
// the first node that has it.
func (c *ccp) weakestLink() (effectiveAlpha float64, pruned int) {
	effectiveAlpha = math.MaxFloat64
	for i, ok := range c.candidate {
		if !ok {
			continue
		}
		a := (c.rNode[i] - c.rBranch[i]) / float64(c.nLeaves[i]-1)
		if a < effectiveAlpha {
			effectiveAlpha, pruned = a, i
		}
	}
	return effectiveAlpha, pruned
}

// collapse turns pruned into a leaf: the branch below it leaves the
// subtree, and its ancestors lose its leaves and impurity difference.
func (c *ccp) collapse(t *Tree, pruned int) {
	c.pending = append(c.pending[:0], pruned)
	for len(c.pending) > 0 {
		i := c.pending[len(c.pending)-1]
		c.pending = c.pending[:len(c.pending)-1]
		c.candidate[i], c.leafInSubtree[i] = false, false
		if !t.IsLeaf(i) {
			c.pending = append(c.pending, t.ChildrenLeft[i], t.ChildrenRight[i])
		}
	}
	c.leafInSubtree[pruned] = true
	removed := c.nLeaves[pruned] - 1
	c.nLeaves[pruned] = 0
	rDiff := c.rNode[pruned] - c.rBranch[pruned]
	c.rBranch[pruned] = c.rNode[pruned]
	for a := c.parent[pruned]; a != Undefined; a = c.parent[a] {
		c.nLeaves[a] -= removed
		c.rBranch[a] += rDiff
	}
}

// rebuild is sklearn's _build_pruned_tree: it copies the nodes reachable
// from the root without passing below a node marked in leafInSubtree, in
// pre-order (left subtree first), turning marked nodes into leaves.
func (t *Tree) rebuild(leafInSubtree []bool) *Tree {
	out := &Tree{NumClasses: t.NumClasses}
	type rec struct {
		node, depth, parent int
		isLeft              bool
	}
	stack := []rec{{node: 0, depth: 0, parent: Undefined}}
	maxDepthSeen := -1
	for len(stack) > 0 {
		r := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		isLeaf := leafInSubtree[r.node]
		id := out.addNode(r.parent, r.isLeft, isLeaf, t.Feature[r.node], t.Threshold[r.node],
			t.Impurity[r.node], t.NodeSamples[r.node], t.NodeValue(r.node))
		if !isLeaf {
			stack = append(stack,
				rec{node: t.ChildrenRight[r.node], depth: r.depth + 1, parent: id, isLeft: false},
				rec{node: t.ChildrenLeft[r.node], depth: r.depth + 1, parent: id, isLeft: true})
		}
		maxDepthSeen = max(maxDepthSeen, r.depth)
	}
	out.MaxDepth = maxDepthSeen
	return out
}
