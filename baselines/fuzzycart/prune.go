package fuzzycart

import (
	"math"

	"github.com/fgrtbench/fgrtbench/internal/npsum"
)

// prune is the reference's cost_complexity_pruning(X, y, alpha), which its
// fit never calls (apply_ccp_alpha): while the weakest link (the internal
// node, pre-order, with the strictly smallest complexity measure) has a
// measure below alpha, its children are removed and it becomes a leaf
// with its weighted majority class. Measures may be negative (fuzzy
// children do not partition their parent's mass), so alpha = 0 prunes too.
func (g *grower) prune(alpha float64) {
	for {
		weakest, minAlpha := -1, math.Inf(1)
		var walk func(id int)
		walk = func(id int) {
			nd := g.nodes[id]
			if len(nd.children) == 0 {
				return
			}
			if a := g.complexity(id); a < minAlpha {
				weakest, minAlpha = id, a
			}
			for _, ch := range nd.children {
				walk(ch)
			}
		}
		walk(0)
		if weakest < 0 || minAlpha >= alpha {
			return
		}
		g.pruneAt(weakest)
		if len(g.nodes[0].children) == 0 {
			return
		}
	}
}

// impurity is _calculate_node_impurity: the fuzzy Gini of the node's
// membership without a coverage threshold (0 for no mass).
func (g *grower) impurity(id int) float64 {
	m := g.nodes[id].m
	if npsum.Sum(m) == 0 {
		return 0
	}
	return g.purity(m, g.all, 0)
}

// subtreeImpurity is _calculate_subtree_impurity: the mass-weighted Gini
// of the subtree's leaves, summed in pre-order.
func (g *grower) subtreeImpurity(id int) float64 {
	nd := g.nodes[id]
	if len(nd.children) == 0 {
		return npsum.Sum(nd.m) * g.impurity(id)
	}
	total := 0.0
	for _, ch := range nd.children {
		total += g.subtreeImpurity(ch)
	}
	return total
}

func (g *grower) leaves(id int) int {
	nd := g.nodes[id]
	if len(nd.children) == 0 {
		return 1
	}
	n := 0
	for _, ch := range nd.children {
		n += g.leaves(ch)
	}
	return n
}

// complexity is _calculate_complexity_measure: (impurity as a leaf -
// impurity of the subtree) / (leaves - 1).
func (g *grower) complexity(id int) float64 {
	nd := g.nodes[id]
	if len(nd.children) == 0 {
		return math.Inf(1)
	}
	asLeaf := float64(g.impurity(id) * npsum.Sum(nd.m))
	sub := g.subtreeImpurity(id)
	removed := g.leaves(id) - 1
	if removed <= 0 {
		return math.Inf(1)
	}
	return (asLeaf - sub) / float64(removed)
}

// pruneAt is _prune_subtree: the node's descendants leave the tree and it
// takes its weighted majority class. (The reference subtracts the leaves
// of the node after removing its children, i.e. 0, from tree_rules; the
// count is not used again.)
func (g *grower) pruneAt(id int) {
	var drop func(id int)
	drop = func(id int) {
		nd := g.nodes[id]
		nd.removed = true
		for _, ch := range nd.children {
			drop(ch)
		}
	}
	nd := g.nodes[id]
	for _, ch := range nd.children {
		drop(ch)
	}
	nd.children = nil
	nd.pred = g.majority(nd.m, g.all)
}
