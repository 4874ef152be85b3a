package learn

import "testing"

// TestValuesRoundTrip: the text form of Values (results.csv's config
// column) parses back to the same assignment, is canonical (sorted by name)
// and refuses a part that is not name=value.
func TestValuesRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		in, canon string
		bad       bool
	}{
		{"", "", false},
		{"b=2;a=1", "a=1;b=2", false},
		{"max_rules=30;criterion=gini", "criterion=gini;max_rules=30", false},
		{"a=", "a=", false},
		{"a=1;b", "", true},
		{"=1", "", true},
	} {
		c, err := ParseValues(tc.in)
		if (err != nil) != tc.bad {
			t.Errorf("ParseValues(%q) error %v, want error %v", tc.in, err, tc.bad)
			continue
		}
		if tc.bad {
			continue
		}
		if got := c.String(); got != tc.canon {
			t.Errorf("ParseValues(%q).String() = %q, want %q", tc.in, got, tc.canon)
		}
	}
}
