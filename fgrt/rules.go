package fgrt

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/fgrtbench/fgrtbench/fuzzy"
	"github.com/fgrtbench/fgrtbench/learn"
)

// termName renders term t of feature f, using the schema's category labels
// for nominal codes when it has them.
func (m *Model) termName(s learn.Schema, f, t int) string {
	p := m.Partitions[f]
	term := p.Terms[t]
	if term.Crisp && f < len(s.Features) {
		cats := s.Features[f].Categories
		v := term.Category.Value
		if v == float64(int(v)) && int(v) >= 0 && int(v) < len(cats) {
			return cats[int(v)]
		}
	}
	return term.Name
}

// conditions lists the path conditions of node i, root first.
func (m *Model) conditions(s learn.Schema, i int) []string {
	var conds []string
	for ; i > 0; i = m.Nodes[i].Parent {
		n := m.Nodes[i]
		conds = append(conds, fmt.Sprintf("%s IS %s", s.FeatureName(n.Feature), m.termName(s, n.Feature, n.Term)))
	}
	for a, b := 0, len(conds)-1; a < b; a, b = a+1, b-1 {
		conds[a], conds[b] = conds[b], conds[a]
	}
	return conds
}

// Rules renders one linguistic rule per leaf, in prediction priority order
// (shallow first, then creation order), followed by the internal nodes that
// fire as fallback rules when none of their children fires.
func (m *Model) Rules(s learn.Schema) string {
	var b strings.Builder
	line := func(i int, fallback bool) {
		n := m.Nodes[i]
		conds := m.conditions(s, i)
		ante := "TRUE"
		if len(conds) > 0 {
			ante = strings.Join(conds, " AND ")
		}
		cls := "none (-1)"
		if c := m.nodeClass(i); c >= 0 {
			cls = "class " + s.ClassName(c)
		}
		// Fallback lines are not among the rules Complexity counts (the
		// authors count leaves), so they do not start with "IF".
		if fallback {
			b.WriteString("fallback when no child fires above 1e-6: ")
		}
		fmt.Fprintf(&b, "IF %s THEN %s  [coverage %.3f, confidence %.3f]\n", ante, cls, n.Coverage, n.Confidence())
	}
	for _, i := range m.leafOrder {
		line(i, false)
	}
	for _, i := range m.internalOrder {
		line(i, true)
	}
	return b.String()
}

// Tree renders the tree in the layout of the reference's print_tree:
// children indented under their parent, in creation order.
func (m *Model) Tree(s learn.Schema) string {
	var b strings.Builder
	var walk func(i int, indent string)
	walk = func(i int, indent string) {
		n := m.Nodes[i]
		if i == 0 {
			fmt.Fprintf(&b, "Root: class=%s, coverage=%.3f\n", s.ClassName(m.Nodes[0].Class), n.Coverage)
		} else {
			fmt.Fprintf(&b, "%s%s IS %s -> class=%s, coverage=%.3f, gain=%.3f\n", indent, s.FeatureName(n.Feature),
				m.termName(s, n.Feature, n.Term), s.ClassName(n.Class), n.Coverage, n.Gain)
		}
		for _, c := range n.Children {
			walk(c, indent+"  ")
		}
	}
	walk(0, "")
	return b.String()
}

// DescribePartitions prints every feature's terms with their corners.
func (m *Model) DescribePartitions(s learn.Schema) string {
	names := make([]string, len(m.Partitions))
	for j := range names {
		names[j] = s.FeatureName(j)
	}
	return fuzzy.Describe(m.Partitions, names)
}

type jsonRule struct {
	Node       int        `json:"node"`
	Conditions []jsonCond `json:"conditions"`
	Class      int        `json:"class"`
	ClassName  string     `json:"class_name"`
	Coverage   float64    `json:"coverage"`
	Confidence float64    `json:"confidence"`
	Gain       *float64   `json:"gain"`
	Leaf       bool       `json:"leaf"`
	Weights    []float64  `json:"class_weights"`
	Children   []int      `json:"children,omitempty"`
	Parent     int        `json:"parent"`
	Depth      int        `json:"depth"`
}

type jsonCond struct {
	Feature     int    `json:"feature"`
	FeatureName string `json:"feature_name"`
	Term        int    `json:"term"`
	TermName    string `json:"term_name"`
}

type jsonTerm struct {
	Name    string     `json:"name"`
	Corners [4]float64 `json:"corners,omitempty"`
	Value   *float64   `json:"value,omitempty"`
}

type jsonModel struct {
	Classes        []string     `json:"classes"`
	RootPrediction int          `json:"root_prediction"`
	EndedByBreak   bool         `json:"ended_by_break"`
	Leaves         int          `json:"leaves"`
	InternalNodes  int          `json:"internal_nodes"`
	Partitions     [][]jsonTerm `json:"partitions"`
	Nodes          []jsonRule   `json:"nodes"`
}

// JSON renders the tree (every node with its full rule, class, coverage,
// confidence and creation gain) and the partitions as indented JSON.
func (m *Model) JSON(s learn.Schema) ([]byte, error) {
	jm := jsonModel{RootPrediction: m.RootPrediction, EndedByBreak: m.EndedByBreak,
		Leaves: m.Leaves(), InternalNodes: m.InternalNodes()}
	for k := 0; k < m.NumClasses; k++ {
		jm.Classes = append(jm.Classes, s.ClassName(k))
	}
	for _, p := range m.Partitions {
		var terms []jsonTerm
		for _, t := range p.Terms {
			jt := jsonTerm{Name: t.Name}
			if t.Crisp {
				v := t.Category.Value
				jt.Value = &v
			} else {
				jt.Corners = [4]float64{t.Shape.A, t.Shape.B, t.Shape.C, t.Shape.D}
			}
			terms = append(terms, jt)
		}
		jm.Partitions = append(jm.Partitions, terms)
	}
	for i, n := range m.Nodes {
		r := jsonRule{Node: i, Class: m.nodeClass(i), Coverage: n.Coverage, Confidence: n.Confidence(),
			Gain: gainOrNil(n.Gain), Leaf: n.IsLeaf(), Weights: n.ClassWeights, Children: n.Children,
			Parent: n.Parent, Depth: n.Depth, Conditions: []jsonCond{}}
		r.ClassName = "none"
		if r.Class >= 0 {
			r.ClassName = s.ClassName(r.Class)
		}
		var path []int
		for j := i; j > 0; j = m.Nodes[j].Parent {
			path = append([]int{j}, path...)
		}
		for _, j := range path {
			c := m.Nodes[j]
			r.Conditions = append(r.Conditions, jsonCond{Feature: c.Feature, FeatureName: s.FeatureName(c.Feature),
				Term: c.Term, TermName: m.termName(s, c.Feature, c.Term)})
		}
		jm.Nodes = append(jm.Nodes, r)
	}
	return json.MarshalIndent(jm, "", " ")
}
