package reports

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/paper"
	"github.com/fgrtbench/fgrtbench/results"
)

// paperTestSelected lists the paper's columns whose values were themselves
// chosen by test-fold accuracy (the best of 16 configurations per fold):
// they carry the same † as our test-selected cells.
var paperTestSelected = map[string]bool{paper.FGRT: true, paper.FGRTStar: true}

// paperValue formats a paper value with † when the paper chose it on the
// test folds.
func paperValue(v float64, col string) string {
	s := fixed(v, 2)
	if paperTestSelected[col] {
		s += " †"
	}
	return s
}

// paperTable lists every comparable cell of a protocol: ours, the paper's
// printed value and the difference, and, for the paper study's paper
// protocol, the cause of each difference from the analysis's reproduction
// verdict. It is a linked file; the returned count is the number of rows
// and of rows whose two-decimal values differ.
func paperTable(a *analysis.Analysis, protocol string, lg *legend) (t Table, rows, differ int) {
	verdict := a.Reproduction
	if protocol != "paper" {
		verdict = nil
	}
	t = Table{
		Name:   "paper-" + protocol,
		Title:  fmt.Sprintf("Our accuracy against the paper's printed value, %s protocol (comparable cells only)", protocol),
		Linked: true,
	}
	pres := a.Presentation()
	paperCells := analysis.FilterProtocol(a.PaperCells(), protocol)
	var lines []paperRow
	for _, c := range paperCells {
		pc, ok := a.PaperComparisonOf(c)
		if !ok {
			continue
		}
		rows++
		r := paperRow{dataset: c.Dataset, method: c.Method, shown: pct(c.Accuracy), written: csvNum(c.Accuracy * 100), PaperComparison: pc}
		if r.shown != fixed(pc.Paper, 2) {
			differ++
		}
		if c.TestSelected() {
			r.shown += " †"
			lg.use("†")
		}
		if paperTestSelected[pc.Column] {
			lg.use("†")
		}
		if verdict != nil {
			if d, ok := verdict.CauseOfCell(c.Dataset, c.Method); ok {
				r.cause, r.explained = string(d.Cause), d.Cause.Explain(d.Other)
			}
		}
		lines = append(lines, r)
	}
	// Means over the paper's ten datasets, for methods that have them all:
	// the analysis's paper_datasets_accuracy.
	for _, m := range analysis.MethodsOf(paperCells, pres) {
		mean, pc, ok := a.PaperMeanComparisonOf(protocol, m)
		if !ok {
			continue
		}
		lines = append(lines, paperRow{mean: true, method: m, shown: fixed(mean, 2), written: csvNum(mean), PaperComparison: pc})
	}
	cols := paperColumns(protocol, pres)
	if verdict != nil {
		cols = append(cols, Column[paperRow]{Header: "Cause of the difference",
			Show: func(r paperRow) Entry {
				return Entry{Text: r.explained, Bold: r.cause == string(analysis.CauseUnexplained)}
			},
			CSV: "cause", Write: func(r paperRow) string { return r.cause }})
	}
	declare(&t, cols, lines)
	t.Summary = fmt.Sprintf("%d comparable cells (same dataset and method under the protocol the paper's numbers came from); %d differ from the paper's printed value at two decimals.", rows, differ)
	if verdict != nil {
		t.Summary = verdictSummary(verdict)
	}
	return t, rows, differ
}

// paperRow is one line of the paper table: a cell, or a method's mean
// over the paper's datasets, against the paper's value.
type paperRow struct {
	dataset, method string
	mean            bool
	// shown is our value as the grid shows it (with † where test-selected),
	// written as the CSV writes it.
	shown, written string
	analysis.PaperComparison
	// cause and explained are the verdict's cause of a cell's difference
	// (empty for a mean and a cell the verdict does not list).
	cause, explained string
}

// paperColumns declares the paper table's columns; the verdict's cause
// follows for the paper study's paper protocol.
func paperColumns(protocol string, pres results.Presentation) []Column[paperRow] {
	return []Column[paperRow]{
		{CSV: "protocol", Write: func(paperRow) string { return protocol }},
		{Header: "Dataset", Show: func(r paperRow) Entry {
			if r.mean {
				return Entry{Text: "Mean"}
			}
			return Entry{Text: r.dataset}
		}, CSV: "dataset", Write: func(r paperRow) string {
			if r.mean {
				return "mean"
			}
			return r.dataset
		}},
		{Header: "Method", Show: func(r paperRow) Entry { return Entry{Text: pres.DisplayName(r.method)} },
			CSV: "method", Write: func(r paperRow) string { return r.method }},
		{Header: "Ours (%)", Align: 'r', Show: func(r paperRow) Entry { return Entry{Text: r.shown} },
			CSV: "ours", Write: func(r paperRow) string { return r.written }},
		{Header: "Paper (%)", Align: 'r', Show: func(r paperRow) Entry { return Entry{Text: paperValue(r.Paper, r.Column)} },
			CSV: "paper", Write: func(r paperRow) string { return fixed(r.Paper, 2) }},
		{Header: "Δ (pp)", Align: 'r', Show: func(r paperRow) Entry { return Entry{Text: signed(r.DiffPP, 2)} },
			CSV: "diff", Write: func(r paperRow) string { return csvNum(r.DiffPP) }},
		{CSV: "paper_test_selected", Write: func(r paperRow) string { return strconv.FormatBool(paperTestSelected[r.Column]) }},
		{Header: "Note", Show: func(r paperRow) Entry { return Entry{Text: r.Note} },
			CSV: "note", Write: func(r paperRow) string { return r.Note }},
	}
}

// verdictSummary is the paper table's one sentence for the paper study:
// the verdict's counts of cells equal to the paper's printed value and
// of the others by cause.
func verdictSummary(r *analysis.Reproduction) string {
	s := fmt.Sprintf("%d comparable cells (same dataset and method under the protocol the paper's numbers came from); %d equal the paper's printed value at two decimals", r.PaperCells, r.PaperExact)
	if len(r.Causes) == 0 {
		return s + "."
	}
	var by []string
	for _, c := range r.Causes {
		by = append(by, fmt.Sprintf("%d of %s: %s", c.Cells, strings.Join(c.Methods, ", "), c.Text))
	}
	return fmt.Sprintf("%s; the %d others, by cause: %s.", s, r.PaperCells-r.PaperExact, strings.Join(by, "; "))
}

// differencesSection compares the study with the paper, for the cells the
// paper has only: the authors' committed means (paper protocol) and the
// paper's printed table. A study without comparable cells gets no section.
func differencesSection(rep *Report, a *analysis.Analysis, tol float64, lg *legend) []byte {
	var b bytes.Buffer
	pres := a.Presentation()
	var tables []Table
	total := 0
	for _, p := range a.Protocols {
		t, n, _ := paperTable(a, p, lg)
		if n > 0 {
			tables = append(tables, t)
			total += n
		}
	}
	have := 0
	if rep.PaperCheck != nil {
		have = len(rep.PaperCheck) - len(analysis.PaperMissing(rep.PaperCheck))
	}
	if total == 0 && have == 0 {
		return nil
	}
	b.WriteString("## Comparison with the paper\n\n")
	if have > 0 {
		fmt.Fprintf(&b, "Against the authors' committed means (their code's output, paper protocol): %d of %d comparable cells reproduced within %g (fraction)",
			have-len(rep.Mismatches), have, tol)
		if len(rep.Mismatches) == 0 {
			b.WriteString(".\n\n")
		} else {
			b.WriteString("; differing:\n\n")
			for _, m := range rep.Mismatches {
				fmt.Fprintf(&b, "- %s / %s: ours %s, authors %s (Δ %s pp)\n", m.Dataset, mdEscape(pres.DisplayName(m.Method)), pct(m.Ours), pct(m.Authors), signed(m.Diff*100, 4))
			}
			b.WriteString("\n")
		}
	}
	if names := notInPaperMethods(a); len(names) > 0 {
		fmt.Fprintf(&b, "Not in the paper, so compared with none of its numbers: %s.\n\n", mdEscape(strings.Join(names, ", ")))
	}
	rep.Tables = append(rep.Tables, tables...)
	for _, t := range tables {
		fmt.Fprintf(&b, "Against the paper's printed table, %s protocol: %s See [%s.md](%s.md).\n\n", t.Name[len("paper-"):], mdEscape(t.Summary), t.Name, t.Name)
	}
	// A known inconsistency of the paper is said only where the study
	// compares a cell of its dataset (saheart's C4.5 says nothing about a
	// study of hepatitis).
	for _, d := range paper.Discrepancies {
		if comparesDataset(tables, d.Dataset) {
			fmt.Fprintf(&b, "Known inconsistency in the paper: %s.\n\n", mdEscape(d.Note))
		}
	}
	return b.Bytes()
}

// comparesDataset reports whether one of the paper-comparison tables has
// a row of the dataset.
func comparesDataset(tables []Table, dataset string) bool {
	for _, t := range tables {
		for _, r := range t.Rows {
			if len(r) > 0 && r[0].Text == dataset {
				return true
			}
		}
	}
	return false
}

// notInPaperText stands where the paper's figure for a method would be
// when the paper never ran that method.
const notInPaperText = "not in the paper"

// notInPaper says whether a method label (without a grid variant) names
// a learner the paper has no column for: FuzzyCART, the majority
// baseline, a label of the study's own such as fgrt-fixed.
func notInPaper(method string) bool {
	if _, variant := results.SplitVariant(method); variant != "" {
		return false
	}
	_, ok := analysis.PaperColumn(method)
	return !ok
}

// notInPaperMethods lists, by display name in display order, the study's
// method labels the paper has no column for.
func notInPaperMethods(a *analysis.Analysis) []string {
	var out []string
	for _, m := range analysis.MethodsOf(a.Cells, a.Presentation()) {
		if notInPaper(m) {
			out = append(out, a.Display(m))
		}
	}
	return out
}
