package analysis

import (
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
