package reports

import (
	"fmt"
	"math"
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
	sums := make([]float64, len(methods))
	counts := make([]int, len(methods))
	for _, ds := range datasets {
		row := []Entry{{Text: ds}}
		best := math.Inf(-1)
		for _, m := range methods {
			if c, ok := ix.get(protocol, ds, m); ok && c.Accuracy > best {
				best = c.Accuracy
			}
		}
		for j, m := range methods {
			c, ok := ix.get(protocol, ds, m)
			if !ok {
				row = append(row, Entry{Text: "—"})
				continue
			}
			sums[j] += c.Accuracy
			counts[j]++
			e := Entry{Text: pct(c.Accuracy) + " ± " + pct(c.AccuracyStd), Bold: best-c.Accuracy <= analysis.TieTol}
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

	// Mean row over the datasets each method has.
	means := make([]float64, len(methods))
	bestMean := math.Inf(-1)
	for j := range methods {
		if counts[j] > 0 {
			means[j] = sums[j] / float64(counts[j])
			bestMean = math.Max(bestMean, means[j])
		}
	}
	row := []Entry{{Text: "Mean"}}
	for j, m := range methods {
		if counts[j] == 0 {
			row = append(row, Entry{Text: "—"})
			continue
		}
		e := Entry{Text: pct(means[j]), Bold: bestMean-means[j] <= analysis.TieTol}
		if counts[j] != len(datasets) {
			e.Text += " (" + plural(counts[j], "dataset") + ")"
		}
		row = append(row, e)
		t.CSVRows = append(t.CSVRows, []string{protocol, "mean", m, pres.DisplayName(m), strconv.Itoa(counts[j]),
			csvNum(means[j] * 100), "", "", "", strconv.FormatBool(e.Bold), "", "", ""})
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

// coversExactly reports whether the method has a cell for every dataset in ds.
func coversExactly(ix cellIndex, protocol, method string, ds []string) bool {
	for _, d := range ds {
		if _, ok := ix.get(protocol, d, method); !ok {
			return false
		}
	}
	return true
}
