package reports

import (
	"fmt"
	"math"
	"strconv"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/results"
)

// exact formats a float with the fewest digits that read back identically.
func exact(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// paperCheckColumns declares the reproduction check: ours beside the
// authors' (ours — shown, empty written, where the study lacks the cell),
// the difference in bold beyond tol.
func paperCheckColumns(tol float64, pres results.Presentation) []Column[analysis.PaperCheckRow] {
	type row = analysis.PaperCheckRow
	off := func(r row) bool { return math.Abs(r.Diff) > tol }
	ours := func(header, csv string, shown func(row) Entry, written func(row) string) Column[row] {
		return Column[row]{Header: header, Align: 'r', CSV: csv,
			Show: func(r row) Entry {
				if !r.Have {
					return Entry{Text: "—"}
				}
				return shown(r)
			},
			Write: func(r row) string {
				if !r.Have {
					return ""
				}
				return written(r)
			}}
	}
	text := func(f func(row) string) func(row) Entry { return func(r row) Entry { return Entry{Text: f(r)} } }
	authors := func(header, csv string, shown, written func(row) string) Column[row] {
		return Column[row]{Header: header, Align: 'r', Show: text(shown), CSV: csv, Write: written}
	}
	return []Column[row]{
		{Header: "Dataset", Show: func(r row) Entry { return Entry{Text: r.Dataset} },
			CSV: "dataset", Write: func(r row) string { return r.Dataset }},
		{Header: "Method", Show: func(r row) Entry { return Entry{Text: pres.DisplayName(r.Method)} },
			CSV: "method", Write: func(r row) string { return r.Method }},
		{CSV: "have", Write: func(r row) string { return strconv.FormatBool(r.Have) }},
		ours("Ours (%)", "ours", text(func(r row) string { return pct(r.Ours) }), func(r row) string { return exact(r.Ours) }),
		authors("Authors (%)", "authors", func(r row) string { return pct(r.Authors) }, func(r row) string { return exact(r.Authors) }),
		ours("Δ (pp)", "diff", func(r row) Entry { return Entry{Text: signed(r.Diff*100, 2), Bold: off(r)} }, func(r row) string { return exact(r.Diff) }),
		ours("Std ours", "ours_std", text(func(r row) string { return pct(r.OursStd) }), func(r row) string { return exact(r.OursStd) }),
		authors("Std authors", "authors_std", func(r row) string { return pct(r.AuthorsStd) }, func(r row) string { return exact(r.AuthorsStd) }),
		ours("Leaves ours", "leaves", text(func(r row) string { return fixed(r.Leaves, 2) }), func(r row) string { return csvNum(r.Leaves) }),
		authors("Leaves authors", "authors_leaves", func(r row) string { return fixed(r.AuthorsLeaves, 2) }, func(r row) string { return csvNum(r.AuthorsLeaves) }),
		ours("Internal ours", "internal_nodes", text(func(r row) string { return fixed(r.InternalNodes, 2) }), func(r row) string { return csvNum(r.InternalNodes) }),
		authors("Internal authors", "authors_internal_nodes", func(r row) string { return fixed(r.AuthorsInternal, 2) }, func(r row) string { return csvNum(r.AuthorsInternal) }),
		{CSV: "within_tolerance", Write: func(r row) string {
			if !r.Have {
				return ""
			}
			return fmt.Sprint(!off(r))
		}},
	}
}

// PaperCheckTable renders the comparison; rows beyond tol are in bold.
func PaperCheckTable(rows []analysis.PaperCheckRow, tol float64, pres results.Presentation) Table {
	t := Table{
		Name:  "paper-check",
		Title: "Reproduction check: paper protocol against the authors' committed means",
	}
	declare(&t, paperCheckColumns(tol, pres), rows)
	have, within := 0, 0
	for _, r := range rows {
		if r.Have {
			have++
			if math.Abs(r.Diff) <= tol {
				within++
			}
		}
	}
	// The summary stands for the table where REPORT.md links it only: a
	// section with nothing but its file links says nothing.
	if have == len(rows) {
		t.Summary = fmt.Sprintf("%d of the authors' %d cells reproduced within %g (fraction).", within, have, tol)
	} else {
		t.Summary = fmt.Sprintf("%d of the %d cells of the authors' results that this study holds reproduced within %g (fraction); the other %d of their %d cells are not in this study.", within, have, tol, len(rows)-have, len(rows))
	}
	t.Notes = []string{
		fmt.Sprintf("Authors: results/fuzzy_cart_results.csv of the authors' repository (means over 5 folds, std with ddof 0). Bold: |Δ| above the tolerance %s (fraction).", fmt.Sprintf("%g", tol)),
		"Leaves and internal nodes are the authors' N_Rules and N_Unique_Conditions (fold means).",
	}
	return t
}
