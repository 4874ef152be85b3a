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
		Name:  "partition-" + protocol,
		Title: fmt.Sprintf("Effect of partition optimisation (FGRT* − FGRT), %s protocol", protocol),
	}
	var pairs []analysis.PartitionPair
	paperColumns := false
	for _, ds := range analysis.DatasetsOf(analysis.FilterProtocol(an.Cells, protocol)) {
		if pair, ok := e.PairOf(ds); ok {
			pairs = append(pairs, pair)
			paperColumns = paperColumns || (protocol == "paper" && pair.Paper)
		}
	}
	t.Notes = []string{
		fmt.Sprintf("Ours: FGRT* better on %d, unchanged on %d (|Δ| < %.3f pp), worse on %d of %s. Paper (on the same datasets): better on %d, unchanged on %d, worse on %d.",
			e.Improved, e.Unchanged, analysis.SamePP, e.Worse, plural(e.Datasets, "dataset"), e.PaperImproved, e.PaperUnchanged, e.PaperWorse),
		"Accuracies in percent; Δ in percentage points; improvements in bold.",
	}
	cols := partitionColumns(protocol)
	if paperColumns {
		cols = append(cols, partitionPaperColumns()...)
	} else {
		// Paper columns only where the paper's numbers are comparable.
		t.Notes[0] = fmt.Sprintf("FGRT* better on %d, unchanged on %d (|Δ| < %.3f pp), worse on %d of %s.", e.Improved, e.Unchanged, analysis.SamePP, e.Worse, plural(e.Datasets, "dataset"))
	}
	declare(&t, cols, pairs)
	return t
}

// partitionColumns declares a dataset's pair: accuracies in percent, the
// difference in points, bold where FGRT* improves.
func partitionColumns(protocol string) []Column[analysis.PartitionPair] {
	type pair = analysis.PartitionPair
	return []Column[pair]{
		{CSV: "protocol", Write: func(pair) string { return protocol }},
		{Header: "Dataset", Show: func(p pair) Entry { return Entry{Text: p.Dataset} },
			CSV: "dataset", Write: func(p pair) string { return p.Dataset }},
		{Header: "FGRT", Align: 'r', Show: func(p pair) Entry { return Entry{Text: pct(p.Default)} },
			CSV: "fgrt", Write: func(p pair) string { return csvNum(p.Default * 100) }},
		{Header: "FGRT*", Align: 'r', Show: func(p pair) Entry { return Entry{Text: pct(p.Optimised)} },
			CSV: "fgrt_opt", Write: func(p pair) string { return csvNum(p.Optimised * 100) }},
		{Header: "Δ", Align: 'r', Show: func(p pair) Entry { d := p.Diff * 100; return Entry{Text: signed(d, 2), Bold: d > analysis.SamePP} },
			CSV: "diff", Write: func(p pair) string { return csvNum(p.Diff * 100) }},
	}
}

// partitionPaperColumns declares the paper's values beside ours (dashes,
// empty in the CSV, where the paper has none comparable).
func partitionPaperColumns() []Column[analysis.PartitionPair] {
	type pair = analysis.PartitionPair
	paperOnly := func(header, csv string, of func(pair) float64, shown func(float64) Entry) Column[pair] {
		return Column[pair]{Header: header, Align: 'r', CSV: csv,
			Show: func(p pair) Entry {
				if !p.Paper {
					return Entry{Text: "—"}
				}
				return shown(of(p))
			},
			Write: func(p pair) string {
				if !p.Paper {
					return ""
				}
				return fixed(of(p), 2)
			}}
	}
	value := func(v float64) Entry { return Entry{Text: fixed(v, 2)} }
	return []Column[pair]{
		paperOnly("Paper FGRT", "paper_fgrt", func(p pair) float64 { return p.PaperDefault }, value),
		paperOnly("Paper FGRT*", "paper_fgrt_opt", func(p pair) float64 { return p.PaperOptimised }, value),
		paperOnly("Paper Δ", "paper_diff", func(p pair) float64 { return p.PaperDiff }, func(d float64) Entry {
			return Entry{Text: signed(d, 2), Bold: d > analysis.SamePP}
		}),
	}
}
