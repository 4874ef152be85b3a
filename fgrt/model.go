package fgrt

import (
	"fmt"
	"math"
	"sort"

	"github.com/fgrtbench/fgrtbench/fuzzy"
	"github.com/fgrtbench/fgrtbench/learn"
)

// Node is one rule of a fitted tree. Nodes are stored in creation order;
// Nodes[0] is the root. A node's rule is the conjunction of the conditions
// on its path from the root.
type Node struct {
	// Feature and Term give the node's own condition "Feature IS Term";
	// both are -1 at the root.
	Feature int `json:"feature"`
	Term    int `json:"term"`
	// Parent is the index of the parent node (-1 at the root).
	Parent   int   `json:"parent"`
	Children []int `json:"children,omitempty"`
	Depth    int   `json:"depth"`
	// Class is the node's stored class: the membership-weighted majority of
	// its training rows (for the root, the unweighted majority).
	Class int `json:"class"`
	// Coverage is the node's membership mass divided by the training rows.
	Coverage float64 `json:"coverage"`
	// Gain is Gini(parent) - Gini(node) when the node was created (NaN at
	// the root; written as null in JSON).
	Gain float64 `json:"-"`
	// ClassWeights is the membership mass of each class in the node.
	ClassWeights []float64 `json:"class_weights"`
}

// IsLeaf reports whether the node has no children.
func (n Node) IsLeaf() bool { return len(n.Children) == 0 }

// Confidence is the share of the node's stored class in its membership mass.
func (n Node) Confidence() float64 {
	t := 0.0
	for _, w := range n.ClassWeights {
		t += w
	}
	if t == 0 || n.Class < 0 || n.Class >= len(n.ClassWeights) {
		return 0
	}
	return n.ClassWeights[n.Class] / t
}

// Model is a fitted FGRT tree with the partitions it was grown on.
type Model struct {
	Partitions []fuzzy.Partition
	Nodes      []Node
	NumClasses int
	// RootPrediction is the class the root predicts at inference: its
	// majority class, or -1 when growth ended by a break and quirk Q2 is
	// emulated.
	RootPrediction int
	// EndedByBreak reports that growth stopped on patience or for lack of a
	// candidate rather than on max_rules or coverage.
	EndedByBreak bool
	// Clamp moves out-of-range test values to the partition's fitted range
	// before evaluating memberships.
	Clamp bool

	leafOrder, internalOrder []int
}

var _ learn.Model = (*Model)(nil)

// fitTree grows a tree on the given partitions. X must be complete (no NaN);
// y holds class indices 0..nClasses-1. slow disables the candidate cache,
// re-evaluating every node each iteration as the reference does; the tests
// check the cache against it.
func fitTree(X [][]float64, y []int, nClasses int, parts []fuzzy.Partition, opt GrowConfig, slow bool) (*Model, error) {
	g, err := newGrower(X, y, nClasses, parts, len(parts), nil, opt, nil)
	if err != nil {
		return nil, err
	}
	g.slow = slow
	return g.models(y, []GrowConfig{opt})[0], nil
}

// trajectoryKey renders the growth options that decide the growth itself;
// configurations that agree on them share one growth (grow).
func (o GrowConfig) trajectoryKey() string {
	return fmt.Sprintf("%v|%v|%v", o.CoverageThreshold, o.FixQ1, o.EarlyStopThreshold)
}

// models grows one tree per option set on the grower's memberships,
// sharing the growth among option sets with the same trajectory key.
func (g *grower) models(y []int, opts []GrowConfig) []*Model {
	out := make([]*Model, len(opts))
	var order []string
	groups := map[string][]int{}
	for i, o := range opts {
		k := o.trajectoryKey()
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], i)
	}
	for _, k := range order {
		idx := groups[k]
		rules := make([]*stopRule, len(idx))
		for j, i := range idx {
			rules[j] = &stopRule{maxRules: opts[i].MaxRules, minImp: opts[i].MinImprovement, patience: opts[i].Patience}
		}
		run := *g
		run.opt = opts[idx[0]]
		run.grow(rules)
		for j, i := range idx {
			out[i] = run.model(y, rules[j], opts[i].FixQ2)
		}
	}
	return out
}

// model builds the Model of the tree a stopping rule ended with.
func (g *grower) model(y []int, r *stopRule, fixQ2 bool) *Model {
	m := &Model{Partitions: g.parts, NumClasses: g.nClasses, EndedByBreak: r.brk}
	m.Nodes = make([]Node, len(r.snap.children))
	for i, nc := range r.snap.children {
		nd := g.nodes[i]
		f, t := -1, -1
		if nd.cond >= 0 {
			f, t = g.cands[nd.cond].feature, g.cands[nd.cond].term
		}
		var children []int
		if nc > 0 {
			children = nd.children[:nc:nc]
		}
		m.Nodes[i] = Node{Feature: f, Term: t, Parent: nd.parent, Children: children,
			Depth: nd.depth, Class: nd.pred, Coverage: nd.coverage, Gain: nd.gain, ClassWeights: nd.weights}
	}
	// Root class: unweighted majority of the training labels (first on ties).
	counts := make([]float64, g.nClasses)
	for _, k := range y {
		counts[k]++
	}
	m.Nodes[0].Class = argmaxFirst(counts)
	m.RootPrediction = m.Nodes[0].Class
	if r.brk && !fixQ2 {
		m.RootPrediction = -1
	}
	m.index()
	return m
}

// index precomputes the evaluation orders of predict (docs/fidelity.md#fgrt-prediction): leaves
// by depth then pre-order; internal nodes by depth descending, pre-order
// within a depth.
func (m *Model) index() {
	var pre []int
	var walk func(int)
	walk = func(i int) {
		pre = append(pre, i)
		for _, c := range m.Nodes[i].Children {
			walk(c)
		}
	}
	walk(0)
	sort.SliceStable(pre, func(a, b int) bool { return m.Nodes[pre[a]].Depth < m.Nodes[pre[b]].Depth })
	m.leafOrder, m.internalOrder = nil, nil
	for _, i := range pre {
		if m.Nodes[i].IsLeaf() {
			m.leafOrder = append(m.leafOrder, i)
		} else {
			m.internalOrder = append(m.internalOrder, i)
		}
	}
	sort.SliceStable(m.internalOrder, func(a, b int) bool {
		return m.Nodes[m.internalOrder[a]].Depth > m.Nodes[m.internalOrder[b]].Depth
	})
}

// nodeClass returns the class a node predicts at inference.
func (m *Model) nodeClass(i int) int {
	if i == 0 {
		return m.RootPrediction
	}
	return m.Nodes[i].Class
}

// firing fills act with every node's firing strength on row x (creation
// order puts parents first). A missing feature has membership 1.
//
// A node below a parent that does not fire (act 0) gets 0 without its
// membership being evaluated when bounded[i] says that membership is a
// number in [0, 1] for every input: the product would be 0 up to the
// sign of the zero, which neither Predict's comparisons nor
// PredictProba's sums (which start at +0) can tell apart. Most nodes of a
// deep tree do not fire on a given row, so this skips most evaluations.
func (m *Model) firing(x []float64, act []float64, bounded []bool) {
	act[0] = 1
	for i := 1; i < len(m.Nodes); i++ {
		nd := &m.Nodes[i]
		if act[nd.Parent] == 0 && bounded[i] {
			act[i] = 0
			continue
		}
		p := m.Partitions[nd.Feature]
		v := x[nd.Feature]
		if m.Clamp {
			v = p.Clamp(v)
		}
		act[i] = act[nd.Parent] * p.Membership(nd.Term, v)
	}
}

// boundedNodes reports, per node, whether its term's membership is a
// number in [0, 1] (never NaN or infinite) whatever the input: crisp
// terms and partitions' missing values give 0 or 1; a trapezoid with
// finite corners of magnitude at most 1e300 whose ramps (after ex-fuzzy's
// Eps widening) have positive width divides a finite difference by a
// positive finite width and clips the result, and a trapezoid with A == D
// is an indicator. Anything else (degenerate ramps of huge values, where
// Eps is lost to rounding) is evaluated as always.
func (m *Model) boundedNodes() []bool {
	out := make([]bool, len(m.Nodes))
	if !skipUnfired {
		return out
	}
	for i := 1; i < len(m.Nodes); i++ {
		nd := &m.Nodes[i]
		if nd.Feature < 0 || nd.Feature >= len(m.Partitions) {
			continue
		}
		terms := m.Partitions[nd.Feature].Terms
		if nd.Term < 0 || nd.Term >= len(terms) {
			continue
		}
		out[i] = boundedTerm(terms[nd.Term])
	}
	return out
}

// skipUnfired enables the skip (a variable so that tests can compare
// predictions with and without it).
var skipUnfired = true

func boundedTerm(t fuzzy.Term) bool {
	if t.Crisp {
		return true
	}
	a, b, c, d := t.Shape.A, t.Shape.B, t.Shape.C, t.Shape.D
	for _, v := range []float64{a, b, c, d} {
		if !(math.Abs(v) <= 1e300) {
			return false
		}
	}
	if a == d {
		return true
	}
	if b == a {
		b += fuzzy.Eps
	}
	if c == d {
		d += fuzzy.Eps
	}
	return a < b && c < d
}

// fallbackMembership is the internal node's eligible membership: its own
// firing strength when every direct child fires at most 1e-6, else 0.
func (m *Model) fallbackMembership(i int, act []float64) float64 {
	for _, c := range m.Nodes[i].Children {
		if act[c] > 1e-6 {
			return 0
		}
	}
	return act[i]
}

// Predict returns the class of the most strongly firing leaf for each row,
// or of an internal node whose children all (nearly) fail to fire
// (docs/fidelity.md#fgrt-prediction). A row whose width differs from the partitions' gets -1
// (the harness counts it as an error) instead of a panic.
func (m *Model) Predict(X [][]float64) []int {
	out := make([]int, len(X))
	act := make([]float64, len(m.Nodes))
	bounded := m.boundedNodes()
	for r, x := range X {
		if len(x) != len(m.Partitions) {
			out[r] = -1
			continue
		}
		m.firing(x, act, bounded)
		out[r] = m.decide(act)
	}
	return out
}

// decide is the class Predict gives a row with firing strengths act.
func (m *Model) decide(act []float64) int {
	best, cls := -1.0, -1
	for _, i := range m.leafOrder {
		if act[i] > best {
			best, cls = act[i], m.nodeClass(i)
		}
	}
	for _, i := range m.internalOrder {
		if v := m.fallbackMembership(i, act); v > best {
			best, cls = v, m.nodeClass(i)
		}
	}
	if best < 0 {
		cls = m.RootPrediction
	}
	return cls
}

// PredictProba returns per-row class distributions
// (docs/fidelity.md#fgrt-prediction): every
// leaf adds its firing strength to its class, every internal node its
// fallback membership; rows are normalised, and rows with no mass get the
// uniform distribution. A root predicting -1 (quirk Q2) adds nothing; a
// row of the wrong width gets the uniform distribution.
func (m *Model) PredictProba(X [][]float64) [][]float64 {
	out := make([][]float64, len(X))
	act := make([]float64, len(m.Nodes))
	bounded := m.boundedNodes()
	flat := make([]float64, len(X)*m.NumClasses)
	for r, x := range X {
		p := flat[r*m.NumClasses : (r+1)*m.NumClasses]
		if len(x) != len(m.Partitions) {
			for k := range p {
				p[k] = 1 / float64(len(p))
			}
			out[r] = p
			continue
		}
		m.firing(x, act, bounded)
		for _, i := range m.leafOrder {
			if c := m.nodeClass(i); c >= 0 {
				p[c] += act[i]
			}
		}
		for _, i := range m.internalOrder {
			if c := m.nodeClass(i); c >= 0 {
				p[c] += m.fallbackMembership(i, act)
			}
		}
		t := 0.0
		for _, v := range p {
			t += v
		}
		for k := range p {
			if t > 0 {
				p[k] /= t
			} else {
				p[k] = 1 / float64(len(p))
			}
		}
		out[r] = p
	}
	return out
}

// Leaves returns the number of leaves (the reference's rule count).
func (m *Model) Leaves() int { return len(m.leafOrder) }

// InternalNodes returns the number of nodes with children, root included.
func (m *Model) InternalNodes() int { return len(m.internalOrder) }

// Depth returns the largest node depth.
func (m *Model) Depth() int {
	d := 0
	for _, n := range m.Nodes {
		if n.Depth > d {
			d = n.Depth
		}
	}
	return d
}

// Complexity counts rules as a reader does (one per leaf, antecedents =
// the leaf's depth) and as the authors' driver does (leaves, internal nodes).
func (m *Model) Complexity() learn.Complexity {
	ants := 0
	for _, i := range m.leafOrder {
		ants += m.Nodes[i].Depth
	}
	return learn.Complexity{Rules: m.Leaves(), Antecedents: ants, Leaves: m.Leaves(), InternalNodes: m.InternalNodes()}
}

// gainOrNaN keeps JSON free of NaN.
func gainOrNil(g float64) *float64 {
	if math.IsNaN(g) || math.IsInf(g, 0) {
		return nil
	}
	return &g
}
