package fga

import (
	"fmt"
	"math"
	"strings"

	"github.com/fgrtbench/fgrtbench/fuzzy"
	"github.com/fgrtbench/fgrtbench/learn"
)

// Model is a fitted FGA rule base: the rules the purge left, with their
// dominance scores, over the evolved partitions of the best chromosome.
type Model struct {
	rules      []Rule
	partitions [][]fuzzy.Trapezoid // per feature; nil when the genes decode to nothing
	labels     int
	// lo and hi are each feature's training range, ex-fuzzy's fuzzy
	// variable domain: inputs are clipped to it before any membership.
	lo, hi  []float64
	history []float64
	fitness float64
	// single is set when the training set held one class (index class):
	// the model has no rules and predicts that class, as scikit-learn's
	// classifiers do for a constant target.
	single bool
	class  int
	// nClasses is the schema's class count (the columns of Scores);
	// chromosome is the best chromosome's genes (nil for a single class).
	nClasses   int
	chromosome []int32
}

// Rule is one fuzzy rule "IF feature IS label AND ... THEN class".
type Rule struct {
	Antecedents []Condition
	// Class is the schema class index of the consequent.
	Class int
	// DominanceScore is support * confidence on the training set; the rule's
	// association with a row is DominanceScore * firing strength.
	DominanceScore float64
}

// Condition is "feature IS label" with the label's trapezoid.
type Condition struct {
	Feature, Label int
	Set            fuzzy.Trapezoid
	// Valid is false when the feature's partition decoded to nothing. As in
	// ex-fuzzy (NaN parameters), the rule's dominance score is then NaN and
	// the rule wins every row.
	Valid bool
}

func buildModel(p *problem, res gaResult) *Model {
	l := &p.lay
	m := &Model{labels: l.labels, history: res.history, fitness: res.bestMCC, chromosome: append([]int32(nil), res.best...),
		lo: append([]float64(nil), p.xmin...), hi: append([]float64(nil), p.xmax...)}
	m.partitions = make([][]fuzzy.Trapezoid, p.nFeat)
	if p.fixed != nil {
		copy(m.partitions, p.fixed.sets)
		m.lo, m.hi = append([]float64(nil), p.fixed.lo...), append([]float64(nil), p.fixed.hi...)
	}
	for f := 0; f < p.nFeat && p.fixed == nil; f++ {
		if sets, ok := decodePartition(l.mfGenes(res.best, f), l.labels, p.xmin[f], p.xmax[f], p.headEps); ok {
			m.partitions[f] = sets
		}
	}
	specs := decodeRules(l, res.best)
	stats := make([]*ruleStats, len(specs))
	sc := newScratch(p)
	for r := range specs {
		stats[r] = &ruleStats{phi: make([]float64, p.n), classSum: make([]float64, p.nClasses)}
		computeRuleStats(p, res.best, &specs[r], stats[r], sc)
	}
	ev := evaluate(p, specs, stats, sc, true)
	for _, r := range ev.keep {
		rule := Rule{Class: p.classOf[specs[r].class], DominanceScore: ev.ds[r]}
		for _, a := range specs[r].ants {
			c := Condition{Feature: a.feat, Label: a.label}
			if sets := m.partitions[a.feat]; sets != nil {
				c.Set, c.Valid = sets[a.label], true
			}
			rule.Antecedents = append(rule.Antecedents, c)
		}
		m.rules = append(m.rules, rule)
	}
	return m
}

// Predict returns, per row, the class of the winner rule: the first rule with
// the largest dominance score * firing strength (the first rule when none
// fires). As ex-fuzzy's fuzzyVariable.compute_memberships does, every value
// is first clipped to the feature's training range, so a value beyond the
// range gets the memberships of the range's end. A model whose purge left no rule predicts -1 for every row, as
// ex-fuzzy's winning_rule_predict does for an empty rule base. A missing
// value (NaN) has membership 0 in every label (ex-fuzzy would propagate
// NaN; the benchmark drops incomplete rows, so this only matters for callers
// predicting on rows with gaps).
func (m *Model) Predict(X [][]float64) []int {
	out := make([]int, len(X))
	for i, row := range X {
		out[i] = m.predictRow(row)
	}
	return out
}

func (m *Model) predictRow(row []float64) int {
	if m.single {
		return m.class
	}
	if len(m.rules) == 0 {
		return -1
	}
	best, bestV := 0, 0.0
	for r, rule := range m.rules {
		a := rule.DominanceScore * m.firing(rule, row)
		if math.IsNaN(a) {
			return rule.Class // np.argmax: the first NaN wins
		}
		if r == 0 || a > bestV {
			best, bestV = r, a
		}
	}
	return m.rules[best].Class
}

// Complexity counts the purged rules and their antecedents (don't-cares and
// repeated features excluded).
func (m *Model) Complexity() learn.Complexity {
	c := learn.Complexity{Rules: len(m.rules)}
	for _, r := range m.rules {
		c.Antecedents += len(r.Antecedents)
	}
	c.Leaves = c.Rules
	return c
}

// RuleList returns the purged rules in inference order (class by class).
func (m *Model) RuleList() []Rule { return m.rules }

// Partition returns the evolved trapezoids of feature f (nil when its genes
// decode to no partition).
func (m *Model) Partition(f int) []fuzzy.Trapezoid { return m.partitions[f] }

// History returns the best training MCC of the population after each
// generation (the first entry is the initial population).
func (m *Model) History() []float64 { return append([]float64(nil), m.history...) }

// Fitness returns the training MCC of the chromosome the model was built
// from, as the GA measured it.
func (m *Model) Fitness() float64 { return m.fitness }

// LabelName names label k of an L-label partition.
func LabelName(k, labels int) string {
	names := map[int][]string{
		2: {"Low", "High"},
		3: {"Low", "Medium", "High"},
		4: {"Very Low", "Low", "High", "Very High"},
		5: {"Very Low", "Low", "Medium", "High", "Very High"},
		7: {"Extremely Low", "Very Low", "Low", "Medium", "High", "Very High", "Extremely High"},
	}
	if ns, ok := names[labels]; ok && k >= 0 && k < len(ns) {
		return ns[k]
	}
	return fmt.Sprintf("L%d", k)
}

// Rules renders one line per rule, in inference order, e.g.
// "IF x1 IS High AND x3 IS Low THEN class 2 (dominance score 0.41)".
func (m *Model) Rules(s learn.Schema) string {
	var b strings.Builder
	if m.single {
		return fmt.Sprintf("# the training set held one class: every row is predicted class %s\n", s.ClassName(m.class))
	}
	if len(m.rules) == 0 {
		return "(no rule survived the purge: every row is predicted -1)\n"
	}
	for _, r := range m.rules {
		b.WriteString("IF ")
		for k, c := range r.Antecedents {
			if k > 0 {
				b.WriteString(" AND ")
			}
			fmt.Fprintf(&b, "%s IS %s", s.FeatureName(c.Feature), LabelName(c.Label, m.labels))
		}
		fmt.Fprintf(&b, " THEN class %s (dominance score %.2f)\n", s.ClassName(r.Class), r.DominanceScore)
	}
	return b.String()
}
