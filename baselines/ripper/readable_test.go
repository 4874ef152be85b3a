package ripper

import (
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/learn"
)

// TestReadableRulesStats recomputes each readable rule's coverage and
// confidence, and the default rule's, through the prediction path (rows
// encoded as Predict encodes them, rules matched by covers), not the
// training bitsets the fit counted them on, and checks that every row no
// rule covers is predicted the default rule's class.
func TestReadableRulesStats(t *testing.T) {
	for _, c := range []struct {
		name string
		data func() ([][]float64, []int, learn.Schema)
	}{
		{"three classes", func() ([][]float64, []int, learn.Schema) { return noisy(400, 11) }},
		{"two classes", func() ([][]float64, []int, learn.Schema) { return separable(300, 2, 7) }},
		{"one class", func() ([][]float64, []int, learn.Schema) {
			X, _, s := separable(20, 2, 7)
			return X, make([]int, len(X)), s
		}},
	} {
		X, y, s := c.data()
		m := fitDefault(t, X, y, s, 5).(*Model)
		text := m.ReadableRules(s, nil)
		lines := learn.RuleLines(text)
		dflt := learn.DefaultRule(text)
		if dflt == "" {
			t.Fatalf("%s: no default rule:\n%s", c.name, text)
		}
		pred := m.Predict(X)
		codes := make([]int, len(m.columns))
		n := float64(len(X))
		var want []string
		covered := make([]bool, len(X))
		for e, est := range m.estimators {
			for _, r := range est.rules {
				var cov, ok float64
				for i, row := range X {
					m.encode(row, codes)
					if m.covers(r, codes) {
						covered[i] = true
						cov++
						if y[i] == m.positives[e] {
							ok++
						}
					}
				}
				want = append(want, learn.RuleStats(cov/n, ok/max(cov, 1)))
			}
		}
		if len(lines) != len(want) {
			t.Fatalf("%s: %d rule lines for %d rules", c.name, len(lines), len(want))
		}
		for i, line := range lines {
			if !strings.HasSuffix(line, want[i]) {
				t.Errorf("%s: rule %d %q, recomputed%s", c.name, i+1, line, want[i])
			}
		}
		cls := strings.TrimSuffix(strings.TrimPrefix(dflt[:strings.Index(dflt, "  [")], learn.DefaultRulePrefix+"class "), " ")
		var rest, ok float64
		for i := range X {
			if covered[i] {
				continue
			}
			rest++
			if s.ClassName(pred[i]) != cls {
				t.Errorf("%s: row %d, which no rule covers, is predicted class %s, the default rule says %s", c.name, i, s.ClassName(pred[i]), cls)
				break
			}
			if s.ClassName(y[i]) == cls {
				ok++
			}
		}
		if w := learn.RuleStats(rest/n, ok/max(rest, 1)); !strings.HasSuffix(dflt, w) {
			t.Errorf("%s: default rule %q, recomputed%s", c.name, dflt, w)
		}
		// a model rebuilt from its description knows no training rows
		d, err := m.Describe(s)
		if err != nil {
			t.Fatal(err)
		}
		back, err := ModelFromJSON(d.Model)
		if err != nil {
			t.Fatal(err)
		}
		if got := back.ReadableRules(s, nil); strings.Contains(got, "[coverage") || learn.DefaultRule(got) != dflt[:strings.Index(dflt, "  [")] {
			t.Errorf("%s: rebuilt model's readable rules:\n%s", c.name, got)
		}
	}
}

func TestReadableConditions(t *testing.T) {
	// x in 1..100, class 1 iff x > 50: bins as intervals, in the data's
	// units through unscale
	var X [][]float64
	var y []int
	for v := 1; v <= 100; v++ {
		X = append(X, []float64{float64(v)})
		y = append(y, map[bool]int{false: 0, true: 1}[v > 50])
	}
	s := learn.Schema{Features: []learn.Feature{{Name: "x"}}, Classes: []string{"low", "high"}}
	m := fitDefault(t, X, y, s, 3).(*Model)
	got := m.ReadableRules(s, func(_ int, v float64) float64 { return v * 10 })
	for _, bad := range []string{"x=", "=<", "=>"} {
		if strings.Contains(got, bad) {
			t.Errorf("readable rules keep the learner's spelling %q:\n%s", bad, got)
		}
	}
	for _, want := range []string{
		"IF 505.0 < x <= 604.0 THEN class high  [coverage 0.100, confidence 1.000]\n", // learner: x=50.5-60.4
		"IF x > 901.0 THEN class high  [coverage 0.100, confidence 1.000]\n",          // learner: x=>90.1
	} {
		if !strings.Contains(got, want) {
			t.Errorf("readable rules lack %q:\n%s\nlearner's:\n%s", want, got, m.Rules(s))
		}
	}
	if !strings.Contains(got, "ELSE class low  [coverage 0.500, confidence 1.000]") {
		t.Errorf("no default rule for the rows of class low:\n%s", got)
	}
}
