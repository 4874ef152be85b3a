package reports

import (
	"testing"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/results"
)

// TestPaperCheckSummary: the reproduction check's one-line summary counts
// the cells reproduced among those the study holds, and says how many of
// the authors' cells it lacks only when it lacks some.
func TestPaperCheckSummary(t *testing.T) {
	cells := func(have, off, missing int) []analysis.PaperCheckRow {
		var rows []analysis.PaperCheckRow
		for i := 0; i < have; i++ {
			r := analysis.PaperCheckRow{Have: true}
			if i < off {
				r.Diff = 0.01
			}
			rows = append(rows, r)
		}
		for i := 0; i < missing; i++ {
			rows = append(rows, analysis.PaperCheckRow{})
		}
		return rows
	}
	cases := []struct {
		name string
		rows []analysis.PaperCheckRow
		want string
	}{
		{"the whole paper", cells(40, 0, 0), "40 of the authors' 40 cells reproduced within 1e-06 (fraction)."},
		{"one off", cells(40, 1, 0), "39 of the authors' 40 cells reproduced within 1e-06 (fraction)."},
		{"one dataset", cells(4, 0, 36), "4 of the 4 cells of the authors' results that this study holds reproduced within 1e-06 (fraction); the other 36 of their 40 cells are not in this study."},
	}
	for _, c := range cases {
		if got := PaperCheckTable(c.rows, 1e-6, results.Presentation{}).Summary; got != c.want {
			t.Errorf("%s: summary %q, want %q", c.name, got, c.want)
		}
	}
}
