package learn

import (
	"testing"

	"github.com/fgrtbench/fgrtbench/fuzzy"
)

// TestCheckFuzzyTree (checkFuzzyTree): a well-formed tree passes, and each broken link is
// named.
func TestCheckFuzzyTree(t *testing.T) {
	parts := []fuzzy.Partition{{Terms: make([]fuzzy.Term, 2)}, {Terms: make([]fuzzy.Term, 3)}}
	tree := func(edit func(n []FuzzyTreeNode)) []FuzzyTreeNode {
		n := []FuzzyTreeNode{
			{Feature: -1, Term: -1, Parent: -1, Children: []int{1, 2}, Class: -1},
			{Feature: 0, Term: 1, Parent: 0, Depth: 1, Class: 0, Children: []int{3}},
			{Feature: 1, Term: 2, Parent: 0, Depth: 1, Class: 1},
			{Feature: 1, Term: 0, Parent: 1, Depth: 2, Class: 1},
		}
		if edit != nil {
			edit(n)
		}
		return n
	}
	for _, c := range []struct {
		name  string
		nodes []FuzzyTreeNode
		want  string
	}{
		{"well formed", tree(nil), ""},
		{"empty", nil, "the tree has no root"},
		{"root with a parent", tree(func(n []FuzzyTreeNode) { n[0].Parent = 2 }), "the tree has no root"},
		{"root below the top", tree(func(n []FuzzyTreeNode) { n[0].Depth = 1 }), "root depth 1"},
		{"parent after the node", tree(func(n []FuzzyTreeNode) { n[0].Children, n[2].Parent = []int{1}, 2 }), "node 2: parent 2 does not precede it"},
		{"feature out of range", tree(func(n []FuzzyTreeNode) { n[2].Feature = 2 }), "node 2: feature 2 term 2 out of range"},
		{"term out of range", tree(func(n []FuzzyTreeNode) { n[1].Term = 2 }), "node 1: feature 0 term 2 out of range"},
		{"depth", tree(func(n []FuzzyTreeNode) { n[3].Depth = 1 }), "node 3: depth 1 under a parent of depth 1"},
		{"class", tree(func(n []FuzzyTreeNode) { n[2].Class = 2 }), "node 2: class 2 out of range"},
		{"foreign child", tree(func(n []FuzzyTreeNode) { n[1].Children = []int{2} }), "node 1: child 2 is not its child"},
		{"child before its parent", tree(func(n []FuzzyTreeNode) { n[1].Children = []int{0} }), "node 1: child 0 is not its child"},
	} {
		err := checkFuzzyTree(c.nodes, parts, 2)
		if got := ""; err != nil {
			got = err.Error()
			if got != c.want {
				t.Errorf("%s: %q, want %q", c.name, got, c.want)
			}
		} else if c.want != "" {
			t.Errorf("%s: accepted, want %q", c.name, c.want)
		}
	}
}
