package fuzzycart

import (
	"encoding/json"
	"fmt"

	"github.com/fgrtbench/fgrtbench/learn"
)

// Kind is the learn.Description kind of FuzzyCART models.
const Kind = "fuzzycart.tree/1"

func init() { learn.RegisterModel(Kind, ModelFromJSON) }

// describedNode is one node of the JSON of a FuzzyCART tree: its name
// (the reference's), the fuzzy tree node's fields, its quality and
// whether pruning removed it.
type describedNode struct {
	Name string `json:"name"`
	learn.FuzzyTreeNode
	Quality learn.JSONFloat `json:"quality"`
	Removed bool            `json:"removed,omitempty"`
}

// describedModel is the JSON of a FuzzyCART model: the partitions (in the
// units the learner saw; trapezoids evaluated as Ex-Fuzzy 2.1.5 does,
// docs/fidelity.md#fuzzycart-memberships), the nodes in creation order
// (node 0 is the root; pruned nodes are kept, marked removed), and the
// list prediction walks (the reference's _cached_all_nodes: node index and
// the class it copied, -1 for a stale root).
type describedModel struct {
	Reference      string                     `json:"reference"`
	NumClasses     int                        `json:"num_classes"`
	Classes        []int                      `json:"classes"`
	Stale          bool                       `json:"stale"`
	Partitions     []learn.DescribedPartition `json:"partitions"`
	Nodes          []describedNode            `json:"nodes"`
	PredictionList [][2]int                   `json:"prediction_list"`
}

// Describe returns the model as data (learn.Describer).
func (m *Model) Describe(s learn.Schema) (learn.Description, error) {
	dm := describedModel{Reference: "ex-fuzzy@" + ReferenceCommit, NumClasses: m.NumClasses, Classes: m.Classes, Stale: m.Stale}
	used := map[[2]int]bool{}
	for _, n := range m.Nodes[1:] {
		if !n.Removed {
			used[[2]int{n.Feature, n.Term}] = true
		}
	}
	parts, terms := learn.DescribePartitions(m.Partitions, s, used, func(f, t int) string { return m.termName(s, f, t) })
	dm.Partitions = parts
	for _, n := range m.Nodes {
		tn := learn.FuzzyTreeNode{Feature: n.Feature, Term: n.Term, Parent: n.Parent, Children: learn.DescribedChildren(n.Children),
			Depth: n.Depth, Class: n.Class, Coverage: learn.JSONFloat(n.Coverage)}
		dm.Nodes = append(dm.Nodes, describedNode{Name: n.Name, FuzzyTreeNode: tn, Quality: learn.JSONFloat(n.Quality), Removed: n.Removed})
	}
	for _, e := range m.pred.entries {
		dm.PredictionList = append(dm.PredictionList, [2]int{e.node, e.pred})
	}
	return learn.NewDescription(Kind, m, s, dm, terms...)
}

// ModelFromJSON rebuilds a model from the Model field of its Description,
// validating the structure first, so malformed JSON is an error, never a
// panic at prediction.
func ModelFromJSON(raw json.RawMessage) (*Model, error) {
	var dm describedModel
	if err := json.Unmarshal(raw, &dm); err != nil {
		return nil, err
	}
	if dm.NumClasses < 1 {
		return nil, fmt.Errorf("num_classes %d, want at least 1", dm.NumClasses)
	}
	if len(dm.Classes) == 0 {
		return nil, fmt.Errorf("no training classes")
	}
	for i, k := range dm.Classes {
		if k < 0 || k >= dm.NumClasses || (i > 0 && k <= dm.Classes[i-1]) {
			return nil, fmt.Errorf("classes %v: want ascending indices below %d", dm.Classes, dm.NumClasses)
		}
	}
	m := &Model{NumClasses: dm.NumClasses, Classes: dm.Classes, Stale: dm.Stale}
	parts, err := learn.RebuildFuzzyTree(dm.Partitions, dm.Nodes, dm.NumClasses)
	if err != nil {
		return nil, err
	}
	m.Partitions = parts
	for _, dn := range dm.Nodes {
		m.Nodes = append(m.Nodes, Node{Name: dn.Name, Feature: dn.Feature, Term: dn.Term, Parent: dn.Parent,
			Children: dn.ModelChildren(), Depth: dn.Depth, Class: dn.Class, Coverage: float64(dn.Coverage),
			Quality: float64(dn.Quality), Removed: dn.Removed})
	}
	if len(dm.PredictionList) == 0 {
		return nil, fmt.Errorf("empty prediction list")
	}
	var es []cacheEntry
	seen := map[int]bool{}
	for _, e := range dm.PredictionList {
		if e[0] < 0 || e[0] >= len(m.Nodes) || seen[e[0]] {
			return nil, fmt.Errorf("prediction list: node %d out of range or repeated", e[0])
		}
		if e[1] < -1 || e[1] >= dm.NumClasses {
			return nil, fmt.Errorf("prediction list: class %d out of range", e[1])
		}
		if e[1] >= 0 && !containsInt(dm.Classes, e[1]) {
			return nil, fmt.Errorf("prediction list: class %d is not a training class", e[1])
		}
		seen[e[0]] = true
		es = append(es, cacheEntry{node: e[0], pred: e[1]})
	}
	m.pred = newPredictor(es, m.Nodes)
	return m, nil
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
