package learn

import (
	"strings"
	"testing"
)

// TestParamCanonical: every spelling Check accepts has one canonical form,
// which Check accepts too and which is its own canonical form.
func TestParamCanonical(t *testing.T) {
	for _, c := range []struct {
		kind Kind
		in   []string
		want string
	}{
		{Bool, []string{"true", "True", "TRUE", "1", "T", "t"}, "true"},
		{Bool, []string{"false", "False", "0", "F", "f"}, "false"},
		{Int, []string{"0", "-0", "+0", "000"}, "0"},
		{Int, []string{"7", "07", "+7"}, "7"},
		{Int, []string{"-3", "-03"}, "-3"},
		{Float, []string{"0", "-0", "-0.0", "0.000", "0e9", "-0e-9"}, "0"},
		{Float, []string{"0.5", ".5", "0.50", "5e-1", "+0.5"}, "0.5"},
		{Float, []string{"1000", "1e3", "1000.0"}, "1000"},
		{Float, []string{"1e-05", "0.00001"}, "1e-05"},
		{Enum, []string{"gini"}, "gini"},
		{String, []string{" True "}, " True "},
	} {
		p := Param{Name: "p", Kind: c.kind, Values: []string{"gini"}}
		for _, v := range c.in {
			if err := p.Check(v); err != nil {
				t.Fatalf("%v %q: %v", c.kind, v, err)
			}
			got := p.Canonical(v)
			if got != c.want || p.Canonical(got) != got || p.Check(got) != nil {
				t.Errorf("%v: Canonical(%q) = %q, want %q (a fixed point Check accepts)", c.kind, v, got, c.want)
			}
		}
	}
}

// TestSpecRefusesNonCanonicalDefault: a default is written into config
// strings as it is, so it must be canonical.
func TestSpecRefusesNonCanonicalDefault(t *testing.T) {
	s := &Spec{Name: "m", Version: 1, New: func(Values, int64) (Trainer, error) { return nil, nil },
		Params: []Param{{Name: "flag", Kind: Bool, Default: "True"}}}
	if err := s.Check(); err == nil || !strings.Contains(err.Error(), `default of flag is "True"; write it as "true"`) {
		t.Errorf("Check() = %v", err)
	}
}
