package reports

import (
	"fmt"
	"strconv"

	"github.com/fgrtbench/fgrtbench/analysis"
)

// accuracyTable builds the accuracy table of one protocol: datasets ×
// methods, mean ± std in percent, the best method per dataset in bold, †
// on test-selected cells, § on cells at chance; the cells of stochastic
// methods with several seeds show mean ± sd over the seeds (‡). The CSV
// carries the paper's value where the paper has a comparable one.
func accuracyTable(a *analysis.Analysis, protocol string, seeds spreadIndex, lg *legend) Table {
	pres := a.Presentation()
	cells := analysis.FilterProtocol(a.Cells, protocol)
	ix := newCellIndex(cells)
	datasets := analysis.DatasetsOf(cells)
	methods := analysis.MethodsOf(cells, pres)
	for _, m := range methods {
		lg.variant(m)
	}
	var grid []pivotRow
	var rows []accuracyRow
	for _, ds := range datasets {
		g := pivotRow{label: ds, cells: map[string]Entry{}}
		for _, m := range methods {
			c, ok := ix.get(protocol, ds, m)
			if !ok {
				continue
			}
			e, chance := accuracyEntry(a, c, seeds, lg)
			g.cells[m] = e
			rows = append(rows, accuracyRow{protocol: protocol, dataset: ds, method: m, n: c.N, accuracy: c.Accuracy, shown: e, cell: &c, chance: chance})
		}
		grid = append(grid, g)
	}
	meanRow, means := accuracyMeans(a, protocol, methods, len(datasets))
	grid = append(grid, meanRow)
	rows = append(rows, means...)
	t := Table{
		Name:  "accuracy-" + protocol,
		Title: fmt.Sprintf("Accuracy (%%) per dataset, %s protocol", protocol),
	}
	declareGrid(&t, pivotColumns("Dataset", methods, pres.DisplayName), grid)
	declareCSV(&t, accuracyColumns(a), rows)
	t.Notes = []string{
		"Mean ± population standard deviation (ddof 0) over the folds and repeats of the selected configuration, in percent; bold = best on the dataset. Marks are explained in the legend at the end of REPORT.md.",
	}
	if protocol == "holdout" {
		t.Notes = append(t.Notes, "Under holdout, the paper's FGA column was counted on this very split; its other columns are means over the paper protocol's 5 folds.")
	}
	return t
}

// accuracyRow is one line of the accuracy CSV: a cell, or (cell nil,
// dataset "mean") a method's mean over the datasets it has.
type accuracyRow struct {
	protocol, dataset, method string
	// n is the cell's fold count, or a mean's dataset count.
	n        int
	accuracy float64
	// shown is the grid's entry (bold = best).
	shown  Entry
	cell   *analysis.Cell
	chance bool
}

// accuracyColumns declares the accuracy table's CSV; a mean's line leaves
// the per-cell columns empty.
func accuracyColumns(a *analysis.Analysis) []Column[accuracyRow] {
	pres := a.Presentation()
	perCell := func(f func(c analysis.Cell, r accuracyRow) string) func(accuracyRow) string {
		return func(r accuracyRow) string {
			if r.cell == nil {
				return ""
			}
			return f(*r.cell, r)
		}
	}
	paper := func(f func(analysis.PaperComparison) string) func(accuracyRow) string {
		return perCell(func(c analysis.Cell, _ accuracyRow) string {
			if pc, ok := a.PaperComparisonOf(c); ok {
				return f(pc)
			}
			return ""
		})
	}
	return []Column[accuracyRow]{
		{CSV: "protocol", Write: func(r accuracyRow) string { return r.protocol }},
		{CSV: "dataset", Write: func(r accuracyRow) string { return r.dataset }},
		{CSV: "method", Write: func(r accuracyRow) string { return r.method }},
		{CSV: "display_name", Write: func(r accuracyRow) string { return pres.DisplayName(r.method) }},
		{CSV: "n", Write: func(r accuracyRow) string { return strconv.Itoa(r.n) }},
		{CSV: "accuracy_mean", Write: func(r accuracyRow) string { return csvNum(r.accuracy * 100) }},
		{CSV: "accuracy_std", Write: perCell(func(c analysis.Cell, _ accuracyRow) string { return csvNum(c.AccuracyStd * 100) })},
		{CSV: "balanced_accuracy_mean", Write: perCell(func(c analysis.Cell, _ accuracyRow) string { return csvNum(c.BalancedAccuracy * 100) })},
		{CSV: "selection", Write: perCell(func(c analysis.Cell, _ accuracyRow) string { return c.Selection })},
		{CSV: "best", Write: func(r accuracyRow) string { return strconv.FormatBool(r.shown.Bold) }},
		{CSV: "at_chance", Write: perCell(func(_ analysis.Cell, r accuracyRow) string { return strconv.FormatBool(r.chance) })},
		{CSV: "paper", Write: paper(func(pc analysis.PaperComparison) string { return fixed(pc.Paper, 2) })},
		{CSV: "diff_vs_paper", Write: paper(func(pc analysis.PaperComparison) string { return csvNum(pc.DiffPP) })},
	}
}

// accuracyEntry shows a cell's accuracy (over seeds, ‡, for a stochastic
// method run with several) with its marks; chance says whether the cell
// is at chance.
func accuracyEntry(a *analysis.Analysis, c analysis.Cell, seeds spreadIndex, lg *legend) (e Entry, chance bool) {
	e = Entry{Text: pct(c.Accuracy) + " ± " + pct(c.AccuracyStd), Bold: c.BestOnDataset}
	if sp, seeded := seeds[cellKey{c.Protocol, c.Dataset, c.Method}]; seeded {
		e.Text = pct(sp.Mean) + " ± " + pct(sp.Std) + " ‡"
		lg.use("‡")
	}
	if c.TestSelected() {
		e.Text += " †"
		lg.use("†")
	}
	if _, chance = a.ChanceOf(c.Protocol, c.Dataset, c.Method); chance {
		e.Text += " §"
		lg.use("§")
	}
	return e, chance
}

// accuracyMeans is the mean row over the datasets each method has (the
// analysis's means) and its CSV lines.
func accuracyMeans(a *analysis.Analysis, protocol string, methods []string, datasets int) (pivotRow, []accuracyRow) {
	row := pivotRow{label: "Mean", cells: map[string]Entry{}}
	var lines []accuracyRow
	for _, m := range methods {
		mm, ok := a.MeanOf(protocol, m)
		if !ok {
			continue
		}
		e := Entry{Text: pct(mm.Accuracy), Bold: mm.Best}
		if mm.Datasets != datasets {
			e.Text += " (" + plural(mm.Datasets, "dataset") + ")"
		}
		row.cells[m] = e
		lines = append(lines, accuracyRow{protocol: protocol, dataset: "mean", method: m, n: mm.Datasets, accuracy: mm.Accuracy, shown: e})
	}
	return row, lines
}
