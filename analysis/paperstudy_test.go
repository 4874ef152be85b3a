package analysis

import (
	"math"
	"testing"

	"github.com/fgrtbench/fgrtbench/paper"
)

// TestPaperComparisonOf: a cell is compared with the paper's printed value
// only under the protocol that value came from (FGA's: hold-out, and
// under the paper protocol with a note), never for a grid variant or a
// dataset that is not the paper's; the difference is ours minus the
// paper's, in percentage points.
func TestPaperComparisonOf(t *testing.T) {
	a := &Analysis{}
	fgrtWine, _ := paper.Accuracy("wine", paper.FGRT)
	fgaWine, _ := paper.Accuracy("wine", paper.FGA)
	for _, c := range []struct {
		name             string
		cell             Cell
		ok, noted        bool
		column           string
		paperValue, diff float64
	}{
		{"fgrt, paper protocol", Cell{Protocol: "paper", Dataset: "wine", Method: "fgrt", Accuracy: 0.9}, true, false, paper.FGRT, fgrtWine, 90 - fgrtWine},
		{"fgrt, clean protocol", Cell{Protocol: "clean", Dataset: "wine", Method: "fgrt", Accuracy: 0.9}, false, false, "", 0, 0},
		{"a grid variant", Cell{Protocol: "paper", Dataset: "wine", Method: "fgrt@grid", Accuracy: 0.9}, false, false, "", 0, 0},
		{"not the paper's dataset", Cell{Protocol: "paper", Dataset: "mine", Method: "fgrt", Accuracy: 0.9}, false, false, "", 0, 0},
		{"fga, holdout", Cell{Protocol: "holdout", Dataset: "wine", Method: "fga", Accuracy: 0.8}, true, false, paper.FGA, fgaWine, 80 - fgaWine},
		{"fga, paper protocol", Cell{Protocol: "paper", Dataset: "wine", Method: "fga", Accuracy: 0.8}, true, true, paper.FGA, fgaWine, 80 - fgaWine},
		{"no paper column", Cell{Protocol: "paper", Dataset: "wine", Method: "majority", Accuracy: 0.4}, false, false, "", 0, 0},
	} {
		got, ok := a.PaperComparisonOf(c.cell)
		if ok != c.ok {
			t.Errorf("%s: comparable %v, want %v", c.name, ok, c.ok)
			continue
		}
		if !ok {
			continue
		}
		if got.Column != c.column || got.Paper != c.paperValue || math.Abs(got.DiffPP-c.diff) > 1e-12 || (got.Note != "") != c.noted {
			t.Errorf("%s: %+v, want column %s, paper %v, diff %v, note %v", c.name, got, c.column, c.paperValue, c.diff, c.noted)
		}
	}
}
