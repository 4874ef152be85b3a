package majority_test

import (
	"math"
	"testing"

	"github.com/fgrtbench/fgrtbench/baselines/majority"
	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/learn/learntest"
)

// TestConformance holds the baseline to the contract of package learn.
func TestConformance(t *testing.T) {
	learntest.RunSpec(t, majority.Spec)
}

// TestMajority: the prediction is the most frequent training class, a tie
// goes to the lowest class index (numpy.argmax), a class absent from
// training is never predicted, and the rules name the class while counting
// nothing.
func TestMajority(t *testing.T) {
	s := learn.Schema{Features: []learn.Feature{{Name: "a"}}, Classes: []string{"neg", "pos", "other"}}
	cases := []struct {
		name  string
		y     []int
		want  int
		rules string
	}{
		{"clear majority", []int{1, 1, 0, 1, 2}, 1, "predict pos (majority of training rows)\n"},
		{"tie goes to lowest index", []int{2, 1, 2, 1}, 1, "predict pos (majority of training rows)\n"},
		{"three-way tie", []int{2, 0, 1}, 0, "predict neg (majority of training rows)\n"},
		{"single class", []int{2, 2}, 2, "predict other (majority of training rows)\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			X := make([][]float64, len(c.y))
			for i := range X {
				X[i] = []float64{float64(i)}
			}
			tr, err := majority.New(majority.DefaultConfig())
			if err != nil {
				t.Fatal(err)
			}
			m, err := tr.Fit(X, c.y, s)
			if err != nil {
				t.Fatal(err)
			}
			for i, p := range m.Predict([][]float64{{-5}, {100}, {0}}) {
				if p != c.want {
					t.Errorf("row %d: predicted %d, want %d", i, p, c.want)
				}
			}
			if got := m.Rules(s); got != c.rules {
				t.Errorf("rules %q, want %q", got, c.rules)
			}
			if cx := m.Complexity(); cx != (learn.Complexity{}) {
				t.Errorf("complexity %+v, want zero", cx)
			}
		})
	}
}

// TestArgmax pins the tie rule against numpy.argmax on the same counts.
func TestArgmax(t *testing.T) {
	cases := []struct {
		counts []int
		want   int
	}{
		{[]int{3, 5, 5}, 1}, // numpy.argmax([3,5,5]) == 1
		{[]int{4, 4}, 0},    // numpy.argmax([4,4]) == 0
		{[]int{0, 0, 1}, 2},
		{[]int{7}, 0},
		{nil, -1},
	}
	for _, c := range cases {
		if got := majority.Argmax(c.counts); got != c.want {
			t.Errorf("Argmax(%v) = %d, want %d", c.counts, got, c.want)
		}
	}
}

// TestMissingValuesAllowed: the baseline never reads a feature, so a NaN
// cell is no reason to refuse a training set.
func TestMissingValuesAllowed(t *testing.T) {
	s := learn.Schema{Features: []learn.Feature{{Name: "a"}}, Classes: []string{"x", "y"}}
	nan := math.NaN()
	tr, _ := majority.New(majority.DefaultConfig())
	m, err := tr.Fit([][]float64{{nan}, {1}, {2}}, []int{1, 1, 0}, s)
	if err != nil {
		t.Fatal(err)
	}
	if p := m.Predict([][]float64{{nan}}); p[0] != 1 {
		t.Errorf("predicted %d, want 1", p[0])
	}
}
