package reports

import (
	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/results"
)

// ProtocolGapTable shows, per dataset and method, the paper-protocol
// accuracy minus the clean-protocol accuracy (percentage points): how much
// of a published number comes from test-fold selection and leakage. ok is
// false when the cells do not hold both protocols. The Mean row prints the
// analysis's gap means; the best of them (the smallest gap, nearest zero)
// is not a "best" a reader could use, so nothing is bold.
func ProtocolGapTable(a *analysis.Analysis) (t Table, ok bool) {
	cells, pres := a.Cells, a.Presentation()
	methods := gapMethods(cells, pres)
	if len(methods) == 0 {
		return Table{}, false
	}
	t = Table{
		Name:      "protocol-gap",
		Title:     "Protocol gap: paper-protocol minus clean-protocol accuracy (pp)",
		Header:    []string{"Dataset"},
		Align:     "l",
		CSVHeader: []string{"dataset", "method", "display_name", "paper_accuracy", "clean_accuracy", "gap"},
	}
	for _, m := range methods {
		t.Header = append(t.Header, pres.DisplayName(m))
		t.Align += "r"
	}
	ix := newCellIndex(cells)
	for _, ds := range analysis.DatasetsOf(cells) {
		gapDatasetRow(&t, ix, ds, methods, pres)
	}
	row := []Entry{{Text: "Mean"}}
	for _, m := range methods {
		g, ok := a.GapOf(m)
		if !ok {
			row = append(row, Entry{Text: "—"})
			continue
		}
		row = append(row, Entry{Text: signed(g.GapPP, 2)})
		t.CSVRows = append(t.CSVRows, []string{"mean", m, pres.DisplayName(m), "", "", csvNum(g.GapPP)})
	}
	t.Rows = append(t.Rows, row)
	t.Notes = []string{
		"Positive: the paper protocol reports a higher accuracy than the clean protocol (test-fold model selection, partitions and FGRT* optimisation fitted on all rows, a scaler fitted on rows that overlap the test folds).",
		"Mean: the mean gap over the datasets with both cells; no cell is bold.",
	}
	return t, true
}

// gapMethods lists the methods with cells under both the paper and the
// clean protocol, in display order (none when either protocol is absent).
func gapMethods(cells []analysis.Cell, pres results.Presentation) []string {
	pc, cc := analysis.FilterProtocol(cells, "paper"), analysis.FilterProtocol(cells, "clean")
	if len(pc) == 0 || len(cc) == 0 {
		return nil
	}
	var methods []string
	for _, m := range analysis.MethodsOf(pc, pres) {
		for _, c := range cc {
			if c.Method == m {
				methods = append(methods, m)
				break
			}
		}
	}
	return methods
}

// gapDatasetRow adds a dataset's gaps, when some method has both cells.
func gapDatasetRow(t *Table, ix cellIndex, ds string, methods []string, pres results.Presentation) {
	row := []Entry{{Text: ds}}
	any := false
	for _, m := range methods {
		p, okP := ix.get("paper", ds, m)
		c, okC := ix.get("clean", ds, m)
		if !okP || !okC {
			row = append(row, Entry{Text: "—"})
			continue
		}
		any = true
		g := analysis.ProtocolGap(p, c)
		row = append(row, Entry{Text: signed(g, 2)})
		t.CSVRows = append(t.CSVRows, []string{ds, m, pres.DisplayName(m), csvNum(p.Accuracy * 100), csvNum(c.Accuracy * 100), csvNum(g)})
	}
	if any {
		t.Rows = append(t.Rows, row)
	}
}
