package c45

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/fgrtbench/fgrtbench/learn"
)

// Kind is the learn.Description kind of C4.5 (J48) models.
const Kind = "c45.tree/1"

func init() { learn.RegisterModel(Kind, ModelFromJSON) }

// describedDist is Weka's j48.Distribution of a node: class weights per bag
// (branch; a leaf has one bag) with the margins as J48 accumulated them.
type describedDist struct {
	PerClassPerBag [][]learn.JSONFloat `json:"per_class_per_bag"`
	PerBag         []learn.JSONFloat   `json:"per_bag"`
	PerClass       []learn.JSONFloat   `json:"per_class"`
	Total          learn.JSONFloat     `json:"total"`
}

// describedNode is one node of the JSON of a J48 tree, children nested. An
// internal node tests attribute: a nominal test sends code k to branch k;
// a numeric one sends x <= threshold to branch 0 and the rest to branch
// 1. A leaf's distribution gives the class probabilities; an empty leaf
// (no training weight) uses its parent's bag; a missing or unknown value
// mixes the branches by their training shares (ClassifierTree.getProbs).
type describedNode struct {
	Leaf         bool             `json:"leaf"`
	Empty        bool             `json:"empty,omitempty"`
	Attribute    int              `json:"attribute"`
	Nominal      bool             `json:"nominal,omitempty"`
	Threshold    learn.JSONFloat  `json:"threshold,omitempty"`
	Branches     int              `json:"branches,omitempty"`
	Distribution *describedDist   `json:"distribution"`
	Children     []*describedNode `json:"children,omitempty"`
}

type describedModel struct {
	NumClasses int            `json:"n_classes"`
	Root       *describedNode `json:"root"`
}

func describeDist(d *distribution) *describedDist {
	if d == nil {
		return nil
	}
	out := &describedDist{PerBag: learn.Floats(d.perBag), PerClass: learn.Floats(d.perClass), Total: learn.JSONFloat(d.total)}
	for b := range d.perBag {
		out.PerClassPerBag = append(out.PerClassPerBag, learn.Floats(d.perClassPerBag[b*d.nClasses:(b+1)*d.nClasses]))
	}
	return out
}

func describeNode(nd *node) *describedNode {
	out := &describedNode{Leaf: nd.leaf, Empty: nd.empty, Attribute: nd.attr, Nominal: nd.nominal,
		Threshold: learn.JSONFloat(nd.threshold), Branches: nd.branches, Distribution: describeDist(nd.dist)}
	if !nd.leaf {
		for _, ch := range nd.children {
			out.Children = append(out.Children, describeNode(ch))
		}
	}
	return out
}

// Describe returns the tree as data (learn.Describer).
func (m *Model) Describe(s learn.Schema) (learn.Description, error) {
	return learn.NewDescription(Kind, m, s, describedModel{NumClasses: m.nClasses, Root: describeNode(m.root)})
}

// ModelFromJSON rebuilds a tree from the Model field of its Description,
// validating it first: malformed JSON is an error, never a panic at
// prediction.
func ModelFromJSON(raw json.RawMessage) (*Model, error) {
	var dm describedModel
	if err := json.Unmarshal(raw, &dm); err != nil {
		return nil, err
	}
	if dm.NumClasses < 1 || dm.Root == nil {
		return nil, errors.New("a tree needs a root and a class")
	}
	root, err := rebuildNode(dm.Root, dm.NumClasses, "root")
	if err != nil {
		return nil, err
	}
	return &Model{root: root, nClasses: dm.NumClasses}, nil
}

// rebuildDist checks a distribution of nc classes and the given number of
// bags (any number when bags < 0).
func rebuildDist(dd *describedDist, nc, bags int, where string) (*distribution, error) {
	if dd == nil {
		return nil, fmt.Errorf("%s: no distribution", where)
	}
	if bags < 0 {
		bags = len(dd.PerBag)
	}
	if len(dd.PerBag) != bags || len(dd.PerClassPerBag) != bags || len(dd.PerClass) != nc {
		return nil, fmt.Errorf("%s: distribution of %d bags × %d classes, want %d × %d", where, len(dd.PerBag), len(dd.PerClass), bags, nc)
	}
	d := &distribution{nClasses: nc, perBag: learn.Float64s(dd.PerBag), perClass: learn.Float64s(dd.PerClass), total: float64(dd.Total)}
	for b, row := range dd.PerClassPerBag {
		if len(row) != nc {
			return nil, fmt.Errorf("%s: bag %d has %d classes, want %d", where, b, len(row), nc)
		}
		d.perClassPerBag = append(d.perClassPerBag, learn.Float64s(row)...)
	}
	return d, nil
}

func rebuildNode(dn *describedNode, nc int, where string) (*node, error) {
	nd := &node{leaf: dn.Leaf, empty: dn.Empty, attr: dn.Attribute, nominal: dn.Nominal,
		threshold: float64(dn.Threshold), branches: dn.Branches}
	// A leaf reads only its class margins; one that pruning made of an
	// internal node keeps that node's bags.
	bags := -1
	if !dn.Leaf {
		bags = dn.Branches
		if bags < 1 || len(dn.Children) != bags || dn.Attribute < 0 || (!dn.Nominal && bags != 2) {
			return nil, fmt.Errorf("%s: internal node on attribute %d with %d branches and %d children", where, dn.Attribute, bags, len(dn.Children))
		}
	}
	var err error
	if nd.dist, err = rebuildDist(dn.Distribution, nc, bags, where); err != nil {
		return nil, err
	}
	for k, ch := range dn.Children {
		if ch == nil {
			return nil, fmt.Errorf("%s: branch %d has no node", where, k)
		}
		c, err := rebuildNode(ch, nc, fmt.Sprintf("%s/%d", where, k))
		if err != nil {
			return nil, err
		}
		nd.children = append(nd.children, c)
	}
	return nd, nil
}

// Scores returns J48's class distribution of each row (learn.Scorer):
// Predict takes the first class whose probability exceeds every earlier
// one by more than 1e-6 (learn.ScoreTieMargin).
func (m *Model) Scores(X [][]float64) [][]float64 {
	out := make([][]float64, len(X))
	for i, row := range X {
		out[i] = m.Probabilities(row)
	}
	return out
}

var (
	_ learn.Describer = (*Model)(nil)
	_ learn.Scorer    = (*Model)(nil)
)
