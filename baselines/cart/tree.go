package cart

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fgrtbench/fgrtbench/learn"
)

// Sentinels of sklearn's tree arrays.
const (
	// Leaf marks a missing child (sklearn's TREE_LEAF).
	Leaf = -1
	// Undefined is the feature of a leaf (sklearn's TREE_UNDEFINED).
	Undefined = -2
	// leafThreshold is the threshold stored for a leaf.
	leafThreshold = -2.0
)

// Tree is a fitted tree in sklearn's array layout: node ids are pre-order
// with the left subtree first, node 0 is the root.
type Tree struct {
	ChildrenLeft  []int
	ChildrenRight []int
	// Feature is the split column of each internal node (Undefined for leaves).
	Feature []int
	// Threshold: rows with float64(float32(x[Feature])) <= Threshold go left
	// (-2 for leaves).
	Threshold []float64
	// Impurity of each node under the training criterion.
	Impurity []float64
	// NodeSamples is the number of training rows reaching each node.
	NodeSamples []int
	// Value holds the class counts of every node (internal nodes too),
	// NumClasses per node: Value[i*NumClasses+k].
	Value      []float64
	NumClasses int
	// MaxDepth is the depth of the deepest node (root = 0).
	MaxDepth int
}

// NodeCount is sklearn's tree_.node_count.
func (t *Tree) NodeCount() int { return len(t.Feature) }

// IsLeaf reports whether node i is a leaf.
func (t *Tree) IsLeaf(i int) bool { return t.ChildrenLeft[i] == Leaf && t.ChildrenRight[i] == Leaf }

// NLeaves is sklearn's get_n_leaves().
func (t *Tree) NLeaves() int {
	n := 0
	for i := range t.ChildrenLeft {
		if t.IsLeaf(i) {
			n++
		}
	}
	return n
}

// Depth is sklearn's get_depth().
func (t *Tree) Depth() int { return t.MaxDepth }

// NodeValue returns the class counts of node i (a view, do not modify).
func (t *Tree) NodeValue(i int) []float64 {
	return t.Value[i*t.NumClasses : (i+1)*t.NumClasses]
}

// NodeClass is the class predicted at node i: the first class with the
// largest count (numpy argmax).
func (t *Tree) NodeClass(i int) int {
	v := t.NodeValue(i)
	best := 0
	for k := 1; k < len(v); k++ {
		if v[k] > v[best] {
			best = k
		}
	}
	return best
}

// addNode appends a node as sklearn's Tree._add_node does and returns its id.
func (t *Tree) addNode(parent int, isLeft, isLeaf bool, feature int, threshold, impurity float64, samples int, value []float64) int {
	id := len(t.Feature)
	if parent >= 0 {
		if isLeft {
			t.ChildrenLeft[parent] = id
		} else {
			t.ChildrenRight[parent] = id
		}
	}
	if isLeaf {
		feature, threshold = Undefined, leafThreshold
	}
	t.ChildrenLeft = append(t.ChildrenLeft, Leaf)
	t.ChildrenRight = append(t.ChildrenRight, Leaf)
	t.Feature = append(t.Feature, feature)
	t.Threshold = append(t.Threshold, threshold)
	t.Impurity = append(t.Impurity, impurity)
	t.NodeSamples = append(t.NodeSamples, samples)
	t.Value = append(t.Value, value...)
	return id
}

// Apply returns the leaf reached by row x (sklearn's apply). The row is
// rounded to float32 first, as sklearn converts X to float32.
func (t *Tree) Apply(x []float64) int {
	node := 0
	for t.ChildrenLeft[node] != Leaf {
		if float64(float32(x[t.Feature[node]])) <= t.Threshold[node] {
			node = t.ChildrenLeft[node]
		} else {
			node = t.ChildrenRight[node]
		}
	}
	return node
}

// Predict returns the class of each row (learn.Model).
func (t *Tree) Predict(X [][]float64) []int {
	out := make([]int, len(X))
	for i, x := range X {
		out[i] = t.NodeClass(t.Apply(x))
	}
	return out
}

// PredictProba returns, per row, the class fractions of the leaf reached.
func (t *Tree) PredictProba(X [][]float64) [][]float64 {
	out := make([][]float64, len(X))
	flat := make([]float64, len(X)*t.NumClasses)
	for i, x := range X {
		v := t.NodeValue(t.Apply(x))
		sum := 0.0
		for _, c := range v {
			sum += c
		}
		p := flat[i*t.NumClasses : (i+1)*t.NumClasses : (i+1)*t.NumClasses]
		for k, c := range v {
			p[k] = c / sum
		}
		out[i] = p
	}
	return out
}

// Complexity counts one rule per leaf with one antecedent per node on the
// path to it; Leaves and InternalNodes are get_n_leaves() and
// node_count - leaves, as the authors' driver records them.
func (t *Tree) Complexity() learn.Complexity {
	depth := t.nodeDepths()
	var c learn.Complexity
	for i := range t.Feature {
		if t.IsLeaf(i) {
			c.Leaves++
			c.Antecedents += depth[i]
		}
	}
	c.Rules = c.Leaves
	c.InternalNodes = t.NodeCount() - c.Leaves
	return c
}

// nodeDepths returns the depth of every node; parents precede children in
// pre-order ids, so one forward pass suffices.
func (t *Tree) nodeDepths() []int {
	depth := make([]int, t.NodeCount())
	for i := range t.Feature {
		if !t.IsLeaf(i) {
			depth[t.ChildrenLeft[i]] = depth[i] + 1
			depth[t.ChildrenRight[i]] = depth[i] + 1
		}
	}
	return depth
}

// Rules renders one rule per leaf, in node order:
//
//	IF petal_width <= 0.8 AND petal_length > 4.95 THEN class virginica
//
// Thresholds are printed with up to 6 significant digits; the root-only tree
// prints "IF TRUE THEN class ...".
func (t *Tree) Rules(s learn.Schema) string {
	return t.rules(s, eachTest, nil)
}

// eachTest prints every test of a path as it is, "name <= 0.8" or "name >
// 4.95", the threshold with up to 6 significant digits.
func eachTest(path []learn.PathTest) []string {
	out := make([]string, len(path))
	for i, p := range path {
		op := " <= "
		if p.Above {
			op = " > "
		}
		out[i] = p.Name + op + strconv.FormatFloat(p.Threshold, 'g', 6, 64)
	}
	return out
}

// ReadableRules renders the lines of Rules with each path's tests on one
// feature merged into the interval they leave (learn.IntervalConditions:
// "806.2 < worst_area <= 957.4"), each threshold mapped back through
// unscale and printed by learn.ReadableNumber, and each line followed by
// the leaf's learn.RuleStats: its share of the training rows and the
// share of its class weight that the predicted class holds
// (learn.ReadableRuler).
func (t *Tree) ReadableRules(s learn.Schema, unscale learn.Unscale) string {
	num := func(j int, thr float64) string {
		if unscale != nil {
			thr = unscale(j, thr)
		}
		return learn.ReadableNumber(thr)
	}
	return t.rules(s, func(tests []learn.PathTest) []string { return learn.IntervalConditions(tests, num) }, t.leafStats)
}

// leafStats is the learn.RuleStats of leaf i.
func (t *Tree) leafStats(i int) string {
	var coverage, confidence, sum float64
	if t.NodeSamples[0] > 0 {
		coverage = float64(t.NodeSamples[i]) / float64(t.NodeSamples[0])
	}
	v := t.NodeValue(i)
	for _, w := range v {
		sum += w
	}
	if sum > 0 {
		confidence = v[t.NodeClass(i)] / sum
	}
	return learn.RuleStats(coverage, confidence)
}

// rules renders one rule per leaf, its path's tests printed by conds and
// after each rule stats(leaf) (nil: nothing).
func (t *Tree) rules(s learn.Schema, conds func([]learn.PathTest) []string, stats func(leaf int) string) string {
	var b strings.Builder
	var path []learn.PathTest
	var walk func(node int)
	walk = func(node int) {
		if t.IsLeaf(node) {
			b.WriteString("IF ")
			if len(path) == 0 {
				b.WriteString("TRUE")
			} else {
				b.WriteString(strings.Join(conds(path), " AND "))
			}
			fmt.Fprintf(&b, " THEN class %s", s.ClassName(t.NodeClass(node)))
			if stats != nil {
				b.WriteString(stats(node))
			}
			b.WriteByte('\n')
			return
		}
		f := t.Feature[node]
		path = append(path, learn.PathTest{Feature: f, Name: s.FeatureName(f), Threshold: t.Threshold[node]})
		walk(t.ChildrenLeft[node])
		path[len(path)-1].Above = true
		walk(t.ChildrenRight[node])
		path = path[:len(path)-1]
	}
	walk(0)
	return b.String()
}

var _ learn.ReadableRuler = (*Tree)(nil)
