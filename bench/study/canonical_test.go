package study

import (
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/protocol"
)

// TestCanonicalConfigurations (issue 30, "canonical configurations"): a
// value's spellings give one configuration string, and a sweep or grid that
// lists one configuration twice, in any spelling, is refused.
func TestCanonicalConfigurations(t *testing.T) {
	study := func(m MethodSpec) Study {
		return Study{Protocols: []string{"clean"}, Datasets: []string{"d"}, Methods: []MethodSpec{m}, Options: protocol.DefaultOptions()}
	}
	configs := func(t *testing.T, m MethodSpec) []string {
		t.Helper()
		if m.Grid != "" && m.Name != "fgrt" {
			m.Grid = "" // only fgrt has a grid named fixed; the others' default is one point
		}
		ms, err := study(m).Resolve()
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, c := range ms[0].Configs {
			out = append(out, ms[0].Method.Canonical(c))
		}
		return out
	}
	// One configuration, spelled differently: the same string.
	for _, c := range []struct {
		method, param string
		spellings     []string
		want          string // in the config string
	}{
		{"fgrt", "fix_q1", []string{"true", "True", "TRUE", "1", "T", "t"}, "fix_q1=true"},
		{"fgrt", "fix_q2", []string{"false", "False", "0", "F", "f"}, "fix_q2=false"},
		{"fgrt", "coverage_threshold", []string{"0", "-0", "-0.0", "0.0", "+0", "0e5", "-0e-3"}, "coverage_threshold=0;"},
		{"fgrt", "min_improvement", []string{"0.01", "0.010", "1e-2", "+.01"}, "min_improvement=0.01;"},
		{"fgrt", "max_rules", []string{"12", "012", "+12"}, "max_rules=12;"},
		{"cart", "max_depth", []string{"0", "-0", "00", "+0"}, "max_depth=0;"},
		{"c45", "unpruned", []string{"false", "0", "F", "FALSE"}, "unpruned=false"},
	} {
		var first string
		for _, v := range c.spellings {
			got := configs(t, MethodSpec{Name: c.method, Grid: "fixed", Params: map[string]string{c.param: v}})
			if len(got) != 1 || !strings.Contains(got[0]+";", c.want) {
				t.Errorf("%s %s=%q: config %q does not hold %q", c.method, c.param, v, got, c.want)
				continue
			}
			if first == "" {
				first = got[0]
			} else if got[0] != first {
				t.Errorf("%s %s=%q: config %q, but %q gave %q", c.method, c.param, v, got[0], c.spellings[0], first)
			}
		}
	}

	// Sweeps and grids naming one configuration twice are refused.
	for _, c := range []struct {
		name string
		m    MethodSpec
		want string
	}{
		{"bool spellings", MethodSpec{Name: "fgrt", Sweep: map[string][]string{"fix_q1": {"true", "True", "1", "T"}}}, `sweep of fix_q1 lists one value twice ("true" and "True")`},
		{"bool 0 and false", MethodSpec{Name: "fgrt", Sweep: map[string][]string{"fix_q3": {"false", "0"}}}, `("false" and "0")`},
		{"negative zero", MethodSpec{Name: "fgrt", Sweep: map[string][]string{"coverage_threshold": {"-0.0", "0"}}}, `("-0.0" and "0")`},
		{"int spellings", MethodSpec{Name: "cart", Sweep: map[string][]string{"max_depth": {"5", "05"}}}, `("5" and "05")`},
		{"grid collapsed by params", MethodSpec{Name: "c45-entropy", Grid: "text", Params: map[string]string{"max_depth": "3"}}, "configurations 1 and 2 are one configuration"},
	} {
		_, err := study(c.m).Resolve()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want one saying %q", c.name, err, c.want)
		}
	}

	// Distinct values stay distinct.
	if got := configs(t, MethodSpec{Name: "fgrt", Grid: "", Sweep: map[string][]string{"fix_q1": {"True", "0"}, "coverage_threshold": {"-0.0", "0.5"}}}); len(got) != 4 {
		t.Errorf("a 2x2 sweep gave %d configurations: %q", len(got), got)
	}
}
