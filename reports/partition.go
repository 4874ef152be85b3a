package reports

import (
	"fmt"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/paper"
)

// PartitionTable compares FGRT with FGRT* (optimised partitions) per
// dataset, ours and the paper's, with a count of datasets improved,
// unchanged and worse. The paper's columns appear under the paper protocol
// where some dataset is the paper's.
func PartitionTable(an *analysis.Analysis, protocol string) Table {
	cells := analysis.FilterProtocol(an.Cells, protocol)
	paperColumns := false
	ix := newCellIndex(cells)
	t := Table{
		Name:      "partition-" + protocol,
		Title:     fmt.Sprintf("Effect of partition optimisation (FGRT* − FGRT), %s protocol", protocol),
		Header:    []string{"Dataset", "FGRT", "FGRT*", "Δ", "Paper FGRT", "Paper FGRT*", "Paper Δ"},
		Align:     "lrrrrrr",
		CSVHeader: []string{"protocol", "dataset", "fgrt", "fgrt_opt", "diff", "paper_fgrt", "paper_fgrt_opt", "paper_diff"},
	}
	for _, ds := range analysis.DatasetsOf(cells) {
		a, okA := ix.get(protocol, ds, "fgrt")
		b, okB := ix.get(protocol, ds, "fgrt-opt")
		if !okA || !okB {
			continue
		}
		d := (b.Accuracy - a.Accuracy) * 100
		row := []Entry{{Text: ds}, {Text: pct(a.Accuracy)}, {Text: pct(b.Accuracy)}, {Text: signed(d, 2), Bold: d > analysis.SamePP}}
		csvRow := []string{protocol, ds, csvNum(a.Accuracy * 100), csvNum(b.Accuracy * 100), csvNum(d)}
		pa, okPA := paper.Accuracy(ds, paper.FGRT)
		pb, okPB := paper.Accuracy(ds, paper.FGRTStar)
		if !an.PaperDataset(ds) {
			okPA, okPB = false, false
		}
		if protocol != "paper" {
			// The paper's values are comparable under its protocol only.
		} else if okPA && okPB {
			paperColumns = true
			pd := pb - pa
			row = append(row, Entry{Text: fixed(pa, 2)}, Entry{Text: fixed(pb, 2)}, Entry{Text: signed(pd, 2), Bold: pd > analysis.SamePP})
			csvRow = append(csvRow, fixed(pa, 2), fixed(pb, 2), fixed(pd, 2))
		} else {
			row = append(row, Entry{Text: "—"}, Entry{Text: "—"}, Entry{Text: "—"})
			csvRow = append(csvRow, "", "", "")
		}
		t.Rows = append(t.Rows, row)
		t.CSVRows = append(t.CSVRows, csvRow)
	}
	// The counts are the analysis's partition effect.
	e, _ := an.PartitionEffectOf(protocol)
	t.Notes = []string{
		fmt.Sprintf("Ours: FGRT* better on %d, unchanged on %d (|Δ| < %.3f pp), worse on %d of %s. Paper (on the same datasets): better on %d, unchanged on %d, worse on %d.",
			e.Improved, e.Unchanged, analysis.SamePP, e.Worse, plural(e.Datasets, "dataset"), e.PaperImproved, e.PaperUnchanged, e.PaperWorse),
		"Accuracies in percent; Δ in percentage points; improvements in bold.",
	}
	if !paperColumns {
		// Paper columns only where the paper's numbers are comparable.
		t.Header, t.Align, t.CSVHeader = t.Header[:4], t.Align[:4], t.CSVHeader[:5]
		for i := range t.Rows {
			t.Rows[i] = t.Rows[i][:4]
			t.CSVRows[i] = t.CSVRows[i][:5]
		}
		t.Notes[0] = fmt.Sprintf("FGRT* better on %d, unchanged on %d (|Δ| < %.3f pp), worse on %d of %s.", e.Improved, e.Unchanged, analysis.SamePP, e.Worse, plural(e.Datasets, "dataset"))
	}
	return t
}
