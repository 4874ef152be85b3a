package fuzzycart

import (
	"fmt"
	"strings"

	"github.com/fgrtbench/fgrtbench/fuzzy"
	"github.com/fgrtbench/fgrtbench/learn"
)

// Node is one node of a fitted tree.
type Node struct {
	// Name is the reference's node name ("root_F2_L0_F5_L1").
	Name   string
	Parent int // -1 at the root
	// Feature and Term are the node's own condition (-1 at the root).
	Feature, Term int
	Depth         int
	// Class is the node's class; the root's is the training majority.
	Class    int
	Children []int
	// Coverage is the node's membership mass over the training rows.
	Coverage float64
	// Quality is the split criterion that created the node (NaN at the
	// root).
	Quality float64
	// Removed marks a node cost-complexity pruning took out of the tree.
	Removed bool
}

// Model is a fitted FuzzyCART tree.
type Model struct {
	Partitions []fuzzy.Partition
	Nodes      []Node
	// Classes are the classes of the training rows (the reference's
	// classes_), ascending; NumClasses is the schema's class count.
	Classes    []int
	NumClasses int
	// Stale reports that prediction uses the node list the reference cached
	// before fit ended (a fit that ended by a break): its root class is -1
	// and, after pruning, it still holds the pruned nodes.
	Stale bool

	pred predictor
	// classMass[i] is node i's membership mass over the training rows of
	// each class, for the confidence Rules prints; nil for a model rebuilt
	// from its description, which keeps what predicts and the coverage.
	classMass [][]float64
}

var (
	_ learn.Model     = (*Model)(nil)
	_ learn.Scorer    = (*Model)(nil)
	_ learn.Describer = (*Model)(nil)
)

// predictor is the reference's _predict_all_nodes and
// _predict_proba_all_nodes over one all-nodes list.
type predictor struct {
	entries []cacheEntry
	// leaf[e] reports that entry e's node has no children in the tree
	// (pruned and removed nodes included); kids[e] are the entries of its
	// children.
	leaf []bool
	kids [][]int
	// internal lists the other entries, deepest first (stable).
	internal []int
	// rootPred is the root's class in the tree, used for rows no node
	// reaches (only NaN memberships do).
	rootPred int
}

// predictor builds the prediction state of the all-nodes list es against
// the current tree.
func (g *grower) predictor(es []cacheEntry) predictor {
	return newPredictor(es, treeNodes(g.nodes))
}

func treeNodes(ns []*node) []Node {
	out := make([]Node, len(ns))
	for i, nd := range ns {
		f, t := -1, -1
		if nd.cand >= 0 {
			// Filled by the caller that knows the candidates.
			f, t = nd.cand, -1
		}
		out[i] = Node{Name: nd.name, Parent: nd.parent, Feature: f, Term: t, Depth: nd.depth, Class: nd.pred,
			Children: nd.children, Coverage: nd.coverage, Quality: nd.quality, Removed: nd.removed}
	}
	return out
}

func newPredictor(es []cacheEntry, nodes []Node) predictor {
	p := predictor{entries: es, leaf: make([]bool, len(es)), kids: make([][]int, len(es)), rootPred: nodes[0].Class}
	at := make(map[int]int, len(es))
	for e, en := range es {
		at[en.node] = e
	}
	for e, en := range es {
		nd := nodes[en.node]
		if nd.Removed || len(nd.Children) == 0 {
			p.leaf[e] = true
			continue
		}
		for _, c := range nd.Children {
			if ce, ok := at[c]; ok {
				p.kids[e] = append(p.kids[e], ce)
			}
		}
		p.internal = append(p.internal, e)
	}
	// Deepest first, stable (Python's sort with reverse=True keeps ties
	// in order).
	in := p.internal
	for i := 1; i < len(in); i++ {
		for j := i; j > 0 && nodes[es[in[j]].node].Depth > nodes[es[in[j-1]].node].Depth; j-- {
			in[j], in[j-1] = in[j-1], in[j]
		}
	}
	return p
}

// childEps is the reference's epsilon below which a child does not fire.
const childEps = 1e-6

// usable returns entry e's membership of row i as an internal node may use
// it: its own when no child fires above childEps there, else 0.
func (p *predictor) usable(ms [][]float64, e, i int) float64 {
	for _, c := range p.kids[e] {
		if ms[c][i] > childEps {
			return 0
		}
	}
	return ms[e][i]
}

// predictFrom is _predict_all_nodes given each entry's membership of the
// n rows: the leaf with the strictly largest membership, then internal
// nodes whose children all stay at most 1e-6, deepest first.
func (p *predictor) predictFrom(ms [][]float64, n int) []int {
	pred := make([]int, n)
	best := make([]float64, n)
	for i := range pred {
		pred[i], best[i] = -1, -1
	}
	for e, en := range p.entries {
		if !p.leaf[e] {
			continue
		}
		for i, w := range ms[e] {
			if w > best[i] {
				pred[i], best[i] = en.pred, w
			}
		}
	}
	for _, e := range p.internal {
		cls := p.entries[e].pred
		for i := 0; i < n; i++ {
			if w := p.usable(ms, e, i); w > best[i] {
				pred[i], best[i] = cls, w
			}
		}
	}
	for i := range pred {
		if best[i] < 0 {
			pred[i] = p.rootPred
		}
	}
	return pred
}

// probaFrom is _predict_proba_all_nodes: every usable node membership
// added to its class (nodes taken by ascending class, stably; class -1
// skipped), normalised per row; a row with no mass is uniform over the
// training classes. Columns follow classes.
func (p *predictor) probaFrom(ms [][]float64, n int, classes []int) [][]float64 {
	order := make([]int, len(p.entries))
	for e := range order {
		order[e] = e
	}
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && p.entries[order[j]].pred < p.entries[order[j-1]].pred; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	col := map[int]int{}
	for c, k := range classes {
		col[k] = c
	}
	out := make([][]float64, n)
	total := make([]float64, n)
	for i := range out {
		out[i] = make([]float64, len(classes))
	}
	for _, e := range order {
		cls := p.entries[e].pred
		if cls == -1 {
			continue
		}
		c := col[cls]
		for i := 0; i < n; i++ {
			w := ms[e][i]
			if !p.leaf[e] {
				w = p.usable(ms, e, i)
			}
			out[i][c] += w
			total[i] += w
		}
	}
	normalise(out, total, len(classes))
	return out
}

// normalise divides each row by its total; a row with no mass is uniform
// over the classes, and one with a NaN total all zeros (as numpy leaves it).
func normalise(out [][]float64, total []float64, classes int) {
	for i, row := range out {
		switch {
		case total[i] > 0:
			for c := range row {
				row[c] /= total[i]
			}
		case total[i] == 0:
			for c := range row {
				row[c] = 1 / float64(classes)
			}
		default: // NaN: numpy leaves the row at zeros
			for c := range row {
				row[c] = 0
			}
		}
	}
}

// memberships returns each entry's path membership of the rows of X
// (np.ones times each condition's membership, root first).
func (m *Model) memberships(X [][]float64) [][]float64 {
	n := len(X)
	byNode := make([][]float64, len(m.Nodes))
	var of func(id int) []float64
	of = func(id int) []float64 {
		if byNode[id] != nil {
			return byNode[id]
		}
		nd := m.Nodes[id]
		w := make([]float64, n)
		if nd.Parent < 0 {
			for i := range w {
				w[i] = 1
			}
		} else {
			pw := of(nd.Parent)
			term := m.Partitions[nd.Feature].Terms[nd.Term]
			for i, row := range X {
				w[i] = pw[i] * termMembership(term, row[nd.Feature])
			}
		}
		byNode[id] = w
		return w
	}
	ms := make([][]float64, len(m.pred.entries))
	for e, en := range m.pred.entries {
		ms[e] = of(en.node)
	}
	return ms
}

// Predict returns the class of each row as the reference's predict does
// (-1 where its stale root class decides, FGRT's Q2). Rows of the wrong
// width predict -1.
func (m *Model) Predict(X [][]float64) []int {
	ok, bad := m.split(X)
	pred := m.pred.predictFrom(m.memberships(ok), len(ok))
	return m.merge(pred, bad, len(X), -1)
}

// Scores returns, per row and class of the schema, the largest eligible
// membership of a node predicting that class: a leaf's path membership or
// an internal node's fallback membership (learn.Scorer). These are the
// values Predict compares (it takes the strongest node, the first in its
// order on exact ties), so a class whose score is strictly the largest is
// the prediction. A stale root predicting -1 (Q2) adds to no class: rows
// it wins are predicted -1 and score at most 1e-6 everywhere. A row of the
// wrong width scores 0 everywhere. PredictProba gives the reference's
// predict_proba instead.
func (m *Model) Scores(X [][]float64) [][]float64 {
	ok, bad := m.split(X)
	ms := m.memberships(ok)
	out := make([][]float64, len(X))
	j := 0
	for i := range X {
		out[i] = make([]float64, m.NumClasses)
		if bad[i] {
			continue
		}
		p := out[i]
		for e, en := range m.pred.entries {
			if en.pred < 0 {
				continue
			}
			w := ms[e][j]
			if !m.pred.leaf[e] {
				w = m.pred.usable(ms, e, j)
			}
			if w > p[en.pred] {
				p[en.pred] = w
			}
		}
		j++
	}
	return out
}

// PredictProba returns predict_proba's class scores, one column per class
// of the schema (classes absent from the training rows score 0). They are
// a membership-weighted vote of every node, not the quantities Predict
// compares (winner takes all), which Scores returns. Rows of the wrong
// width get zeros.
func (m *Model) PredictProba(X [][]float64) [][]float64 {
	ok, bad := m.split(X)
	p := m.pred.probaFrom(m.memberships(ok), len(ok), m.Classes)
	out := make([][]float64, len(X))
	j := 0
	for i := range X {
		out[i] = make([]float64, m.NumClasses)
		if bad[i] {
			continue
		}
		for c, k := range m.Classes {
			out[i][k] = p[j][c]
		}
		j++
	}
	return out
}

// split separates rows of the partitions' width from the others.
func (m *Model) split(X [][]float64) ([][]float64, []bool) {
	bad := make([]bool, len(X))
	ok := make([][]float64, 0, len(X))
	for i, row := range X {
		if len(row) != len(m.Partitions) {
			bad[i] = true
			continue
		}
		ok = append(ok, row)
	}
	return ok, bad
}

func (m *Model) merge(pred []int, bad []bool, n, fill int) []int {
	out := make([]int, n)
	j := 0
	for i := range out {
		if bad[i] {
			out[i] = fill
			continue
		}
		out[i] = pred[j]
		j++
	}
	return out
}

// Complexity counts the tree as the reference's get_tree_stats does:
// rules are leaves (its tree_rules), antecedents the leaves' depths, and
// internal nodes include the root once it has children.
func (m *Model) Complexity() learn.Complexity {
	var c learn.Complexity
	for _, nd := range m.Nodes {
		if nd.Removed {
			continue
		}
		if len(nd.Children) == 0 {
			c.Leaves++
			c.Antecedents += nd.Depth
		} else {
			c.InternalNodes++
		}
	}
	c.Rules = c.Leaves
	return c
}

// Rules renders one rule per leaf in the order prediction visits them,
// then the internal nodes that predict as fallbacks and, for a stale
// prediction list, the pruned nodes that still predict, each with its
// learn.RuleStats as FGRT prints them: the node's membership mass over the
// training rows divided by their number, and the share of that mass that
// rows of the predicted class hold (a model rebuilt from its description
// prints the coverage alone).
func (m *Model) Rules(s learn.Schema) string {
	var b strings.Builder
	line := func(prefix string, e int) {
		en := m.pred.entries[e]
		ante := "TRUE"
		if conds := m.conditions(s, en.node); len(conds) > 0 {
			ante = strings.Join(conds, " AND ")
		}
		cls := "none (-1)"
		if en.pred >= 0 {
			cls = "class " + s.ClassName(en.pred)
		}
		if m.classMass == nil {
			fmt.Fprintf(&b, "%sIF %s THEN %s  [coverage %.3f]\n", prefix, ante, cls, m.Nodes[en.node].Coverage)
			return
		}
		fmt.Fprintf(&b, "%sIF %s THEN %s%s\n", prefix, ante, cls, learn.RuleStats(m.Nodes[en.node].Coverage, m.confidence(en.node, en.pred)))
	}
	for e, en := range m.pred.entries {
		if m.pred.leaf[e] && !m.Nodes[en.node].Removed {
			line("", e)
		}
	}
	for _, e := range m.pred.internal {
		line("fallback when no child fires above 1e-6: ", e)
	}
	for e, en := range m.pred.entries {
		if m.Nodes[en.node].Removed {
			line("pruned but still predicting (stale reference cache): ", e)
		}
	}
	return b.String()
}

// confidence is the share of node id's membership mass over the training
// rows that rows of class c hold (0 for no class or no mass).
func (m *Model) confidence(id, c int) float64 {
	var total float64
	for _, w := range m.classMass[id] {
		total += w
	}
	if c < 0 || c >= len(m.classMass[id]) || total == 0 {
		return 0
	}
	return m.classMass[id][c] / total
}

// conditions lists node id's path conditions, root first.
func (m *Model) conditions(s learn.Schema, id int) []string {
	var conds []string
	for ; id > 0; id = m.Nodes[id].Parent {
		nd := m.Nodes[id]
		conds = append(conds, fmt.Sprintf("%s IS %s", s.FeatureName(nd.Feature), m.termName(s, nd.Feature, nd.Term)))
	}
	for a, b := 0, len(conds)-1; a < b; a, b = a+1, b-1 {
		conds[a], conds[b] = conds[b], conds[a]
	}
	return conds
}

// termName names term t of feature f, with the schema's category labels
// for nominal codes.
func (m *Model) termName(s learn.Schema, f, t int) string {
	term := m.Partitions[f].Terms[t]
	if term.Crisp && f < len(s.Features) {
		cats := s.Features[f].Categories
		v := term.Category.Value
		if v == float64(int(v)) && int(v) >= 0 && int(v) < len(cats) {
			return cats[int(v)]
		}
	}
	return term.Name
}

// NodeNames returns the names and classes of the tree's nodes in the
// reference's node_dict_access order (creation order, pruned nodes left
// out), for comparison with the reference.
func (m *Model) NodeNames() ([]string, []int) {
	var names []string
	var classes []int
	for _, nd := range m.Nodes {
		if !nd.Removed {
			names = append(names, nd.Name)
			classes = append(classes, nd.Class)
		}
	}
	return names, classes
}

// PredictionList returns the nodes and classes of the list prediction
// uses (the reference's _cached_all_nodes), in its order.
func (m *Model) PredictionList() ([]string, []int) {
	names := make([]string, len(m.pred.entries))
	classes := make([]int, len(m.pred.entries))
	for e, en := range m.pred.entries {
		names[e], classes[e] = m.Nodes[en.node].Name, en.pred
	}
	return names, classes
}

// model freezes the grower's tree. After a break the prediction list is
// the one cached before fit ended (unless fix_q2); otherwise the first
// prediction builds it from the final tree.
func (g *grower) model(brk bool) *Model {
	nodes := treeNodes(g.nodes)
	for i, nd := range g.nodes {
		if nd.cand >= 0 {
			c := g.cands[nd.cand]
			nodes[i].Feature, nodes[i].Term = c.f, c.t
		}
	}
	m := &Model{Partitions: g.parts, Nodes: nodes, Classes: g.all.classes, NumClasses: g.nClasses}
	m.classMass = make([][]float64, len(g.nodes))
	for i, nd := range g.nodes {
		m.classMass[i] = make([]float64, g.nClasses)
		for r, w := range nd.m {
			m.classMass[i][g.y[r]] += w
		}
	}
	es := g.cache
	if es == nil || g.cfg.FixQ2 {
		es = g.allNodes()
	} else {
		m.Stale = true
	}
	m.pred = newPredictor(es, nodes)
	return m
}
