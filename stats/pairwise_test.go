package stats

import (
	"math"
	"testing"
)

// scores3 holds 6 datasets × 3 methods: method 0 beats 1 on every dataset
// by 2–7 points (all differences distinct, so the exact test applies),
// method 2 equals method 1 everywhere (every difference
// zero: the 1-vs-2 comparison is not applicable).
var scores3 = [][]float64{
	{0.90, 0.85, 0.85},
	{0.80, 0.78, 0.78},
	{0.70, 0.66, 0.66},
	{0.95, 0.92, 0.92},
	{0.88, 0.81, 0.81},
	{0.75, 0.69, 0.69},
}

func TestPairwiseFamilies(t *testing.T) {
	opt := DefaultSignedRankOptions()
	cases := []struct {
		name      string
		reference int
		pairs     [][2]int
		na        []bool
	}{
		{"all pairs", AllPairs, [][2]int{{0, 1}, {0, 2}, {1, 2}}, []bool{false, false, true}},
		{"against 1", 1, [][2]int{{1, 0}, {1, 2}}, []bool{false, true}},
		{"against 2", 2, [][2]int{{2, 0}, {2, 1}}, []bool{false, true}},
	}
	for _, c := range cases {
		got, err := Pairwise(scores3, 3, c.reference, opt)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(c.pairs) {
			t.Fatalf("%s: %d results, want %d", c.name, len(got), len(c.pairs))
		}
		applicable := 0
		for _, r := range got {
			if !r.NA {
				applicable++
			}
		}
		for i, r := range got {
			if r.A != c.pairs[i][0] || r.B != c.pairs[i][1] || r.NA != c.na[i] || r.N != 6 {
				t.Errorf("%s #%d: (%d,%d) NA %v N %d, want %v NA %v", c.name, i, r.A, r.B, r.NA, r.N, c.pairs[i], c.na[i])
			}
			if r.NA {
				if !math.IsNaN(r.P) || !math.IsNaN(r.PHolm) {
					t.Errorf("%s #%d: NA comparison has p %v / %v", c.name, i, r.P, r.PHolm)
				}
				continue
			}
			// Six wins of one side: exact p = 2/2⁶ = 0.03125, and the Holm
			// family counts only the applicable comparisons.
			near(t, "p", r.P, 0.03125, 1e-15)
			near(t, "p Holm", r.PHolm, math.Min(1, 0.03125*float64(applicable)), 1e-15)
			diff := 0.0
			for _, row := range scores3 {
				diff += row[r.A] - row[r.B]
			}
			near(t, "mean diff", r.MeanDiff, diff/6, 1e-15)
			// Differences of 2–7 points against a 1-point rope: the
			// better side is practically better in nearly every draw.
			better := r.Bayes.PRight
			if r.MeanDiff < 0 {
				better = r.Bayes.PLeft
			}
			if better < 0.95 {
				t.Errorf("%s #%d: Bayes %+v, want the winner above 0.95", c.name, i, r.Bayes)
			}
		}
	}
}

// TestPairwiseNoDatasets: with no (or one) dataset every comparison is
// "n/a" (the report used to print p = 1.0000 over zero datasets).
func TestPairwiseNoDatasets(t *testing.T) {
	for _, scores := range [][][]float64{nil, {{0.9, 0.8}}} {
		got, err := Pairwise(scores, 2, AllPairs, DefaultSignedRankOptions())
		if err != nil || len(got) != 1 {
			t.Fatalf("%v: %v %v", scores, got, err)
		}
		r := got[0]
		if !r.NA || !r.Bayes.NA || !math.IsNaN(r.P) || !math.IsNaN(r.PHolm) {
			t.Errorf("%v: %+v, want NA throughout", scores, r)
		}
	}
}

func TestPairwiseErrors(t *testing.T) {
	opt := DefaultSignedRankOptions()
	for name, f := range map[string]func() error{
		"one method":     func() error { _, err := Pairwise(nil, 1, AllPairs, opt); return err },
		"reference > k":  func() error { _, err := Pairwise(scores3, 3, 3, opt); return err },
		"reference < -1": func() error { _, err := Pairwise(scores3, 3, -2, opt); return err },
		"ragged":         func() error { _, err := Pairwise([][]float64{{1, 2}, {1}}, 2, AllPairs, opt); return err },
		"NaN score":      func() error { _, err := Pairwise([][]float64{{1, math.NaN()}, {1, 2}}, 2, AllPairs, opt); return err },
		"bad options":    func() error { _, err := Pairwise(scores3, 3, AllPairs, SignedRankOptions{}); return err },
	} {
		if f() == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
