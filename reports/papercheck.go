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

// PaperCheckTable renders the comparison; rows beyond tol are in bold.
func PaperCheckTable(rows []analysis.PaperCheckRow, tol float64, pres results.Presentation) Table {
	t := Table{
		Name:      "paper-check",
		Title:     "Reproduction check: paper protocol against the authors' committed means",
		Header:    []string{"Dataset", "Method", "Ours (%)", "Authors (%)", "Δ (pp)", "Std ours", "Std authors", "Leaves ours", "Leaves authors", "Internal ours", "Internal authors"},
		Align:     "llrrrrrrrrr",
		CSVHeader: []string{"dataset", "method", "have", "ours", "authors", "diff", "ours_std", "authors_std", "leaves", "authors_leaves", "internal_nodes", "authors_internal_nodes", "within_tolerance"},
	}
	for _, r := range rows {
		authors := []string{pct(r.Authors), pct(r.AuthorsStd), fixed(r.AuthorsLeaves, 2), fixed(r.AuthorsInternal, 2)}
		if !r.Have {
			t.Rows = append(t.Rows, []Entry{{Text: r.Dataset}, {Text: pres.DisplayName(r.Method)}, {Text: "—"}, {Text: authors[0]}, {Text: "—"},
				{Text: "—"}, {Text: authors[1]}, {Text: "—"}, {Text: authors[2]}, {Text: "—"}, {Text: authors[3]}})
			t.CSVRows = append(t.CSVRows, []string{r.Dataset, r.Method, "false", "", exact(r.Authors), "", "", exact(r.AuthorsStd),
				"", csvNum(r.AuthorsLeaves), "", csvNum(r.AuthorsInternal), ""})
			continue
		}
		off := math.Abs(r.Diff) > tol
		t.Rows = append(t.Rows, []Entry{{Text: r.Dataset}, {Text: pres.DisplayName(r.Method)}, {Text: pct(r.Ours)}, {Text: authors[0]},
			{Text: signed(r.Diff*100, 2), Bold: off}, {Text: pct(r.OursStd)}, {Text: authors[1]},
			{Text: fixed(r.Leaves, 2)}, {Text: authors[2]}, {Text: fixed(r.InternalNodes, 2)}, {Text: authors[3]}})
		t.CSVRows = append(t.CSVRows, []string{r.Dataset, r.Method, "true", exact(r.Ours), exact(r.Authors),
			exact(r.Diff), exact(r.OursStd), exact(r.AuthorsStd),
			csvNum(r.Leaves), csvNum(r.AuthorsLeaves), csvNum(r.InternalNodes), csvNum(r.AuthorsInternal), fmt.Sprint(!off)})
	}
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
