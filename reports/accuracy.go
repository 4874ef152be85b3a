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
			e := Entry{Text: pct(c.Accuracy) + " ± " + pct(c.AccuracyStd), Bold: c.BestOnDataset}
			sp, seeded := seeds[cellKey{protocol, ds, m}]
			if seeded {
				e.Text = pct(sp.Mean) + " ± " + pct(sp.Std) + " ‡"
				lg.use("‡")
			}
			if c.TestSelected() {
				e.Text += " †"
				lg.use("†")
			}
			_, chance := a.ChanceOf(protocol, ds, m)
			if chance {
				e.Text += " §"
				lg.use("§")
			}
			paperS, diffS := "", ""
			if v, _, _, ok := paperComparable(protocol, m, ds); ok && a.PaperDataset(ds) {
				paperS, diffS = fixed(v, 2), csvNum(c.Accuracy*100-v)
			}
			row = append(row, e)
			t.CSVRows = append(t.CSVRows, []string{protocol, ds, m, pres.DisplayName(m), strconv.Itoa(c.N),
				csvNum(c.Accuracy * 100), csvNum(c.AccuracyStd * 100), csvNum(c.BalancedAccuracy * 100), c.Selection, strconv.FormatBool(e.Bold), strconv.FormatBool(chance), paperS, diffS})
		}
		t.Rows = append(t.Rows, row)
	}

	// Mean row over the datasets each method has: the analysis's means.
	row := []Entry{{Text: "Mean"}}
	for _, m := range methods {
		mm, ok := a.MeanOf(protocol, m)
		if !ok {
			row = append(row, Entry{Text: "—"})
			continue
		}
		e := Entry{Text: pct(mm.Accuracy), Bold: mm.Best}
		if mm.Datasets != len(datasets) {
			e.Text += " (" + plural(mm.Datasets, "dataset") + ")"
		}
		row = append(row, e)
		t.CSVRows = append(t.CSVRows, []string{protocol, "mean", m, pres.DisplayName(m), strconv.Itoa(mm.Datasets),
			csvNum(mm.Accuracy * 100), "", "", "", strconv.FormatBool(e.Bold), "", "", ""})
	}
	t.Rows = append(t.Rows, row)
	t.Notes = []string{
		"Mean ± population standard deviation (ddof 0) over the folds and repeats of the selected configuration, in percent; bold = best on the dataset. Marks are explained in the legend at the end of REPORT.md.",
	}
	if protocol == "holdout" {
		t.Notes = append(t.Notes, "Under holdout, the paper's FGA column was counted on this very split; its other columns are means over the paper protocol's 5 folds.")
	}
	return t
}
