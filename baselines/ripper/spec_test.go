package ripper_test

import (
	"fmt"
	"testing"

	"github.com/fgrtbench/fgrtbench/baselines/ripper"
	"github.com/fgrtbench/fgrtbench/learn"
)

func TestRipperSpec(t *testing.T) {
	m, err := lookup("ripper")
	if err != nil {
		t.Fatal(err)
	}
	if !m.Stochastic {
		t.Error("ripper must be stochastic (the seed drives the grow/prune splits)")
	}
	cfgs, err := m.Expand("default", nil)
	if err != nil || len(cfgs) != 1 {
		t.Fatalf("default grid: %v %v", cfgs, err)
	}
	want := learn.Values{"k": "2", "prune_size": "0.33", "dl_allowance": "64", "n_discretize_bins": "10", "max_rules": "0", "max_rule_conds": "0"}
	if cfgs[0].String() != want.String() {
		t.Errorf("defaults %s, want %s", cfgs[0], want)
	}
	tr, err := m.New(cfgs[0], 3)
	if err != nil {
		t.Fatal(err)
	}
	X := [][]float64{{0}, {1}, {0}, {1}, {0}, {1}, {0}, {1}}
	y := []int{0, 1, 0, 1, 0, 1, 0, 1}
	s := learn.Schema{Features: []learn.Feature{{Name: "f", Nominal: true, Categories: []string{"a", "b"}}}, Classes: []string{"n", "p"}}
	model, err := tr.Fit(X, y, s)
	if err != nil {
		t.Fatal(err)
	}
	if acc := learn.Accuracy(y, model.Predict(X)); acc != 1 {
		t.Errorf("accuracy %v\n%s", acc, model.Rules(s))
	}
	for _, bad := range []map[string]string{{"k": "-1"}, {"prune_size": "1"}, {"n_discretize_bins": "0"}, {"max_rules": "x"}} {
		if _, err := m.Resolve(bad); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}

// lookup finds one of the package's specs by method name, as the
// registry's Lookup does.
func lookup(name string) (*learn.Spec, error) {
	specs := map[string]*learn.Spec{
		"ripper": ripper.Spec,
	}
	if s, ok := specs[name]; ok {
		return s, nil
	}
	return nil, fmt.Errorf("no spec %q", name)
}
