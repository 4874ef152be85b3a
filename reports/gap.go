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
	var grid []pivotRow
	var rows []gapRow
	ix := newCellIndex(cells)
	for _, ds := range analysis.DatasetsOf(cells) {
		if g, lines := gapDatasetRow(ix, ds, methods); len(lines) > 0 {
			grid, rows = append(grid, g), append(rows, lines...)
		}
	}
	mean := pivotRow{label: "Mean", cells: map[string]Entry{}}
	for _, m := range methods {
		if g, ok := a.GapOf(m); ok {
			mean.cells[m] = Entry{Text: signed(g.GapPP, 2)}
			rows = append(rows, gapRow{dataset: "mean", method: m, gap: g.GapPP})
		}
	}
	t = Table{Name: "protocol-gap", Title: "Protocol gap: paper-protocol minus clean-protocol accuracy (pp)"}
	declareGrid(&t, pivotColumns("Dataset", methods, pres.DisplayName), append(grid, mean))
	declareCSV(&t, gapColumns(pres), rows)
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

// gapRow is one line of the gap CSV: a cell pair's gap, or (no
// accuracies, dataset "mean") a method's mean gap.
type gapRow struct {
	dataset, method string
	// paper and clean are the pair's accuracies; nil for a mean.
	paper, clean *analysis.Cell
	gap          float64
}

// gapColumns declares the protocol gap's CSV.
func gapColumns(pres results.Presentation) []Column[gapRow] {
	accuracy := func(of func(gapRow) *analysis.Cell) func(gapRow) string {
		return func(r gapRow) string {
			if c := of(r); c != nil {
				return csvNum(c.Accuracy * 100)
			}
			return ""
		}
	}
	return []Column[gapRow]{
		{CSV: "dataset", Write: func(r gapRow) string { return r.dataset }},
		{CSV: "method", Write: func(r gapRow) string { return r.method }},
		{CSV: "display_name", Write: func(r gapRow) string { return pres.DisplayName(r.method) }},
		{CSV: "paper_accuracy", Write: accuracy(func(r gapRow) *analysis.Cell { return r.paper })},
		{CSV: "clean_accuracy", Write: accuracy(func(r gapRow) *analysis.Cell { return r.clean })},
		{CSV: "gap", Write: func(r gapRow) string { return csvNum(r.gap) }},
	}
}

// gapDatasetRow is a dataset's gaps: its grid row and its CSV lines (none
// when no method has both cells).
func gapDatasetRow(ix cellIndex, ds string, methods []string) (pivotRow, []gapRow) {
	row := pivotRow{label: ds, cells: map[string]Entry{}}
	var lines []gapRow
	for _, m := range methods {
		p, okP := ix.get("paper", ds, m)
		c, okC := ix.get("clean", ds, m)
		if !okP || !okC {
			continue
		}
		g := analysis.ProtocolGap(p, c)
		row.cells[m] = Entry{Text: signed(g, 2)}
		lines = append(lines, gapRow{dataset: ds, method: m, paper: &p, clean: &c, gap: g})
	}
	return row, lines
}
