package methods

import (
	"fmt"
	"maps"
	"testing"

	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/learn/learntest"
)

// TestExecutionParamsDoNotChangeResults fits every method with each of its
// Execution parameters at the two values of its Proof (on every
// conformance problem, with the configurations its spec's Conformance
// lists, two seeds) and requires identical predictions, complexity and
// rules: what leaving the parameter out of the config column and the unit
// identity assumes.
func TestExecutionParamsDoNotChangeResults(t *testing.T) {
	for _, name := range Names() {
		m, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range m.Params {
			if !p.Execution {
				continue
			}
			// A parameter declared Execution without two values to prove it
			// fails: the declaration is a claim that needs this proof.
			values := p.Proof
			if values[0] == "" || values[0] == values[1] {
				t.Errorf("%s: parameter %s is declared Execution but its Proof names no two values to prove it", name, p.Name)
				continue
			}
			variants := m.Conformance
			if len(variants) == 0 {
				variants = []map[string]string{nil}
			}
			for _, variant := range variants {
				for _, d := range learntest.Problems() {
					for _, seed := range []int64{1, 2} {
						var out [2]string
						for i, v := range values {
							overrides := maps.Clone(variant)
							if overrides == nil {
								overrides = map[string]string{}
							}
							overrides[p.Name] = v
							cfg, err := m.Resolve(overrides)
							if err != nil {
								t.Fatal(err)
							}
							out[i] = fitSummary(m, cfg, d, seed)
						}
						if out[0] != out[1] {
							t.Errorf("%s %v on %s, seed %d: %s=%s and %s=%s differ:\n%s\n%s", name, variant, d.Name, seed, p.Name, values[0], p.Name, values[1], out[0], out[1])
						}
					}
				}
			}
		}
	}
}

// fitSummary renders everything a fit reports (or its error).
func fitSummary(m *learn.Spec, cfg learn.Values, d learntest.Data, seed int64) string {
	tr, err := m.New(cfg, seed)
	if err != nil {
		return "new: " + err.Error()
	}
	model, err := tr.Fit(d.XTrain, d.YTrain, d.Schema)
	if err != nil {
		return "fit: " + err.Error()
	}
	return fmt.Sprintf("%v\n%+v\n%s", model.Predict(d.XTest), model.Complexity(), model.Rules(d.Schema))
}

func TestCanonicalLeavesOutExecutionParams(t *testing.T) {
	m, err := Lookup("fga")
	if err != nil {
		t.Fatal(err)
	}
	a, _ := m.Resolve(map[string]string{"workers": "1"})
	b, _ := m.Resolve(map[string]string{"workers": "4"})
	if m.Canonical(a) != m.Canonical(b) {
		t.Fatalf("canonical configs differ: %s vs %s", m.Canonical(a), m.Canonical(b))
	}
	want := "crossover_prob=0.3;generations=100;n_ants=3;n_labels=3;n_rules=15;partition=quantile;partitions=evolved;population=50;tolerance=0.01;trapezoid=paper"
	if got := m.Canonical(a); got != want {
		t.Fatalf("canonical %s, want %s", got, want)
	}
	if got := m.Execution(b).String(); got != "workers=4" {
		t.Fatalf("execution %s", got)
	}
	if a.Int("workers") != 1 {
		t.Fatal("the resolved config lost workers: the learner would not get it")
	}
	c, _ := Lookup("cart")
	if ex := c.Execution(c.Defaults()); ex != nil {
		t.Fatalf("cart has execution params %v", ex)
	}
}
