package results

import "testing"

// TestAtChance: a balanced accuracy equal to or below the majority
// baseline's is at chance, one above it is not; the boundary belongs to
// chance ("does not exceed"), which is the case of a method that predicts
// one class, as the paper's FGRT does on pima.
func TestAtChance(t *testing.T) {
	cases := []struct {
		name            string
		balanced, major float64
		want            bool
	}{
		{"predicts one class: equal to the baseline", 0.5, 0.5, true},
		{"below the baseline", 0.48, 0.5, true},
		{"just above", 0.5001, 0.5, false},
		{"well above", 0.73, 0.5, false},
		{"three classes, percentages", 100.0 / 3, 100.0 / 3, true},
		{"percentages above", 71.2, 50, false},
	}
	for _, c := range cases {
		if got := AtChance(c.balanced, c.major); got != c.want {
			t.Errorf("%s: AtChance(%v, %v) = %v, want %v", c.name, c.balanced, c.major, got, c.want)
		}
	}
}
