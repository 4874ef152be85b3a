package c45

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/fgrtbench/fgrtbench/learn"
)

// Model is a fitted J48 tree.
type Model struct {
	root     *node
	nClasses int
}

// Probabilities returns J48's class distribution for one row
// (ClassifierTree.getProbs): leaf class frequencies; an empty leaf uses its
// parent's bag (or the parent's whole distribution); a missing test value
// mixes the non-empty branches by their training shares. Columns beyond
// the row's length count as missing.
func (m *Model) Probabilities(row []float64) []float64 {
	out := make([]float64, m.nClasses)
	m.root.probs(row, 1, out)
	return out
}

func (nd *node) probs(row []float64, weight float64, out []float64) {
	if nd.leaf {
		for k := range out {
			out[k] += float64(weight * nd.dist.prob(k))
		}
		return
	}
	v := math.NaN()
	if nd.attr < len(row) {
		v = row[nd.attr]
	}
	s := nd.subset(v)
	if s < 0 {
		if eq(nd.dist.total, 0) {
			return
		}
		for k, ch := range nd.children {
			if !ch.empty {
				ch.probs(row, weight*nd.dist.bagWeight(k), out)
			}
		}
		return
	}
	ch := nd.children[s]
	if ch.empty {
		for k := range out {
			out[k] += float64(weight * nd.dist.probInBag(k, s))
		}
		return
	}
	ch.probs(row, weight, out)
}

// Predict returns, per row, the first class whose probability exceeds all
// earlier ones by more than 1e-6 (ClassifierTree.classifyInstance).
func (m *Model) Predict(X [][]float64) []int {
	pred := make([]int, len(X))
	p := make([]float64, m.nClasses)
	for i, row := range X {
		clear(p)
		m.root.probs(row, 1, p)
		best, idx := -1.0, 0
		for k, v := range p {
			if gr(v, best) {
				best, idx = v, k
			}
		}
		pred[i] = idx
	}
	return pred
}

// Complexity counts every leaf (empty ones included) as a rule whose
// antecedents are the tests on its path; InternalNodes = tree size - leaves.
func (m *Model) Complexity() learn.Complexity {
	var c learn.Complexity
	var walk func(nd *node, depth int)
	walk = func(nd *node, depth int) {
		if nd.leaf {
			c.Leaves++
			c.Antecedents += depth
			return
		}
		c.InternalNodes++
		for _, ch := range nd.children {
			walk(ch, depth+1)
		}
	}
	walk(m.root, 0)
	c.Rules = c.Leaves
	return c
}

// NumLeaves and Size are J48's "Number of Leaves" and "Size of the tree".
func (m *Model) NumLeaves() int { return m.Complexity().Leaves }

// Size is the number of nodes, leaves included.
func (m *Model) Size() int { c := m.Complexity(); return c.Leaves + c.InternalNodes }

func categoryName(s learn.Schema, attr, code int) string {
	if attr < len(s.Features) && code < len(s.Features[attr].Categories) {
		return s.Features[attr].Categories[code]
	}
	return strconv.Itoa(code)
}

// test renders the condition of branch k of an internal node.
func (nd *node) test(s learn.Schema, k int, num func(float64) string) string {
	name := s.FeatureName(nd.attr)
	if nd.nominal {
		return name + " = " + categoryName(s, nd.attr, k)
	}
	if k == 0 {
		return name + " <= " + num(nd.threshold)
	}
	return name + " > " + num(nd.threshold)
}

// leafClass is the class a leaf predicts for a row reaching it without
// missing values: its own majority, or for an empty leaf the parent's.
func leafClass(parent *node, k int, leaf *node) int {
	if leaf.empty && parent != nil {
		return bagMaxClass(parent.dist, k)
	}
	return leaf.dist.maxClass()
}

// bagMaxClass is Distribution.maxClass(bag): the whole distribution's
// majority when the bag is empty.
func bagMaxClass(d *distribution, bag int) int {
	if !gr(d.perBag[bag], 0) {
		return d.maxClass()
	}
	best, idx := 0.0, 0
	row := d.perClassPerBag[bag*d.nClasses : (bag+1)*d.nClasses]
	for k, v := range row {
		if gr(v, best) {
			best, idx = v, k
		}
	}
	return idx
}

func formatThreshold(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// Rules renders one line per leaf: IF a AND b THEN class c.
func (m *Model) Rules(s learn.Schema) string {
	return m.rules(s, eachTest, false)
}

// eachTest prints every test of a path as it is ("a <= 0.25", "a > 0.25",
// "colour = red"), thresholds in the shortest form that reads back.
func eachTest(path []learn.PathTest) []string {
	out := make([]string, len(path))
	for i, p := range path {
		switch {
		case p.Text != "":
			out[i] = p.Text
		case p.Above:
			out[i] = p.Name + " > " + formatThreshold(p.Threshold)
		default:
			out[i] = p.Name + " <= " + formatThreshold(p.Threshold)
		}
	}
	return out
}

// ReadableRules renders the lines of Rules with each path's tests on one
// numeric attribute merged into the interval they leave
// (learn.IntervalConditions: "806.2 < worst_area <= 957.4"), each
// threshold mapped back through unscale and printed by
// learn.ReadableNumber, and each line followed by the leaf's
// learn.RuleStats: its share of the training weight and the share of the
// leaf's weight that the predicted class holds (0 for a leaf that received
// none) (learn.ReadableRuler).
func (m *Model) ReadableRules(s learn.Schema, unscale learn.Unscale) string {
	num := func(j int, v float64) string {
		if unscale != nil {
			v = unscale(j, v)
		}
		return learn.ReadableNumber(v)
	}
	return m.rules(s, func(tests []learn.PathTest) []string { return learn.IntervalConditions(tests, num) }, true)
}

// leafStats is the learn.RuleStats of a leaf predicting class.
func (m *Model) leafStats(leaf *node, class int) string {
	var coverage, confidence float64
	if leaf.dist == nil || m.root.dist == nil {
		return learn.RuleStats(0, 0)
	}
	if m.root.dist.total > 0 {
		coverage = leaf.dist.total / m.root.dist.total
	}
	if leaf.dist.total > 0 {
		confidence = leaf.dist.perClass[class] / leaf.dist.total
	}
	return learn.RuleStats(coverage, confidence)
}

// pathTest is the test of branch k of nd as a learn.PathTest: a
// threshold on a numeric attribute, or a nominal test's text.
func (nd *node) pathTest(s learn.Schema, k int) learn.PathTest {
	if nd.nominal {
		return learn.PathTest{Feature: nd.attr, Text: nd.test(s, k, nil)}
	}
	return learn.PathTest{Feature: nd.attr, Name: s.FeatureName(nd.attr), Threshold: nd.threshold, Above: k != 0}
}

// rules renders one line per leaf, its path's tests printed by conds and,
// with stats, each leaf's leafStats.
func (m *Model) rules(s learn.Schema, conds func([]learn.PathTest) []string, stats bool) string {
	var sb strings.Builder
	var walk func(parent *node, k int, nd *node, path []learn.PathTest)
	walk = func(parent *node, k int, nd *node, path []learn.PathTest) {
		if nd.leaf {
			cond := "TRUE"
			if len(path) > 0 {
				cond = strings.Join(conds(path), " AND ")
			}
			class := leafClass(parent, k, nd)
			fmt.Fprintf(&sb, "IF %s THEN class %s", cond, s.ClassName(class))
			if stats {
				sb.WriteString(m.leafStats(nd, class))
			}
			sb.WriteByte('\n')
			return
		}
		for i, ch := range nd.children {
			walk(nd, i, ch, append(path[:len(path):len(path)], nd.pathTest(s, i)))
		}
	}
	walk(nil, 0, m.root, nil)
	return sb.String()
}

var _ learn.ReadableRuler = (*Model)(nil)

// WekaString renders the tree as J48's toString body does (numbers rounded
// as Weka prints them), for side-by-side comparison with a Weka run. Leaf
// labels come from the parent's bag, as in ClassifierSplitModel.dumpLabel.
func (m *Model) WekaString(s learn.Schema) string {
	var sb strings.Builder
	if m.root.leaf {
		d := m.root.dist
		sb.WriteString(": " + wekaLabel(s, d.maxClass(), d.total, d.numIncorrect()))
		return sb.String()
	}
	var dump func(nd *node, depth int)
	dump = func(nd *node, depth int) {
		for k, ch := range nd.children {
			sb.WriteString("\n")
			sb.WriteString(strings.Repeat("|   ", depth))
			sb.WriteString(nd.test(s, k, wekaDecimal))
			if ch.leaf {
				d := nd.dist
				bag := d.perBag[k]
				inc := bag - d.perClassPerBag[k*d.nClasses+bagMaxClass(d, k)]
				if !gr(bag, 0) {
					inc = 0
				}
				sb.WriteString(": " + wekaLabel(s, bagMaxClass(d, k), bag, inc))
			} else {
				dump(ch, depth+1)
			}
		}
	}
	dump(m.root, 0)
	return sb.String()
}

func wekaLabel(s learn.Schema, class int, total, incorrect float64) string {
	out := s.ClassName(class) + " (" + javaRound2(total)
	if gr(incorrect, 0) {
		out += "/" + javaRound2(incorrect)
	}
	return out + ")"
}

// javaRound2 mimics Utils.roundDouble(x, 2) printed by Double.toString.
func javaRound2(x float64) string {
	r := math.Floor(float64(x*100)+0.5) / 100
	if r == math.Trunc(r) {
		return strconv.FormatFloat(r, 'f', 1, 64)
	}
	return strconv.FormatFloat(r, 'g', -1, 64)
}

// wekaDecimal mimics Utils.doubleToString(x, 6): six decimals, trailing
// zeros dropped.
func wekaDecimal(x float64) string {
	s := strconv.FormatFloat(x, 'f', 6, 64)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}
