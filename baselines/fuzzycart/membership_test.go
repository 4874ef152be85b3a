package fuzzycart

import (
	"math"
	"testing"

	"github.com/fgrtbench/fgrtbench/fuzzy"
)

// TestTrapezoidAgainstFGRT pins where 2.1.5's trapezoidal_membership
// (a flat left shoulder moves a down by 1e-4) and the one the paper's FGRT
// ran (b moves up) differ, on values computed by numpy with each version.
func TestTrapezoidAgainstFGRT(t *testing.T) {
	const e = 1e-4
	for _, tc := range []struct {
		name       string
		tr         fuzzy.Trapezoid
		x          float64
		exfuzzy215 float64
		fgrt       float64
	}{
		// A term starting flat where many rows sit (Medium on a column
		// whose 0-40th percentiles are all its minimum 0): 1 in 2.1.5, 0
		// in FGRT.
		{"flat left shoulder at the shoulder", fuzzy.Trapezoid{A: 0, B: 0, C: 0, D: 2}, 0, 1, 0},
		// Low's outer shoulder (q0-ε, q0-ε, ...): 2.1.5 reaches 0.5 at
		// q0-1.5ε, FGRT is already 0 there.
		{"below Low's outer shoulder", fuzzy.Trapezoid{A: 1 - e, B: 1 - e, C: 2, D: 3}, 1 - 1.5*e, 0.5, 0},
		// Inside the ramps nothing changes.
		{"on a ramp", fuzzy.Trapezoid{A: 0, B: 1, C: 2, D: 3}, 0.25, 0.25, 0.25},
		{"right shoulder (same rule in both)", fuzzy.Trapezoid{A: 0, B: 1, C: 2, D: 2}, 2, 1, 1},
		{"singleton", fuzzy.Trapezoid{A: 2, B: 2, C: 2, D: 2}, 2, 1, 1},
	} {
		if got := trapezoid(tc.tr, tc.x); got != tc.exfuzzy215 {
			t.Errorf("%s: 2.1.5 membership %v, want %v", tc.name, got, tc.exfuzzy215)
		}
		if got := tc.tr.Membership(tc.x); got != tc.fgrt {
			t.Errorf("%s: FGRT membership %v, want %v", tc.name, got, tc.fgrt)
		}
	}
	if got := trapezoid(fuzzy.Trapezoid{A: 0, B: 1, C: 2, D: 3}, math.NaN()); !math.IsNaN(got) {
		t.Errorf("NaN input: %v, want NaN (numpy keeps it)", got)
	}
}
