package analysis

import (
	"math"
	"slices"
	"testing"

	"github.com/fgrtbench/fgrtbench/results"
)

// TestPredictiveOfDisplayOrder: the scores tables list cells by dataset,
// then method in display order (not the labels' alphabetical order), and
// drop none.
func TestPredictiveOfDisplayOrder(t *testing.T) {
	pres := results.PresentationOf([]results.Method{
		{Label: "fgrt", Method: "fgrt", DisplayName: "FGRT", Order: 0},
		{Label: "cart", Method: "cart", DisplayName: "CART", Order: 1},
		{Label: "c45", Method: "c45", DisplayName: "C4.5", Order: 2},
	})
	a := &Analysis{pres: pres}
	for _, d := range []string{"wine", "zoo"} {
		for _, m := range []string{"c45", "cart", "fgrt"} { // key order
			a.Cells = append(a.Cells, Cell{Protocol: "clean", Dataset: d, Method: m})
			a.Predictive = append(a.Predictive, Predictive{Protocol: "clean", Dataset: d, Method: m})
		}
	}
	// A predictive cell without its cell (not made by Compute) and one of
	// another protocol.
	a.Predictive = append(a.Predictive, Predictive{Protocol: "clean", Dataset: "iris", Method: "cart"}, Predictive{Protocol: "paper", Dataset: "wine", Method: "cart"})
	var got []string
	for _, p := range a.PredictiveOf("clean") {
		got = append(got, p.Dataset+"/"+p.Method)
	}
	want := []string{"wine/fgrt", "wine/cart", "wine/c45", "zoo/fgrt", "zoo/cart", "zoo/c45", "iris/cart"}
	if !slices.Equal(got, want) {
		t.Errorf("PredictiveOf(clean) = %v, want %v", got, want)
	}
}

// TestSweepPooledCIAndSelected: the pooled mean's 95% half-width is
// 1.96·sqrt(Σ sd²/(n-1))/k, NaN with a dataset of one row or a missing
// point; a selected variant is averaged only when it is on every dataset.
func TestSweepPooledCIAndSelected(t *testing.T) {
	s := Sweep{
		Configs:  []string{"a", "b", "c"},
		Datasets: []string{"d1", "d2"},
		Points: [][]Point{
			{{N: 5, Accuracy: 0.8, AccuracyStd: 0.1, RulebaseSize: 10, RulebaseSizeStd: 2}, {N: 1, Accuracy: 0.7}, {N: 5, Accuracy: 0.6}},
			{{N: 3, Accuracy: 0.6, AccuracyStd: 0.2, RulebaseSize: 20, RulebaseSizeStd: 4}, {N: 5, Accuracy: 0.7}, {}},
		},
		Selected: []Point{{Method: "x", Selection: "test", Accuracy: 0.5, RulebaseSize: 4}, {Method: "y", Accuracy: 0.9}, {Method: "x", Selection: "test", Accuracy: 0.7, RulebaseSize: 6}},
	}
	s.summarise()
	ci := s.PooledCI95(0)
	wantAcc := 1.96 * math.Sqrt(0.1*0.1/4+0.2*0.2/2) / 2
	wantSize := 1.96 * math.Sqrt(2*2/4.0+4*4/2.0) / 2
	if math.Abs(ci.Accuracy-wantAcc) > 1e-15 || math.Abs(ci.RulebaseSize-wantSize) > 1e-12 {
		t.Errorf("config a: %+v, want %v, %v", ci, wantAcc, wantSize)
	}
	for _, i := range []int{1, 2} {
		if c := s.PooledCI95(i); !math.IsNaN(c.Accuracy) || !math.IsNaN(c.RulebaseSize) {
			t.Errorf("config %d: %+v, want NaN (one row / missing)", i, c)
		}
	}
	got := s.SelectedMeans()
	if len(got) != 1 || got[0].Method != "x" || got[0].Selection != "test" || math.Abs(got[0].Accuracy-0.6) > 1e-15 || got[0].RulebaseSize != 5 {
		t.Errorf("selected means %+v, want x (test) 0.6, 5 only", got)
	}
}
