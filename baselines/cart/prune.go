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
	count := t.NodeCount()
	total := float64(t.NodeSamples[0])
	rNode := make([]float64, count)
	rBranch := make([]float64, count)
	nLeaves := make([]int, count)
	parent := make([]int, count)
	leafInSubtree := make([]bool, count)
	candidate := make([]bool, count)
	for i := range rNode {
		rNode[i] = float64(float64(t.NodeSamples[i])*t.Impurity[i]) / total
		leafInSubtree[i] = t.IsLeaf(i)
		candidate[i] = !leafInSubtree[i]
		parent[i] = Undefined
	}
	// Parents: every internal node's children point back to it.
	for i := range parent {
		if !t.IsLeaf(i) {
			parent[t.ChildrenLeft[i]] = i
			parent[t.ChildrenRight[i]] = i
		}
	}
	// Leaves in ascending id, each added to all its ancestors bottom-up:
	// this is sklearn's summation order, which fixes the float64 result.
	for leaf := range count {
		if !leafInSubtree[leaf] {
			continue
		}
		rBranch[leaf] = rNode[leaf]
		for a := parent[leaf]; a != Undefined; a = parent[a] {
			rBranch[a] += rNode[leaf]
			nLeaves[a]++
		}
	}
	if record != nil {
		record(0.0, rBranch[0])
	}
	var pending []int
	for candidate[0] {
		effectiveAlpha := math.MaxFloat64
		pruned := 0
		for i := range count {
			if !candidate[i] {
				continue
			}
			a := (rNode[i] - rBranch[i]) / float64(nLeaves[i]-1)
			if a < effectiveAlpha {
				effectiveAlpha, pruned = a, i
			}
		}
		if stop(effectiveAlpha) {
			break
		}
		// The branch below `pruned` leaves the subtree.
		pending = append(pending[:0], pruned)
		for len(pending) > 0 {
			i := pending[len(pending)-1]
			pending = pending[:len(pending)-1]
			candidate[i], leafInSubtree[i] = false, false
			if !t.IsLeaf(i) {
				pending = append(pending, t.ChildrenLeft[i], t.ChildrenRight[i])
			}
		}
		leafInSubtree[pruned] = true
		removed := nLeaves[pruned] - 1
		nLeaves[pruned] = 0
		rDiff := rNode[pruned] - rBranch[pruned]
		rBranch[pruned] = rNode[pruned]
		for a := parent[pruned]; a != Undefined; a = parent[a] {
			nLeaves[a] -= removed
			rBranch[a] += rDiff
		}
		if record != nil {
			record(effectiveAlpha, rBranch[0])
		}
	}
	return leafInSubtree
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
