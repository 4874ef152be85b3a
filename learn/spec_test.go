package learn

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

var testParams = []Param{
	{Name: "n", Kind: Int, Default: "2", Min: 1, Max: 9, HasMin: true, HasMax: true},
	{Name: "rate", Kind: Float, Default: "0.5", Min: 0, HasMin: true},
	{Name: "mode", Kind: Enum, Default: "a", Values: []string{"a", "b"}},
	{Name: "threads", Kind: Int, Default: "0", Min: 0, HasMin: true, Execution: true, Proof: [2]string{"1", "2"}},
}

// TestCheckBounds: a learner's Go configuration meets the bounds of the
// same declarations the harness checks strings against, with the same
// messages.
func TestCheckBounds(t *testing.T) {
	cases := []struct {
		vs   []Number
		want string // "" = valid
	}{
		{[]Number{{"n", 1}, {"n", 9}, {"rate", 0}, {"rate", 1e300}}, ""},
		{[]Number{{"n", 0}}, "parameter n: 0 is below the minimum 1"},
		{[]Number{{"n", 10}}, "parameter n: 10 is above the maximum 9"},
		{[]Number{{"rate", -0.25}}, "parameter rate: -0.25 is below the minimum 0"},
		{[]Number{{"rate", math.NaN()}}, "parameter rate: NaN is not allowed"},
		{[]Number{{"n", 5}, {"rate", -1}, {"n", 0}}, "parameter rate: -1"}, // the first violation, in order
		{[]Number{{"nope", 1}}, "parameter nope is not declared"},
	}
	for _, tc := range cases {
		err := CheckBounds(testParams, tc.vs...)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%v: %v", tc.vs, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want %q", tc.vs, err, tc.want)
		}
		// The string check of the harness agrees on the same value.
		if len(tc.vs) == 1 && tc.vs[0].Name == "n" {
			p, _ := (&Spec{Params: testParams}).Param("n")
			if perr := p.Check(strconv.FormatFloat(tc.vs[0].Value, 'g', -1, 64)); perr == nil || perr.Error() != err.Error() {
				t.Errorf("Param.Check: %v, CheckBounds: %v", perr, err)
			}
		}
	}
}

// TestSpecConfigurations: resolving, expanding and rendering
// configurations as results.csv and unit identities record them.
func TestSpecConfigurations(t *testing.T) {
	s := &Spec{Name: "toy", Version: 1, Params: testParams,
		Grids: map[string]Grid{"default": {{}}, "sweep": {{"n": "3"}, {"n": "4", "mode": "b"}}},
		New:   func(Values, int64) (Trainer, error) { return nil, nil }}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	c, err := s.Resolve(map[string]string{"rate": "0.25", "threads": "8"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.Canonical(c), "mode=a;n=2;rate=0.25"; got != want {
		t.Errorf("Canonical = %q, want %q (Execution parameters left out)", got, want)
	}
	if got := s.Execution(c).String(); got != "threads=8" {
		t.Errorf("Execution = %q", got)
	}
	back, err := ParseValues(c.String())
	if err != nil || back.String() != c.String() {
		t.Errorf("round trip %q -> %q, %v", c.String(), back.String(), err)
	}
	pts, err := s.Expand("sweep", map[string]string{"mode": "a"})
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 2 || pts[0].Int("n") != 3 || pts[1].Str("mode") != "a" {
		t.Errorf("Expand: %v (extra overrides win over grid points)", pts)
	}
	for _, bad := range []map[string]string{{"n": "0"}, {"mode": "c"}, {"rate": "x"}, {"other": "1"}} {
		if _, err := s.Resolve(bad); err == nil {
			t.Errorf("Resolve(%v) accepted", bad)
		}
	}
	if _, err := s.Expand("missing", nil); err == nil || !strings.Contains(err.Error(), "valid: default, sweep") {
		t.Errorf("Expand(missing): %v", err)
	}
	if s.Title() != "toy" {
		t.Errorf("Title without DisplayName = %q", s.Title())
	}
}
