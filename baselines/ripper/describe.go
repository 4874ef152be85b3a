package ripper

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/fgrtbench/fgrtbench/learn"
)

// Kind is the learn.Description kind of RIPPER models. RIPPER produces no
// scores: its prediction is the rule sets' class.
const Kind = "ripper.rulesets/1"

func init() { learn.RegisterModel(Kind, ModelFromJSON) }

// describedColumn is the coding of one feature: right-closed bins
// (lefts[k], rights[k]] (outer edges ±Infinity) when binned, else the
// distinct training values (code k = values[k]). A value in no bin or
// outside the values matches no condition.
type describedColumn struct {
	Binned bool              `json:"binned"`
	Lefts  []learn.JSONFloat `json:"lefts,omitempty"`
	Rights []learn.JSONFloat `json:"rights,omitempty"`
	Values []learn.JSONFloat `json:"values,omitempty"`
}

// describedCond is "feature has code" (code -1: the missing value, which
// no row matches).
type describedCond struct {
	Feature int `json:"feature"`
	Code    int `json:"code"`
}

// describedRuleSet is the rule set of one positive class: its rules
// (conjunctions of conditions) with the smoothed (negative, positive)
// rates of the training rows each covers, and the rates of the rows none
// covers.
type describedRuleSet struct {
	Class     int                  `json:"class"`
	Rules     [][]describedCond    `json:"rules"`
	RuleProb  [][2]learn.JSONFloat `json:"rule_prob"`
	Uncovered [2]learn.JSONFloat   `json:"uncovered"`
}

// describedModel is the JSON of a one-vs-rest RIPPER model: present lists
// the training classes; with one, it is always predicted; with two, the
// second is predicted when the pooled p of the firing rules (or the
// uncovered p) exceeds 0.5; with more, the class of highest p (the later
// class on ties).
type describedModel struct {
	Columns  []describedColumn  `json:"columns"`
	Present  []int              `json:"present"`
	RuleSets []describedRuleSet `json:"rule_sets"`
}

// Describe returns the model as data (learn.Describer).
func (m *Model) Describe(s learn.Schema) (learn.Description, error) {
	dm := describedModel{Present: m.present, RuleSets: []describedRuleSet{}}
	for _, c := range m.columns {
		dm.Columns = append(dm.Columns, describedColumn{Binned: c.binned, Lefts: learn.Floats(c.lefts),
			Rights: learn.Floats(c.rights), Values: learn.Floats(c.values)})
	}
	for e, est := range m.estimators {
		rs := describedRuleSet{Class: m.positives[e], Rules: [][]describedCond{}, RuleProb: [][2]learn.JSONFloat{},
			Uncovered: [2]learn.JSONFloat{learn.JSONFloat(est.uncovered[0]), learn.JSONFloat(est.uncovered[1])}}
		for i, r := range est.rules {
			conds := []describedCond{}
			for _, c := range r {
				conds = append(conds, describedCond{Feature: m.conds[c].feature, Code: m.conds[c].code})
			}
			rs.Rules = append(rs.Rules, conds)
			rs.RuleProb = append(rs.RuleProb, [2]learn.JSONFloat{learn.JSONFloat(est.ruleProb[i][0]), learn.JSONFloat(est.ruleProb[i][1])})
		}
		dm.RuleSets = append(dm.RuleSets, rs)
	}
	return learn.NewDescription(Kind, m, s, dm)
}

// ModelFromJSON rebuilds a model from the Model field of its Description,
// validating it first: malformed JSON is an error, never a panic at
// prediction.
func ModelFromJSON(raw json.RawMessage) (*Model, error) {
	var dm describedModel
	if err := json.Unmarshal(raw, &dm); err != nil {
		return nil, err
	}
	m := &Model{present: dm.Present}
	for j, dc := range dm.Columns {
		c := &column{binned: dc.Binned}
		if dc.Binned {
			c.lefts, c.rights = learn.Float64s(dc.Lefts), learn.Float64s(dc.Rights)
			if len(c.lefts) != len(c.rights) || len(c.rights) == 0 || !sort.Float64sAreSorted(c.rights) {
				return nil, fmt.Errorf("column %d: bins are not sorted pairs of edges", j)
			}
		} else {
			c.values, c.valueOf = learn.Float64s(dc.Values), map[float64]int{}
			for k, v := range c.values {
				if _, dup := c.valueOf[v]; dup {
					return nil, fmt.Errorf("column %d: value %v twice", j, v)
				}
				c.valueOf[v] = k
			}
		}
		m.columns = append(m.columns, c)
	}
	switch {
	case len(dm.Present) == 0:
		return nil, fmt.Errorf("no training class")
	case len(dm.Present) == 1 && len(dm.RuleSets) != 0,
		len(dm.Present) == 2 && len(dm.RuleSets) != 1,
		len(dm.Present) > 2 && len(dm.RuleSets) != len(dm.Present):
		return nil, fmt.Errorf("%d rule sets for %d classes", len(dm.RuleSets), len(dm.Present))
	}
	for _, rs := range dm.RuleSets {
		if len(rs.RuleProb) != len(rs.Rules) {
			return nil, fmt.Errorf("class %d: %d rule rates for %d rules", rs.Class, len(rs.RuleProb), len(rs.Rules))
		}
		est := binaryModel{uncovered: [2]float64{float64(rs.Uncovered[0]), float64(rs.Uncovered[1])}}
		for i, conds := range rs.Rules {
			var r rule
			for _, c := range conds {
				if c.Feature < 0 || c.Feature >= len(m.columns) || c.Code < missingCode {
					return nil, fmt.Errorf("class %d rule %d: condition on feature %d code %d", rs.Class, i, c.Feature, c.Code)
				}
				r = append(r, int32(len(m.conds)))
				m.conds = append(m.conds, cond{feature: c.Feature, code: c.Code})
			}
			est.rules = append(est.rules, r)
			est.ruleProb = append(est.ruleProb, [2]float64{float64(rs.RuleProb[i][0]), float64(rs.RuleProb[i][1])})
		}
		m.estimators = append(m.estimators, est)
		m.positives = append(m.positives, rs.Class)
	}
	return m, nil
}

var _ learn.Describer = (*Model)(nil)
