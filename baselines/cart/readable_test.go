package cart

import (
	"testing"

	"github.com/fgrtbench/fgrtbench/learn"
)

// TestReadableRules: a hand-built tree on wine's Proline (standardised:
// mean 746.9, scale 314.4) and flavanoids (mean 2.03, scale 0.997) prints
// its thresholds in mg/L and its leaves' coverage and confidence, while
// Rules keeps the scaled thresholds.
func TestReadableRules(t *testing.T) {
	tree := &Tree{
		ChildrenLeft:  []int{1, Leaf, 3, Leaf, Leaf},
		ChildrenRight: []int{2, Leaf, 4, Leaf, Leaf},
		Feature:       []int{0, -2, 1, -2, -2},
		Threshold:     []float64{0.0321, -2, -0.656396, -2, -2},
		NodeSamples:   []int{100, 60, 40, 10, 30},
		Value:         []float64{50, 50, 55, 5, 5, 35, 2, 8, 3, 27},
		NumClasses:    2,
	}
	s := learn.Schema{Features: []learn.Feature{{Name: "Proline"}, {Name: "flavanoids"}}, Classes: []string{"1", "2"}}
	mean, scale := []float64{746.9, 2.03}, []float64{314.4, 0.997}
	unscale := func(j int, v float64) float64 { return v*scale[j] + mean[j] }
	for _, c := range []struct {
		name string
		got  string
		want string
	}{
		{"Rules", tree.Rules(s), "IF Proline <= 0.0321 THEN class 1\n" +
			"IF Proline > 0.0321 AND flavanoids <= -0.656396 THEN class 2\n" +
			"IF Proline > 0.0321 AND flavanoids > -0.656396 THEN class 2\n"},
		{"ReadableRules", tree.ReadableRules(s, unscale), "IF Proline <= 757.0 THEN class 1  [coverage 0.600, confidence 0.917]\n" +
			"IF Proline > 757.0 AND flavanoids <= 1.376 THEN class 2  [coverage 0.100, confidence 0.800]\n" +
			"IF Proline > 757.0 AND flavanoids > 1.376 THEN class 2  [coverage 0.300, confidence 0.900]\n"},
		{"ReadableRules unscaled", tree.ReadableRules(s, nil), "IF Proline <= 0.03210 THEN class 1  [coverage 0.600, confidence 0.917]\n" +
			"IF Proline > 0.03210 AND flavanoids <= -0.6564 THEN class 2  [coverage 0.100, confidence 0.800]\n" +
			"IF Proline > 0.03210 AND flavanoids > -0.6564 THEN class 2  [coverage 0.300, confidence 0.900]\n"},
	} {
		if c.got != c.want {
			t.Errorf("%s:\n%s\nwant\n%s", c.name, c.got, c.want)
		}
	}
}

// TestReadableRulesOneIntervalPerFeature: a path that tests worst_area
// twice reads as the interval the tests leave, at the place of the first
// test; Rules keeps every test.
func TestReadableRulesOneIntervalPerFeature(t *testing.T) {
	// root: worst_area <= 957.4; its left child: worst_area <= 806.2;
	// its right child: texture <= 20
	tree := &Tree{
		ChildrenLeft:  []int{1, 2, Leaf, 4, Leaf, Leaf, Leaf},
		ChildrenRight: []int{6, 3, Leaf, 5, Leaf, Leaf, Leaf},
		Feature:       []int{0, 0, -2, 1, -2, -2, -2},
		Threshold:     []float64{957.4, 806.2, -2, 20, -2, -2, -2},
		NodeSamples:   []int{100, 70, 50, 20, 12, 8, 30},
		Value:         []float64{50, 50, 45, 25, 40, 10, 5, 15, 4, 8, 1, 7, 5, 25},
		NumClasses:    2,
	}
	s := learn.Schema{Features: []learn.Feature{{Name: "worst_area"}, {Name: "texture"}}, Classes: []string{"B", "M"}}
	for _, c := range []struct {
		name, got, want string
	}{
		{"Rules", tree.Rules(s), "IF worst_area <= 957.4 AND worst_area <= 806.2 THEN class B\n" +
			"IF worst_area <= 957.4 AND worst_area > 806.2 AND texture <= 20 THEN class M\n" +
			"IF worst_area <= 957.4 AND worst_area > 806.2 AND texture > 20 THEN class M\n" +
			"IF worst_area > 957.4 THEN class M\n"},
		{"ReadableRules", tree.ReadableRules(s, nil), "IF worst_area <= 806.2 THEN class B  [coverage 0.500, confidence 0.800]\n" +
			"IF 806.2 < worst_area <= 957.4 AND texture <= 20.00 THEN class M  [coverage 0.120, confidence 0.667]\n" +
			"IF 806.2 < worst_area <= 957.4 AND texture > 20.00 THEN class M  [coverage 0.080, confidence 0.875]\n" +
			"IF worst_area > 957.4 THEN class M  [coverage 0.300, confidence 0.833]\n"},
	} {
		if c.got != c.want {
			t.Errorf("%s:\n%s\nwant\n%s", c.name, c.got, c.want)
		}
	}
}
