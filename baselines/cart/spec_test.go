package cart_test

import (
	"fmt"
	"testing"

	"github.com/fgrtbench/fgrtbench/baselines/cart"
	"github.com/fgrtbench/fgrtbench/learn"
)

func TestCARTSpec(t *testing.T) {
	cases := []struct {
		method, grid string
		points       int
		criterion    cart.Criterion
	}{
		{"cart", "default", 1, cart.Gini},
		{"cart", "text", 3, cart.Gini},
		{"c45-entropy", "default", 1, cart.Entropy},
		{"c45-entropy", "text", 2, cart.Entropy},
	}
	for _, tc := range cases {
		t.Run(tc.method+"/"+tc.grid, func(t *testing.T) {
			m, err := lookup(tc.method)
			if err != nil {
				t.Fatal(err)
			}
			cfgs, err := m.Expand(tc.grid, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(cfgs) != tc.points {
				t.Fatalf("%d points, want %d", len(cfgs), tc.points)
			}
			for _, cfg := range cfgs {
				tr, err := m.New(cfg, 123)
				if err != nil {
					t.Fatal(err)
				}
				p := tr.(*cart.Trainer).Config()
				if p.Criterion != tc.criterion || p.RandomState != 42 || p.MinSamplesSplit != 5 || p.MinSamplesLeaf != 2 {
					t.Errorf("config %s gives %+v", cfg, p)
				}
			}
		})
	}
	m, _ := lookup("cart")
	text, _ := m.Expand("text", nil)
	if a := text[2].Float("ccp_alpha"); a != 0.003 {
		t.Errorf("text grid third ccp_alpha = %v", a)
	}
	c45, _ := lookup("c45-entropy")
	text, _ = c45.Expand("text", nil)
	if d := text[1].Int("max_depth"); d != 10 {
		t.Errorf("c45-entropy text grid second max_depth = %d", d)
	}
}

func TestCARTParamValidation(t *testing.T) {
	m, err := lookup("cart")
	if err != nil {
		t.Fatal(err)
	}
	bad := []map[string]string{
		{"min_samples_split": "1"},
		{"min_samples_leaf": "0"},
		{"ccp_alpha": "-0.1"},
		{"ccp_alpha": "NaN"},
		{"criterion": "gain_ratio"},
		{"max_depth": "-1"},
		{"random_state": "-1"},
		{"min_impurity_decrease": "-1"},
		{"splitter": "random"},
	}
	for _, o := range bad {
		if _, err := m.Resolve(o); err == nil {
			t.Errorf("Resolve(%v) accepted an invalid value", o)
		}
	}
}

// lookup finds one of the package's specs by method name, as the
// registry's Lookup does.
func lookup(name string) (*learn.Spec, error) {
	specs := map[string]*learn.Spec{
		"cart":        cart.Spec,
		"c45-entropy": cart.EntropySpec,
	}
	if s, ok := specs[name]; ok {
		return s, nil
	}
	return nil, fmt.Errorf("no spec %q", name)
}
