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
	t := Table{
		Name:      "accuracy-" + protocol,
		Title:     fmt.Sprintf("Accuracy (%%) per dataset, %s protocol", protocol),
		Header:    []string{"Dataset"},
		Align:     "l",
		CSVHeader: []string{"protocol", "dataset", "method", "display_name", "n", "accuracy_mean", "accuracy_std", "balanced_accuracy_mean", "selection", "best", "at_chance", "paper", "diff_vs_paper"},
	}
	for _, m := range methods {
		t.Header = append(t.Header, pres.DisplayName(m))
		t.Align += "r"
		lg.variant(m)
	}
	for _, ds := range datasets {
		row := []Entry{{Text: ds}}
		for _, m := range methods {
			c, ok := ix.get(protocol, ds, m)
			if !ok {
				row = append(row, Entry{Text: "—"})
				continue
			}
			e, chance := accuracyEntry(a, c, seeds, lg)
			row = append(row, e)
			t.CSVRows = append(t.CSVRows, accuracyCSV(a, c, e.Bold, chance))
		}
		t.Rows = append(t.Rows, row)
	}
	meanRow, meanCSV := accuracyMeans(a, protocol, methods, len(datasets))
	t.Rows = append(t.Rows, meanRow)
	t.CSVRows = append(t.CSVRows, meanCSV...)
	t.Notes = []string{
		"Mean ± population standard deviation (ddof 0) over the folds and repeats of the selected configuration, in percent; bold = best on the dataset. Marks are explained in the legend at the end of REPORT.md.",
	}
	if protocol == "holdout" {
		t.Notes = append(t.Notes, "Under holdout, the paper's FGA column was counted on this very split; its other columns are means over the paper protocol's 5 folds.")
	}
	return t
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

// accuracyCSV is a cell's CSV line, with the paper's value where the
// paper has a comparable one.
func accuracyCSV(a *analysis.Analysis, c analysis.Cell, best, chance bool) []string {
	paperS, diffS := "", ""
	if pc, ok := a.PaperComparisonOf(c); ok {
		paperS, diffS = fixed(pc.Paper, 2), csvNum(pc.DiffPP)
	}
	return []string{c.Protocol, c.Dataset, c.Method, a.Presentation().DisplayName(c.Method), strconv.Itoa(c.N),
		csvNum(c.Accuracy * 100), csvNum(c.AccuracyStd * 100), csvNum(c.BalancedAccuracy * 100), c.Selection, strconv.FormatBool(best), strconv.FormatBool(chance), paperS, diffS}
}

// accuracyMeans is the mean row over the datasets each method has (the
// analysis's means) and its CSV lines.
func accuracyMeans(a *analysis.Analysis, protocol string, methods []string, datasets int) ([]Entry, [][]string) {
	pres := a.Presentation()
	row := []Entry{{Text: "Mean"}}
	var csv [][]string
	for _, m := range methods {
		mm, ok := a.MeanOf(protocol, m)
		if !ok {
			row = append(row, Entry{Text: "—"})
			continue
		}
		e := Entry{Text: pct(mm.Accuracy), Bold: mm.Best}
		if mm.Datasets != datasets {
			e.Text += " (" + plural(mm.Datasets, "dataset") + ")"
		}
		row = append(row, e)
		csv = append(csv, []string{protocol, "mean", m, pres.DisplayName(m), strconv.Itoa(mm.Datasets),
			csvNum(mm.Accuracy * 100), "", "", "", strconv.FormatBool(e.Bold), "", "", ""})
	}
	return row, csv
}
