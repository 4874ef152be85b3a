package fga

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/fgrtbench/fgrtbench/fuzzy"
	"github.com/fgrtbench/fgrtbench/learn"
)

// Kind is the learn.Description kind of FGA models.
const Kind = "fga.rulebase/1"

func init() { learn.RegisterModel(Kind, ModelFromJSON) }

// describedCond is "feature IS label"; valid is false when the feature's
// genes decoded to no partition (the rule's dominance score is then NaN).
type describedCond struct {
	Feature int  `json:"feature"`
	Label   int  `json:"label"`
	Valid   bool `json:"valid"`
}

type describedRule struct {
	Antecedents    []describedCond `json:"antecedents"`
	Class          int             `json:"class"`
	DominanceScore learn.JSONFloat `json:"dominance_score"`
}

// describedModel is the JSON of an FGA rule base: each feature's evolved
// trapezoids (null when its genes decode to none; label k of a feature is
// partitions[feature][k]) and training range [lo, hi], to which inputs
// are clipped first; the purged rules in inference order. A row is
// predicted the class of the first rule with the largest dominance score
// × firing strength (product of the antecedents' memberships); NaN wins at
// once; no rule predicts -1; single_class, when set, is always predicted.
// Chromosome holds the best chromosome's genes, history the best training
// MCC after each generation.
type describedModel struct {
	NumClasses  int                    `json:"n_classes"`
	Labels      int                    `json:"labels"`
	SingleClass *int                   `json:"single_class,omitempty"`
	Lo          []learn.JSONFloat      `json:"lo"`
	Hi          []learn.JSONFloat      `json:"hi"`
	Partitions  [][][4]learn.JSONFloat `json:"partitions"`
	Rules       []describedRule        `json:"rules"`
	Fitness     learn.JSONFloat        `json:"fitness"`
	History     []learn.JSONFloat      `json:"history"`
	Chromosome  []int32                `json:"chromosome"`
}

// Describe returns the rule base as data (learn.Describer).
func (m *Model) Describe(s learn.Schema) (learn.Description, error) {
	dm := describedModel{NumClasses: m.nClasses, Labels: m.labels, Lo: learn.Floats(m.lo), Hi: learn.Floats(m.hi),
		Rules: []describedRule{}, Fitness: learn.JSONFloat(m.fitness), History: learn.Floats(m.history), Chromosome: m.chromosome}
	if m.single {
		c := m.class
		dm.SingleClass = &c
	}
	used := map[[2]int]bool{}
	for _, r := range m.rules {
		for _, c := range r.Antecedents {
			used[[2]int{c.Feature, c.Label}] = true
		}
	}
	var terms []learn.PartitionTerm
	for f, sets := range m.partitions {
		var ps [][4]learn.JSONFloat
		for k, t := range sets {
			corners := [4]learn.JSONFloat{learn.JSONFloat(t.A), learn.JSONFloat(t.B), learn.JSONFloat(t.C), learn.JSONFloat(t.D)}
			ps = append(ps, corners)
			if used[[2]int{f, k}] { // the terms the rules use
				ref := learn.TermRef{Feature: f, FeatureName: s.FeatureName(f), Term: k, TermName: LabelName(k, m.labels)}
				terms = append(terms, learn.PartitionTerm{TermRef: ref, Trapezoid: corners[:]})
			}
		}
		dm.Partitions = append(dm.Partitions, ps)
	}
	for _, r := range m.rules {
		dr := describedRule{Class: r.Class, DominanceScore: learn.JSONFloat(r.DominanceScore), Antecedents: []describedCond{}}
		for _, c := range r.Antecedents {
			dr.Antecedents = append(dr.Antecedents, describedCond{Feature: c.Feature, Label: c.Label, Valid: c.Valid})
		}
		dm.Rules = append(dm.Rules, dr)
	}
	return learn.NewDescription(Kind, m, s, dm, terms...)
}

// ModelFromJSON rebuilds a rule base from the Model field of its
// Description, validating it first: malformed JSON is an error, never a
// panic at prediction.
func ModelFromJSON(raw json.RawMessage) (*Model, error) {
	var dm describedModel
	if err := json.Unmarshal(raw, &dm); err != nil {
		return nil, err
	}
	if dm.NumClasses < 1 {
		return nil, fmt.Errorf("n_classes %d", dm.NumClasses)
	}
	m := &Model{nClasses: dm.NumClasses, labels: dm.Labels, lo: learn.Float64s(dm.Lo), hi: learn.Float64s(dm.Hi),
		fitness: float64(dm.Fitness), history: learn.Float64s(dm.History), chromosome: dm.Chromosome}
	if dm.SingleClass != nil {
		if *dm.SingleClass < 0 || *dm.SingleClass >= dm.NumClasses {
			return nil, fmt.Errorf("single_class %d out of range", *dm.SingleClass)
		}
		m.single, m.class = true, *dm.SingleClass
	}
	if len(m.lo) != len(m.hi) || (!m.single && len(dm.Partitions) != len(m.lo)) {
		return nil, fmt.Errorf("%d partitions, %d lower and %d upper bounds", len(dm.Partitions), len(m.lo), len(m.hi))
	}
	for _, ps := range dm.Partitions {
		var sets []fuzzy.Trapezoid
		for _, c := range ps {
			sets = append(sets, fuzzy.Trapezoid{A: float64(c[0]), B: float64(c[1]), C: float64(c[2]), D: float64(c[3])})
		}
		m.partitions = append(m.partitions, sets)
	}
	for i, dr := range dm.Rules {
		if dr.Class < 0 || dr.Class >= dm.NumClasses {
			return nil, fmt.Errorf("rule %d: class %d out of range", i, dr.Class)
		}
		r := Rule{Class: dr.Class, DominanceScore: float64(dr.DominanceScore)}
		for _, c := range dr.Antecedents {
			if c.Feature < 0 || c.Feature >= len(m.partitions) {
				return nil, fmt.Errorf("rule %d: feature %d out of range", i, c.Feature)
			}
			cond := Condition{Feature: c.Feature, Label: c.Label, Valid: c.Valid}
			if c.Valid {
				sets := m.partitions[c.Feature]
				if c.Label < 0 || c.Label >= len(sets) {
					return nil, fmt.Errorf("rule %d: feature %d has no label %d", i, c.Feature, c.Label)
				}
				cond.Set = sets[c.Label]
			}
			r.Antecedents = append(r.Antecedents, cond)
		}
		m.rules = append(m.rules, r)
	}
	return m, nil
}

// Scores returns, per row and class, the largest association degree
// (dominance score × firing strength) of that class's rules: the values the
// winning-rule prediction compares (learn.Scorer). Predict takes the first
// rule of largest degree, so a class whose score is strictly the largest
// is the prediction; rows where no rule fires (all 0) go to the first
// rule's class. A NaN degree (a rule over a feature without partition) makes
// its class's score NaN. A single-class model scores 1 for its class; a
// model without rules scores 0 everywhere (it predicts -1).
func (m *Model) Scores(X [][]float64) [][]float64 {
	out := make([][]float64, len(X))
	for i, row := range X {
		p := make([]float64, m.nClasses)
		out[i] = p
		if m.single {
			p[m.class] = 1
			continue
		}
		for _, rule := range m.rules {
			a := rule.DominanceScore * m.firing(rule, row)
			switch c := rule.Class; {
			case math.IsNaN(p[c]): // a NaN score stays NaN
			case math.IsNaN(a) || a > p[c]:
				p[c] = a
			}
		}
	}
	return out
}

// firing is the rule's firing strength on a row: the product of its
// antecedents' memberships (0 for an invalid one or a NaN), as predictRow
// and the scores weigh it.
func (m *Model) firing(rule Rule, row []float64) float64 {
	phi := 1.0
	for _, c := range rule.Antecedents {
		mu := 0.0
		if c.Valid {
			x := min(max(row[c.Feature], m.lo[c.Feature]), m.hi[c.Feature])
			if v := c.Set.Membership(x); !math.IsNaN(v) {
				mu = v
			}
		}
		phi *= mu
	}
	return phi
}

var (
	_ learn.Describer = (*Model)(nil)
	_ learn.Scorer    = (*Model)(nil)
)
