package reports

import (
	"fmt"

	"github.com/fgrtbench/fgrtbench/analysis"
)

// PartitionTable compares FGRT with FGRT* (optimised partitions) per
// dataset, ours and the paper's, with a count of datasets improved,
// unchanged and worse: the analysis's partition effect. The paper's
// columns appear under the paper protocol where some dataset is the
// paper's.
func PartitionTable(an *analysis.Analysis, protocol string) Table {
	e, _ := an.PartitionEffectOf(protocol)
	t := Table{
		Name:      "partition-" + protocol,
		Title:     fmt.Sprintf("Effect of partition optimisation (FGRT* − FGRT), %s protocol", protocol),
		Header:    []string{"Dataset", "FGRT", "FGRT*", "Δ", "Paper FGRT", "Paper FGRT*", "Paper Δ"},
		Align:     "lrrrrrr",
		CSVHeader: []string{"protocol", "dataset", "fgrt", "fgrt_opt", "diff", "paper_fgrt", "paper_fgrt_opt", "paper_diff"},
	}
	paperColumns := false
	for _, ds := range analysis.DatasetsOf(analysis.FilterProtocol(an.Cells, protocol)) {
		pair, ok := e.PairOf(ds)
		if !ok {
			continue
		}
		row, csvRow := partitionRow(protocol, pair)
		paperColumns = paperColumns || (protocol == "paper" && pair.Paper)
		t.Rows = append(t.Rows, row)
		t.CSVRows = append(t.CSVRows, csvRow)
	}
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

// partitionRow shows one dataset's pair; under the paper protocol, the
// paper's values (dashes where the paper has none comparable).
func partitionRow(protocol string, pair analysis.PartitionPair) ([]Entry, []string) {
	d := pair.Diff * 100
	row := []Entry{{Text: pair.Dataset}, {Text: pct(pair.Default)}, {Text: pct(pair.Optimised)}, {Text: signed(d, 2), Bold: d > analysis.SamePP}}
	csvRow := []string{protocol, pair.Dataset, csvNum(pair.Default * 100), csvNum(pair.Optimised * 100), csvNum(d)}
	switch {
	case protocol != "paper":
		// The paper's values are comparable under its protocol only.
	case pair.Paper:
		pa, pb, pd := pair.PaperDefault, pair.PaperOptimised, pair.PaperDiff
		row = append(row, Entry{Text: fixed(pa, 2)}, Entry{Text: fixed(pb, 2)}, Entry{Text: signed(pd, 2), Bold: pd > analysis.SamePP})
		csvRow = append(csvRow, fixed(pa, 2), fixed(pb, 2), fixed(pd, 2))
	default:
		row = append(row, Entry{Text: "—"}, Entry{Text: "—"}, Entry{Text: "—"})
		csvRow = append(csvRow, "", "", "")
	}
	return row, csvRow
}
