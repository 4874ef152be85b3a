package methods

import (
	"bytes"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/learn"
)

// TestAllowedValues: the table's "allowed" column is an enum's values, or
// the bounds a parameter has.
func TestAllowedValues(t *testing.T) {
	cases := []struct {
		p    learn.Param
		want string
	}{
		{learn.Param{Kind: learn.Enum, Values: []string{"gini", "entropy"}}, "gini|entropy"},
		{learn.Param{Kind: learn.Float, HasMin: true, Min: 0, HasMax: true, Max: 1}, "[0, 1]"},
		{learn.Param{Kind: learn.Int, HasMin: true, Min: 2}, ">= 2"},
		{learn.Param{Kind: learn.Float, HasMax: true, Max: 0.5}, "<= 0.5"},
		{learn.Param{Kind: learn.Bool}, ""},
	}
	for _, c := range cases {
		if got := allowedValues(c.p); got != c.want {
			t.Errorf("%+v: %q, want %q", c.p, got, c.want)
		}
	}
}

// TestDescribeShowsWhatGridPointsChange: a grid point lists only the
// parameters it sets away from the defaults, and "defaults" when none.
func TestDescribeShowsWhatGridPointsChange(t *testing.T) {
	m, err := Lookup("cart")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	Describe(&b, m)
	out := b.String()
	for _, want := range []string{"cart (version 1)\n", "  parameter ", "criterion ", "gini|entropy",
		"  grid default (1 points): defaults\n", "  grid text (3 points): defaults; ccp_alpha=0.001; ccp_alpha=0.003\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("Describe(cart) lacks %q:\n%s", want, out)
		}
	}
}
