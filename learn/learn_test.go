package learn

import (
	"math"
	"strings"
	"testing"
)

func TestCheckXY(t *testing.T) {
	s := Schema{Features: []Feature{{Name: "a"}, {Name: "b"}}, Classes: []string{"x", "y"}}
	nan := math.NaN()
	cases := []struct {
		name     string
		X        [][]float64
		y        []int
		allowNaN bool
		want     string
	}{
		{"ok", [][]float64{{1, 2}, {3, 4}}, []int{0, 1}, false, ""},
		{"empty", nil, nil, false, "no training rows"},
		{"lengths", [][]float64{{1, 2}}, []int{0, 1}, false, "1 rows but 2 labels"},
		{"width", [][]float64{{1, 2}, {3}}, []int{0, 1}, false, "row 1 has 1 columns"},
		{"class", [][]float64{{1, 2}}, []int{2}, false, "class index 2"},
		{"nan", [][]float64{{1, nan}}, []int{0}, false, "column 1 (b) is missing"},
		{"nan allowed", [][]float64{{1, nan}}, []int{0}, true, ""},
	}
	for _, c := range cases {
		err := CheckXY(c.X, c.y, s, c.allowNaN)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}

func TestMetrics(t *testing.T) {
	truth := []int{0, 0, 0, 1, 2, 2}
	pred := []int{0, 0, 1, 1, 0, -1}
	if got := Accuracy(truth, pred); got != 3.0/6 {
		t.Errorf("accuracy %v", got)
	}
	// Recalls: class 0 2/3, class 1 1/1, class 2 0/2; class 3 absent.
	if got, want := BalancedAccuracy(truth, pred, 4), (2.0/3+1+0)/3; math.Abs(got-want) > 1e-15 {
		t.Errorf("balanced accuracy %v, want %v", got, want)
	}
	c := Complexity{Rules: 4, Antecedents: 6, Leaves: 4, InternalNodes: 2}
	if c.MeanAntecedents() != 1.5 || c.RulebaseSize() != 6 || c.InternalPerLeaf() != 0.5 {
		t.Errorf("complexity ratios %v %v %v", c.MeanAntecedents(), c.RulebaseSize(), c.InternalPerLeaf())
	}
	if (Complexity{}).MeanAntecedents() != 0 || (Complexity{}).InternalPerLeaf() != 0 {
		t.Error("empty complexity must give 0 ratios")
	}
}

func TestCheckPredictions(t *testing.T) {
	cases := []struct {
		name string
		pred []int
		want string // "" = accepted
	}{
		{"ok", []int{0, 2, -1}, ""},
		{"short", []int{0, 1}, "2 predictions for 3 rows"},
		{"long", []int{0, 1, 1, 0}, "4 predictions for 3 rows"},
		{"too large", []int{0, 3, 1}, "class 3 for row 1, want 0..2"},
		{"below -1", []int{0, 1, -2}, "class -2 for row 2"},
	}
	for _, c := range cases {
		err := CheckPredictions(c.pred, 3, 3)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: got %v, want an error with %q", c.name, err, c.want)
		}
	}
}
