package learn

import (
	"fmt"

	"github.com/fgrtbench/fgrtbench/fuzzy"
)

// FuzzyTreeNode is what the fuzzy trees (FGRT, FuzzyCART) describe of
// every node alike, written once here and embedded in each learner's
// node JSON: the term its rule adds ("feature IS term"; the root adds
// none), its place among the nodes in creation order (node 0 is the root,
// whose parent is -1), the class it predicts (-1: none) and its coverage.
type FuzzyTreeNode struct {
	Feature  int       `json:"feature"`
	Term     int       `json:"term"`
	Parent   int       `json:"parent"`
	Children []int     `json:"children"`
	Depth    int       `json:"depth"`
	Class    int       `json:"class"`
	Coverage JSONFloat `json:"coverage"`
}

// fuzzyTreeNode gives a learner's node JSON, which embeds a
// FuzzyTreeNode, to RebuildFuzzyTree.
func (n FuzzyTreeNode) fuzzyTreeNode() FuzzyTreeNode { return n }

// ModelChildren is the node's children as a model holds them: nil for a
// leaf (the JSON's []).
func (n FuzzyTreeNode) ModelChildren() []int {
	if len(n.Children) == 0 {
		return nil
	}
	return n.Children
}

// DescribedChildren is children as a node's JSON holds them: [] for a
// leaf, never null.
func DescribedChildren(children []int) []int {
	if children == nil {
		return []int{}
	}
	return children
}

// RebuildFuzzyTree rebuilds a fuzzy tree's partitions from their JSON
// (PartitionsFromDescribed) and checks the decoded nodes (a learner's
// node JSON, embedding FuzzyTreeNode) over them for numClasses classes
// (checkFuzzyTree).
func RebuildFuzzyTree[N interface{ fuzzyTreeNode() FuzzyTreeNode }](partitions []DescribedPartition, described []N,
	numClasses int) ([]fuzzy.Partition, error) {
	parts, err := PartitionsFromDescribed(partitions)
	if err != nil {
		return nil, err
	}
	nodes := make([]FuzzyTreeNode, len(described))
	for i, n := range described {
		nodes[i] = n.fuzzyTreeNode()
	}
	if err := checkFuzzyTree(nodes, parts, numClasses); err != nil {
		return nil, err
	}
	return parts, nil
}

// checkFuzzyTree checks nodes over parts for numClasses classes, so that
// prediction can walk them without a panic or an endless loop:
// a root first; each other node below an earlier parent, one level
// deeper, on a term of parts; every class in range; every child a later
// node whose parent it is. It returns the first problem found.
func checkFuzzyTree(nodes []FuzzyTreeNode, parts []fuzzy.Partition, numClasses int) error {
	if len(nodes) == 0 || nodes[0].Parent != -1 {
		return fmt.Errorf("the tree has no root")
	}
	for i, n := range nodes {
		if err := checkPlace(nodes, i, parts); err != nil {
			return err
		}
		if n.Class < -1 || n.Class >= numClasses {
			return fmt.Errorf("node %d: class %d out of range", i, n.Class)
		}
		for _, c := range n.Children {
			if c <= i || c >= len(nodes) || nodes[c].Parent != i {
				return fmt.Errorf("node %d: child %d is not its child", i, c)
			}
		}
	}
	return nil
}

// checkPlace checks node i's parent, term and depth.
func checkPlace(nodes []FuzzyTreeNode, i int, parts []fuzzy.Partition) error {
	n := nodes[i]
	if i == 0 {
		if n.Depth != 0 {
			return fmt.Errorf("root depth %d", n.Depth)
		}
		return nil
	}
	if n.Parent < 0 || n.Parent >= i {
		return fmt.Errorf("node %d: parent %d does not precede it", i, n.Parent)
	}
	if n.Feature < 0 || n.Feature >= len(parts) || n.Term < 0 || n.Term >= len(parts[n.Feature].Terms) {
		return fmt.Errorf("node %d: feature %d term %d out of range", i, n.Feature, n.Term)
	}
	if n.Depth != nodes[n.Parent].Depth+1 {
		return fmt.Errorf("node %d: depth %d under a parent of depth %d", i, n.Depth, nodes[n.Parent].Depth)
	}
	return nil
}
