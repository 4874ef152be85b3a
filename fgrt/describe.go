package fgrt

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/fgrtbench/fgrtbench/learn"
)

// Kind is the learn.Description kind of FGRT and FGRT* models.
const Kind = "fgrt.tree/1"

func init() { learn.RegisterModel(Kind, ModelFromJSON) }

// describedNode is one node of the JSON of an FGRT tree: the fuzzy tree
// node's fields, then its gain and the class weights of the rows it
// covers.
type describedNode struct {
	learn.FuzzyTreeNode
	Gain         learn.JSONFloat   `json:"gain"`
	ClassWeights []learn.JSONFloat `json:"class_weights"`
}

// describedModel is the JSON of an FGRT model: the partitions the tree was
// grown on (in the units the learner saw) and its nodes in creation order
// (node 0 is the root; a node's rule is the conjunction of "feature IS
// term" on its path). Prediction is winner-takes-all over leaf firing
// strengths with internal nodes as fallbacks (docs/fidelity.md#fgrt-prediction); the root
// predicts root_prediction (-1 under quirk Q2); clamp moves inputs into
// each partition's [min, max] first.
type describedModel struct {
	NumClasses     int                        `json:"num_classes"`
	RootPrediction int                        `json:"root_prediction"`
	EndedByBreak   bool                       `json:"ended_by_break"`
	Clamp          bool                       `json:"clamp"`
	Partitions     []learn.DescribedPartition `json:"partitions"`
	Nodes          []describedNode            `json:"nodes"`
}

// Describe returns the model as data (learn.Describer): rules, the
// partition terms its nodes use, and the tree with every partition
// (describedModel).
func (m *Model) Describe(s learn.Schema) (learn.Description, error) {
	dm := describedModel{NumClasses: m.NumClasses, RootPrediction: m.RootPrediction,
		EndedByBreak: m.EndedByBreak, Clamp: m.Clamp}
	used := map[[2]int]bool{}
	for _, n := range m.Nodes[1:] {
		used[[2]int{n.Feature, n.Term}] = true
	}
	parts, terms := learn.DescribePartitions(m.Partitions, s, used, func(f, t int) string { return m.termName(s, f, t) })
	dm.Partitions = parts
	for _, n := range m.Nodes {
		tn := learn.FuzzyTreeNode{Feature: n.Feature, Term: n.Term, Parent: n.Parent, Children: learn.DescribedChildren(n.Children),
			Depth: n.Depth, Class: n.Class, Coverage: learn.JSONFloat(n.Coverage)}
		dm.Nodes = append(dm.Nodes, describedNode{FuzzyTreeNode: tn, Gain: learn.JSONFloat(n.Gain), ClassWeights: learn.Floats(n.ClassWeights)})
	}
	return learn.NewDescription(Kind, m, s, dm, terms...)
}

// ModelFromJSON rebuilds a model from the Model field of its Description.
// The structure is validated first, so malformed JSON is an error, never a
// panic at prediction.
func ModelFromJSON(raw json.RawMessage) (*Model, error) {
	var dm describedModel
	if err := json.Unmarshal(raw, &dm); err != nil {
		return nil, err
	}
	if dm.NumClasses < 1 {
		return nil, fmt.Errorf("num_classes %d, want at least 1", dm.NumClasses)
	}
	if dm.RootPrediction < -1 || dm.RootPrediction >= dm.NumClasses {
		return nil, fmt.Errorf("root_prediction %d out of range", dm.RootPrediction)
	}
	m := &Model{NumClasses: dm.NumClasses, RootPrediction: dm.RootPrediction, EndedByBreak: dm.EndedByBreak, Clamp: dm.Clamp}
	parts, err := learn.RebuildFuzzyTree(dm.Partitions, dm.Nodes, dm.NumClasses)
	if err != nil {
		return nil, err
	}
	m.Partitions = parts
	for _, dn := range dm.Nodes {
		m.Nodes = append(m.Nodes, Node{Feature: dn.Feature, Term: dn.Term, Parent: dn.Parent, Children: dn.ModelChildren(),
			Depth: dn.Depth, Class: dn.Class, Coverage: float64(dn.Coverage), Gain: float64(dn.Gain),
			ClassWeights: learn.Float64s(dn.ClassWeights)})
	}
	for i, n := range m.Nodes {
		if i > 0 && !contains(m.Nodes[n.Parent].Children, i) {
			return nil, fmt.Errorf("node %d is missing from its parent's children", i)
		}
	}
	m.index()
	return m, nil
}

func contains(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// Scores returns, per row and class, the largest eligible firing strength
// of a node predicting that class: a leaf's firing strength or an internal
// node's fallback membership (learn.Scorer). These are the values Predict
// compares; it takes the strongest node, the first in its evaluation order
// on exact ties, so a class whose score is strictly the largest is the
// prediction. A root predicting -1 (quirk Q2) adds to no class: rows it
// wins are predicted -1. A row of the wrong width scores 0 everywhere.
func (m *Model) Scores(X [][]float64) [][]float64 {
	out := make([][]float64, len(X))
	act := make([]float64, len(m.Nodes))
	bounded := m.boundedNodes()
	flat := make([]float64, len(X)*m.NumClasses)
	for r, x := range X {
		p := flat[r*m.NumClasses : (r+1)*m.NumClasses : (r+1)*m.NumClasses]
		out[r] = p
		if len(x) != len(m.Partitions) {
			continue
		}
		m.firing(x, act, bounded)
		for _, i := range m.leafOrder {
			if c := m.nodeClass(i); c >= 0 && act[i] > p[c] {
				p[c] = act[i]
			}
		}
		for _, i := range m.internalOrder {
			if c := m.nodeClass(i); c >= 0 {
				if v := m.fallbackMembership(i, act); v > p[c] {
					p[c] = v
				}
			}
		}
	}
	return out
}

var (
	_ learn.Describer = (*Model)(nil)
	_ learn.Scorer    = (*Model)(nil)
)

// MarshalJSON writes the model as encoding/json would from its field tags
// (TestDescribedModelMarshalMatchesReflection), without reflection: every
// recorded configuration of every unit is described for the models
// artifact.
func (dm describedModel) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 256+len(dm.Nodes)*(96+24*dm.NumClasses))
	b = append(b, `{"num_classes":`...)
	b = strconv.AppendInt(b, int64(dm.NumClasses), 10)
	b = append(b, `,"root_prediction":`...)
	b = strconv.AppendInt(b, int64(dm.RootPrediction), 10)
	b = append(b, `,"ended_by_break":`...)
	b = strconv.AppendBool(b, dm.EndedByBreak)
	b = append(b, `,"clamp":`...)
	b = strconv.AppendBool(b, dm.Clamp)
	b = append(b, `,"partitions":`...)
	b, err := learn.AppendDescribedPartitions(b, dm.Partitions)
	if err != nil {
		return nil, err
	}
	b = append(b, `,"nodes":`...)
	if dm.Nodes == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, n := range dm.Nodes {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"feature":`...)
			b = strconv.AppendInt(b, int64(n.Feature), 10)
			b = append(b, `,"term":`...)
			b = strconv.AppendInt(b, int64(n.Term), 10)
			b = append(b, `,"parent":`...)
			b = strconv.AppendInt(b, int64(n.Parent), 10)
			b = append(b, `,"children":`...)
			b = learn.AppendJSONInts(b, n.Children)
			b = append(b, `,"depth":`...)
			b = strconv.AppendInt(b, int64(n.Depth), 10)
			b = append(b, `,"class":`...)
			b = strconv.AppendInt(b, int64(n.Class), 10)
			b = append(b, `,"coverage":`...)
			b = n.Coverage.AppendJSON(b)
			b = append(b, `,"gain":`...)
			b = n.Gain.AppendJSON(b)
			b = append(b, `,"class_weights":`...)
			b = learn.AppendJSONFloats(b, n.ClassWeights)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}'), nil
}
