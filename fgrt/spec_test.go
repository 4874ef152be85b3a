package fgrt_test

import (
	"fmt"
	"testing"

	"github.com/fgrtbench/fgrtbench/fgrt"
	"github.com/fgrtbench/fgrtbench/fgrt/partopt"
	"github.com/fgrtbench/fgrtbench/learn"
)

func TestFGRTSpec(t *testing.T) {
	cases := []struct {
		method, grid string
		points       int
	}{
		{"fgrt", "default", 16}, {"fgrt", "ofat", 14}, {"fgrt", "fixed", 1},
		{"fgrt-opt", "default", 16}, {"fgrt-opt", "ofat", 14}, {"fgrt-opt", "fixed", 1},
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
			seen := map[string]bool{}
			for _, cfg := range cfgs {
				if seen[cfg.String()] {
					t.Errorf("duplicate point %s", cfg)
				}
				seen[cfg.String()] = true
				tr, err := m.New(cfg, 1)
				if err != nil {
					t.Fatal(err)
				}
				o := tr.(*fgrt.Trainer).Config()
				if o.MaxRules != cfg.Int("max_rules") || o.CoverageThreshold != cfg.Float("coverage_threshold") ||
					o.MinImprovement != cfg.Float("min_improvement") || o.Patience != 3 || o.EarlyStopThreshold != 0 || o.FixQ1 || o.FixQ2 || o.FixQ3 || o.Clamp || o.FixIntMatrix {
					t.Errorf("config %s gives %+v", cfg, o)
				}
				if o.Optimize != (tc.method == "fgrt-opt") || o.Strategy != partopt.Grid {
					t.Errorf("config %s: optimize %v strategy %v", cfg, o.Optimize, o.Strategy)
				}
			}
		})
	}
}

func TestFGRTPaperGridOrder(t *testing.T) {
	m, _ := lookup("fgrt")
	cfgs, err := m.Expand("default", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := [16][3]float64{
		{5, 0.01, 0.01}, {10, 0.01, 0.01}, {15, 0.01, 0.01}, {20, 0.01, 0.01}, {30, 0.01, 0.01},
		{15, 0, 0.01}, {15, 0.03, 0.01}, {15, 0.05, 0.01}, {15, 0.10, 0.01},
		{15, 0.01, 0}, {15, 0.01, 0.005}, {15, 0.01, 0.02}, {15, 0.01, 0.05},
		{20, 0.03, 0.01}, {10, 0.05, 0.005}, {25, 0.01, 0.005},
	}
	for i, c := range cfgs {
		got := [3]float64{float64(c.Int("max_rules")), c.Float("coverage_threshold"), c.Float("min_improvement")}
		if got != want[i] {
			t.Errorf("point %d: %v, want %v", i, got, want[i])
		}
	}
}

func TestFGRTParamErrors(t *testing.T) {
	m, _ := lookup("fgrt-opt")
	bad := []map[string]string{
		{"max_rule": "5"},
		{"max_rules": "0"},
		{"coverage_threshold": "-0.1"},
		{"min_improvement": "-1"},
		{"patience": "0"},
		{"partition": "cuts"},
		{"strategy": "anneal"},
		{"out_of_range": "wrap"},
		{"fix_q1": "maybe"},
		{"early_stop_threshold": "-0.5"},
		{"fix_int_matrix": "2"},
	}
	for _, o := range bad {
		if _, err := m.Resolve(o); err == nil {
			t.Errorf("%v: no error", o)
		}
	}
	if _, err := lookup("fgrt"); err != nil {
		t.Fatal(err)
	}
	plain, _ := lookup("fgrt")
	if _, err := plain.Resolve(map[string]string{"strategy": "grid"}); err == nil {
		t.Error("fgrt accepts strategy")
	}
	cfg, err := m.Resolve(map[string]string{"strategy": "hybrid", "fix_q3": "true", "out_of_range": "clamp", "partition": "paper"})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := m.New(cfg, 0)
	if err != nil {
		t.Fatal(err)
	}
	o := tr.(*fgrt.Trainer).Config()
	if o.Strategy != partopt.Hybrid || !o.FixQ3 || !o.Clamp || o.Style.String() != "paper" {
		t.Errorf("options %+v", o)
	}
}

// lookup finds one of the package's specs by method name, as the
// registry's Lookup does.
func lookup(name string) (*learn.Spec, error) {
	specs := map[string]*learn.Spec{
		"fgrt":     fgrt.Spec,
		"fgrt-opt": fgrt.OptSpec,
	}
	if s, ok := specs[name]; ok {
		return s, nil
	}
	return nil, fmt.Errorf("no spec %q", name)
}

// TestSpecConstructors: each spec builds the trainer of its own
// parameters (FGRT keeps FGRT*'s defaults and Optimize off, FGRT* turns
// Optimize on) and refuses a parameter only the other declares.
func TestSpecConstructors(t *testing.T) {
	for _, tc := range []struct {
		spec         *learn.Spec
		values       learn.Values
		wantOptimize bool
		wantStrategy partopt.Strategy
		wantErr      string
	}{
		{fgrt.Spec, learn.Values{"max_rules": "7"}, false, partopt.Grid, ""},
		{fgrt.OptSpec, learn.Values{"max_rules": "7"}, true, partopt.Grid, ""},
		{fgrt.OptSpec, learn.Values{"max_rules": "7", "strategy": "hybrid"}, true, partopt.Hybrid, ""},
		{fgrt.Spec, learn.Values{"strategy": "hybrid"}, false, 0, "fgrt: parameter strategy is not declared"},
		{fgrt.Spec, learn.Values{"max_rules": "0"}, false, 0, "fgrt: parameter max_rules: 0 is below the minimum 1"},
	} {
		tr, err := tc.spec.New(tc.values, 1)
		if tc.wantErr != "" {
			if tr != nil || err == nil || err.Error() != tc.wantErr {
				t.Errorf("%s %v: got %v, %v; want the error %q", tc.spec.Name, tc.values, tr, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s %v: %v", tc.spec.Name, tc.values, err)
		}
		c := tr.(*fgrt.Trainer).Config()
		want := fgrt.DefaultConfig()
		want.MaxRules, want.Optimize, want.Strategy = 7, tc.wantOptimize, tc.wantStrategy
		if c != want {
			t.Errorf("%s %v: config %+v, want %+v", tc.spec.Name, tc.values, c, want)
		}
	}
}
