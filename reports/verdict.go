package reports

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/fgrtbench/fgrtbench/analysis"
)

// The reproduction verdict (analysis.Reproduction) is the first thing the
// paper study's views print: REPORT.md's first section, the terminal's
// first lines, index.html's first section. Each renders the analysis's
// counts, causes and summary; none classifies a cell itself. A study that
// is not the paper's has no verdict and prints none.

// VerdictRow is one method's line of the verdict as every view shows it.
type VerdictRow struct {
	Method, Display string
	// Authors is "N of M" against the authors' committed results, or "—"
	// for a method their code never ran; Paper "N of M" against the
	// paper's printed table.
	Authors, Paper string
	// Causes are the differing cells by cause ("10: the paper's column
	// was computed by …"), and the cells that failed to reproduce.
	Causes []string
	// Failed is true when a cell differs from the authors' results or
	// from the paper for no known cause.
	Failed bool
}

// VerdictRows renders the verdict's methods (nil without a verdict).
func VerdictRows(r *analysis.Reproduction) []VerdictRow {
	if r == nil {
		return nil
	}
	var out []VerdictRow
	for _, v := range r.Methods {
		row := VerdictRow{Method: v.Method, Display: v.Display, Authors: "—", Paper: "—"}
		if v.AuthorsCells > 0 {
			row.Authors = fmt.Sprintf("%d of %d", v.AuthorsExact, v.AuthorsCells)
		}
		if v.PaperCells > 0 {
			row.Paper = fmt.Sprintf("%d of %d", v.PaperExact, v.PaperCells)
		}
		for _, d := range v.AuthorsDiffering {
			row.Failed = true
			row.Causes = append(row.Causes, fmt.Sprintf("%s: ours %s, the authors' %s (NOT REPRODUCED)", d.Dataset, pct(d.Ours), pct(d.Authors)))
		}
		for _, cc := range v.CauseCounts() {
			s := fmt.Sprintf("%d: %s", cc.Cells, cc.Text)
			if cc.Cause == analysis.CausePaperTypo || cc.Cause == analysis.CauseUnexplained {
				// Few cells, each worth naming with its values.
				var cells []string
				for _, d := range v.Differing {
					if d.Cause == cc.Cause {
						cells = append(cells, fmt.Sprintf("%s, ours %s, printed %s", d.Dataset, fixed(d.Ours, 2), fixed(d.Paper, 2)))
					}
				}
				s += " [" + strings.Join(cells, "; ") + "]"
			}
			if cc.Cause == analysis.CauseUnexplained {
				row.Failed = true
			}
			row.Causes = append(row.Causes, s)
		}
		out = append(out, row)
	}
	return out
}

// reproductionSection is REPORT.md's first section for the paper study.
func reproductionSection(a *analysis.Analysis) []byte {
	r := a.Reproduction
	if r == nil {
		return nil
	}
	var b bytes.Buffer
	b.WriteString("## Reproduction verdict (paper protocol)\n\n")
	fmt.Fprintf(&b, "**%s**\n\n", mdEscape(r.Summary))
	b.WriteString("| Method | Authors' committed results reproduced | Equal to the paper's printed table | Differing cells: cause |\n|---|---:|---:|---|\n")
	for _, row := range VerdictRows(r) {
		causes := "—"
		if len(row.Causes) > 0 {
			causes = mdEscape(strings.Join(row.Causes, "; "))
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", mdEscape(row.Display), row.Authors, row.Paper, causes)
	}
	fmt.Fprintf(&b, "\nAuthors' results: their code's per-dataset means (paper protocol), reproduced within %g (fraction); \"—\": their code never ran the method. Paper: equal at the printed two decimals. Each differing cell with its cause: [paper-paper.md](paper-paper.md); the comparison with the paper follows the run facts.\n\n", r.Tolerance)
	return b.Bytes()
}

// writeReproduction prints the verdict on the terminal, first.
func writeReproduction(w io.Writer, a *analysis.Analysis) {
	if a == nil || a.Reproduction == nil {
		return
	}
	r := a.Reproduction
	fmt.Fprintf(w, "reproduction (paper protocol): %s\n", r.Summary)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "    method\tauthors' results\tpaper's table\tdiffering cells: cause")
	for _, row := range VerdictRows(r) {
		causes := "—"
		if len(row.Causes) > 0 {
			causes = strings.Join(row.Causes, "; ")
		}
		fmt.Fprintf(tw, "    %s\t%s\t%s\t%s\n", row.Display, row.Authors, row.Paper, causes)
	}
	tw.Flush()
}
