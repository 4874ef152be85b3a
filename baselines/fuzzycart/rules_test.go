package fuzzycart_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/baselines/fuzzycart"
	"github.com/fgrtbench/fgrtbench/fuzzy"
	"github.com/fgrtbench/fgrtbench/learn"
)

// exFuzzyMembership is Ex-Fuzzy 2.1.5's trapezoidal membership, written
// here from its definition (a vertical left shoulder moves a down by
// 1e-4, a vertical right one d up) so that the test recomputes the
// rules' statistics without the package's own code.
func exFuzzyMembership(t fuzzy.Term, x float64) float64 {
	if t.Crisp {
		if x == t.Category.Value {
			return 1
		}
		return 0
	}
	a, b, c, d := t.Shape.A, t.Shape.B, t.Shape.C, t.Shape.D
	if a == d {
		if x == a {
			return 1
		}
		return 0
	}
	if a == b {
		a -= 1e-4
	}
	if c == d {
		d += 1e-4
	}
	return math.Min(math.Max(math.Min((x-a)/(b-a), (d-x)/(d-c)), 0), 1)
}

// TestRulesPrintConfidence recomputes every printed rule's coverage and
// confidence from the partitions and the training rows: the membership
// of a row in a node is the product of its path's term memberships, the
// coverage their mean, the confidence the share of their sum that rows of
// the rule's class hold.
func TestRulesPrintConfidence(t *testing.T) {
	g := readGolden(t, "testdata/synthetic.json")
	checked := 0
	for _, c := range g.Cases[:2] {
		nClasses := 0
		for _, y := range c.YTrain {
			nClasses = max(nClasses, y+1)
		}
		s := schemaFor(c.Nominal, len(c.XTrain[0]), nClasses)
		for _, r := range c.Runs[:min(len(c.Runs), 4)] {
			m := fitRun(t, r, c.XTrain, c.YTrain, s)
			want := map[string]string{} // antecedent and class → stats
			for id := range m.Nodes {
				mass := make([]float64, nClasses)
				var conds []string
				var sum float64
				for i, x := range c.XTrain {
					w := 1.0
					for p := id; p > 0; p = m.Nodes[p].Parent {
						w *= exFuzzyMembership(m.Partitions[m.Nodes[p].Feature].Terms[m.Nodes[p].Term], x[m.Nodes[p].Feature])
					}
					mass[c.YTrain[i]] += w
					sum += w
				}
				for p := id; p > 0; p = m.Nodes[p].Parent {
					q := m.Nodes[p]
					conds = append([]string{fmt.Sprintf("%s IS %s", s.FeatureName(q.Feature), termLabel(s, m, q.Feature, q.Term))}, conds...)
				}
				ante := "TRUE"
				if len(conds) > 0 {
					ante = strings.Join(conds, " AND ")
				}
				for k := range mass {
					conf := 0.0
					if sum > 0 {
						conf = mass[k] / sum
					}
					want[fmt.Sprintf("IF %s THEN class %s", ante, s.ClassName(k))] = learn.RuleStats(sum/float64(len(c.XTrain)), conf)
				}
			}
			for _, line := range learn.RuleLines(m.Rules(s)) {
				rule, stats, ok := strings.Cut(line, "  [")
				if !ok {
					t.Fatalf("rule %q has no statistics", line)
				}
				if w, found := want[rule]; !found || "  ["+stats != w {
					t.Errorf("%v: %q, recomputed %q", r.Config, line, w)
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no rule checked")
	}
}

// termLabel is the name Rules gives term t of feature f.
func termLabel(s learn.Schema, m *fuzzycart.Model, f, t int) string {
	term := m.Partitions[f].Terms[t]
	if term.Crisp && s.Features[f].Nominal && len(s.Features[f].Categories) > int(term.Category.Value) {
		return s.Features[f].Categories[int(term.Category.Value)]
	}
	return term.Name
}
