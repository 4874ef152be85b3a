package analysis

import (
	"math"
	"testing"
)

func TestGroupMeanStdSeam(t *testing.T) {
	// Group 0: 1, 3 → mean 2, population std 1. Group 7: 2, 4, 9 → mean 5,
	// population std √(26/3). Group 3: a single row → std 0.
	group := []int{7, 0, 7, 0, 3, 7}
	col := []float64{2, 1, 4, 3, 5, 9}
	got, err := groupMeanStd(group, [][]float64{col, col})
	if err != nil {
		t.Fatal(err)
	}
	want := []groupSummary{{0, 2, []float64{2, 2}, []float64{1, 1}}, {3, 1, []float64{5, 5}, []float64{0, 0}}, {7, 3, []float64{5, 5}, []float64{math.Sqrt(26.0 / 3), math.Sqrt(26.0 / 3)}}}
	if len(got) != len(want) {
		t.Fatalf("got %d groups, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Group != w.Group || g.N != w.N {
			t.Fatalf("group %d: %+v, want %+v", i, g, w)
		}
		for c := range w.Mean {
			if math.Abs(g.Mean[c]-w.Mean[c]) > 1e-12 || math.Abs(g.Std[c]-w.Std[c]) > 1e-12 {
				t.Errorf("group %d col %d: mean %v std %v, want %v %v", g.Group, c, g.Mean[c], g.Std[c], w.Mean[c], w.Std[c])
			}
		}
	}
	if _, err := groupMeanStd([]int{1, 2}, [][]float64{{1}}); err == nil {
		t.Error("mismatched column: no error")
	}
	if out, err := groupMeanStd(nil, nil); err != nil || out != nil {
		t.Errorf("empty: %v %v", out, err)
	}
}
