package cart

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/fgrtbench/fgrtbench/learn"
)

// Kind is the learn.Description kind of CART (and entropy tree) models.
const Kind = "cart.tree/1"

func init() { learn.RegisterModel(Kind, TreeFromJSON) }

// describedTree is the JSON of a tree: scikit-learn's tree_ arrays, one
// entry per node in pre-order (left subtree first, node 0 the root). A row
// goes left at an internal node when float32(x[feature]) <= threshold;
// leaves have children -1 and feature -2; value holds each node's class
// weights (n_classes per node), and a leaf predicts the first class of
// largest weight, with class fractions as scores.
type describedTree struct {
	NumClasses    int                 `json:"n_classes"`
	ChildrenLeft  []int               `json:"children_left"`
	ChildrenRight []int               `json:"children_right"`
	Feature       []int               `json:"feature"`
	Threshold     []learn.JSONFloat   `json:"threshold"`
	Impurity      []learn.JSONFloat   `json:"impurity"`
	NodeSamples   []int               `json:"n_node_samples"`
	Value         [][]learn.JSONFloat `json:"value"`
	MaxDepth      int                 `json:"max_depth"`
}

// Describe returns the tree as data (learn.Describer).
func (t *Tree) Describe(s learn.Schema) (learn.Description, error) {
	dt := describedTree{NumClasses: t.NumClasses, ChildrenLeft: t.ChildrenLeft, ChildrenRight: t.ChildrenRight,
		Feature: t.Feature, Threshold: learn.Floats(t.Threshold), Impurity: learn.Floats(t.Impurity),
		NodeSamples: t.NodeSamples, MaxDepth: t.MaxDepth}
	for i := range t.Feature {
		dt.Value = append(dt.Value, learn.Floats(t.NodeValue(i)))
	}
	return learn.NewDescription(Kind, t, s, dt)
}

// TreeFromJSON rebuilds a tree from the Model field of its Description,
// validating the structure first so that malformed JSON is an error, never
// a panic or an endless walk at prediction.
func TreeFromJSON(raw json.RawMessage) (*Tree, error) {
	var dt describedTree
	if err := json.Unmarshal(raw, &dt); err != nil {
		return nil, err
	}
	n := len(dt.Feature)
	if n == 0 || dt.NumClasses < 1 {
		return nil, fmt.Errorf("a tree needs a node and a class (%d nodes, %d classes)", n, dt.NumClasses)
	}
	if len(dt.ChildrenLeft) != n || len(dt.ChildrenRight) != n || len(dt.Threshold) != n ||
		len(dt.Impurity) != n || len(dt.NodeSamples) != n || len(dt.Value) != n {
		return nil, fmt.Errorf("node arrays of different lengths")
	}
	t := &Tree{ChildrenLeft: dt.ChildrenLeft, ChildrenRight: dt.ChildrenRight, Feature: dt.Feature,
		Threshold: learn.Float64s(dt.Threshold), Impurity: learn.Float64s(dt.Impurity), NodeSamples: dt.NodeSamples,
		NumClasses: dt.NumClasses, MaxDepth: dt.MaxDepth}
	for i := 0; i < n; i++ {
		l, r := t.ChildrenLeft[i], t.ChildrenRight[i]
		switch {
		case l == Leaf && r == Leaf:
		case l <= i || r <= i || l >= n || r >= n || l == r:
			// pre-order ids: children follow their parent, so every walk ends
			return nil, fmt.Errorf("node %d: children %d and %d", i, l, r)
		case t.Feature[i] < 0:
			return nil, fmt.Errorf("node %d: internal node without a feature", i)
		}
		if len(dt.Value[i]) != dt.NumClasses {
			return nil, fmt.Errorf("node %d: %d values for %d classes", i, len(dt.Value[i]), dt.NumClasses)
		}
		t.Value = append(t.Value, learn.Float64s(dt.Value[i])...)
	}
	return t, nil
}

// Scores returns the class fractions of the leaf each row reaches
// (scikit-learn's predict_proba; learn.Scorer).
func (t *Tree) Scores(X [][]float64) [][]float64 { return t.PredictProba(X) }

var (
	_ learn.Describer = (*Tree)(nil)
	_ learn.Scorer    = (*Tree)(nil)
)

// MarshalJSON writes the tree as encoding/json would from its field tags,
// without reflection: a tree grown on large data has hundreds of
// thousands of nodes, and the models artifact describes every one.
func (dt describedTree) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 64+len(dt.Feature)*(48+24*dt.NumClasses))
	b = append(b, `{"n_classes":`...)
	b = strconv.AppendInt(b, int64(dt.NumClasses), 10)
	b = append(b, `,"children_left":`...)
	b = learn.AppendJSONInts(b, dt.ChildrenLeft)
	b = append(b, `,"children_right":`...)
	b = learn.AppendJSONInts(b, dt.ChildrenRight)
	b = append(b, `,"feature":`...)
	b = learn.AppendJSONInts(b, dt.Feature)
	b = append(b, `,"threshold":`...)
	b = learn.AppendJSONFloats(b, dt.Threshold)
	b = append(b, `,"impurity":`...)
	b = learn.AppendJSONFloats(b, dt.Impurity)
	b = append(b, `,"n_node_samples":`...)
	b = learn.AppendJSONInts(b, dt.NodeSamples)
	b = append(b, `,"value":`...)
	b = learn.AppendJSONArray(b, dt.Value, learn.AppendJSONFloats)
	b = append(b, `,"max_depth":`...)
	b = strconv.AppendInt(b, int64(dt.MaxDepth), 10)
	return append(b, '}'), nil
}
