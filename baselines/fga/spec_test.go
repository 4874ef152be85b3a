package fga_test

import (
	"fmt"
	"testing"

	"github.com/fgrtbench/fgrtbench/baselines/fga"
	"github.com/fgrtbench/fgrtbench/fuzzy"
	"github.com/fgrtbench/fgrtbench/learn"
)

func TestFGASpec(t *testing.T) {
	m, err := lookup("fga")
	if err != nil {
		t.Fatal(err)
	}
	if !m.Stochastic {
		t.Error("fga must be stochastic")
	}
	cases := []struct {
		grid              string
		generations, pop  int
		rules, ants, labs int
	}{
		{"default", 100, 50, 15, 3, 3},
		{"small", 20, 20, 15, 3, 3},
	}
	for _, tc := range cases {
		cfgs, err := m.Expand(tc.grid, nil)
		if err != nil || len(cfgs) != 1 {
			t.Fatalf("grid %s: %v, %d points", tc.grid, err, len(cfgs))
		}
		tr, err := m.New(cfgs[0], 77)
		if err != nil {
			t.Fatal(err)
		}
		o := tr.(*fga.Trainer).Config()
		if o.Generations != tc.generations || o.Population != tc.pop || o.Rules != tc.rules ||
			o.Antecedents != tc.ants || o.Labels != tc.labs || o.Tolerance != 0.01 ||
			o.CrossoverProb != 0.3 || o.Seed != 77 || o.Workers != 0 || o.HeadTrapezoid {
			t.Errorf("grid %s gives %+v", tc.grid, o)
		}
	}
	for _, bad := range []map[string]string{
		{"n_labels": "1"}, {"population": "1"}, {"crossover_prob": "2"}, {"trapezoid": "new"}, {"workers": "-1"}, {"nope": "1"},
	} {
		if _, err := m.Resolve(bad); err == nil {
			t.Errorf("override %v accepted", bad)
		}
	}
	cfg, err := m.Resolve(map[string]string{"trapezoid": "head", "workers": "3"})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := m.New(cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	if o := tr.(*fga.Trainer).Config(); !o.HeadTrapezoid || o.Workers != 3 {
		t.Errorf("overrides not applied: %+v", o)
	}
}

// TestFGAPartitionModes: evolved is the default (of every protocol: the
// runner adds no protocol-specific parameter), fixed and the paper's
// formula are parameters, and contradictory settings are refused.
func TestFGAPartitionModes(t *testing.T) {
	m, _ := lookup("fga")
	cases := []struct {
		params map[string]string
		fixed  bool
		style  fuzzy.Style
		err    bool
	}{
		{nil, false, fuzzy.QuantileStyle, false},
		{map[string]string{"partitions": "fixed"}, true, fuzzy.QuantileStyle, false},
		{map[string]string{"partitions": "fixed", "partition": "paper"}, true, fuzzy.PaperStyle, false},
		{map[string]string{"partitions": "fixed", "partition": "paper", "n_labels": "5"}, false, 0, true},
		{map[string]string{"partition": "paper"}, false, 0, true},
		{map[string]string{"partitions": "fixed", "trapezoid": "head"}, false, 0, true},
	}
	for _, c := range cases {
		cfg, err := m.Resolve(c.params)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := m.New(cfg, 1)
		if c.err {
			if err == nil {
				t.Errorf("%v accepted", c.params)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%v: %v", c.params, err)
		}
		if o := tr.(*fga.Trainer).Config(); o.Fixed != c.fixed || o.Style != c.style {
			t.Errorf("%v: fixed %v style %v", c.params, o.Fixed, o.Style)
		}
	}
	if _, err := m.Resolve(map[string]string{"partitions": "learned"}); err == nil {
		t.Error("partitions=learned accepted")
	}
}

// lookup finds one of the package's specs by method name, as the
// registry's Lookup does.
func lookup(name string) (*learn.Spec, error) {
	specs := map[string]*learn.Spec{
		"fga": fga.Spec,
	}
	if s, ok := specs[name]; ok {
		return s, nil
	}
	return nil, fmt.Errorf("no spec %q", name)
}
