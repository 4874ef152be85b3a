package html

import (
	"strconv"
	"strings"

	"github.com/fgrtbench/fgrtbench/analysis"
)

// Table is one of the report's tables as package reports rendered it from
// the same analysis (the paper's tables: reproduction, complexity,
// protocol gap, partition optimisation): the page shows its cells as
// they are and computes none.
type Table struct {
	Name, Title, Summary string
	Header               []string
	// Align gives 'l', 'r' or 'c' per column.
	Align string
	Rows  [][]TableCell
	Notes []string
}

// TableCell is one cell of a Table: its text, an optional second line and
// bold.
type TableCell struct {
	Text, Sub string
	Bold      bool
}

// verdictView is the reproduction verdict as the page shows it first.
type verdictView struct {
	Summary   string
	Tolerance string
	Methods   []verdictMethodView
	Failed    bool
}

type verdictMethodView struct {
	Display, Authors, Paper string
	Causes                  []verdictCauseView
}

type verdictCauseView struct {
	Text string
	// Cells name the cells of a typo or an unexplained difference with
	// their values ("" for causes that hold by construction).
	Cells  string
	Failed bool
}

// verdictOf renders the analysis's reproduction verdict (nil without one:
// a study that is not the paper's).
func verdictOf(r *analysis.Reproduction) *verdictView {
	if r == nil {
		return nil
	}
	v := &verdictView{Summary: r.Summary, Tolerance: strconv.FormatFloat(r.Tolerance, 'g', -1, 64), Failed: r.Unexplained() > 0}
	for _, m := range r.Methods {
		mv := verdictMethodView{Display: m.Display, Authors: "—", Paper: "—"}
		if m.AuthorsCells > 0 {
			mv.Authors = strconv.Itoa(m.AuthorsExact) + " of " + strconv.Itoa(m.AuthorsCells)
		}
		if m.PaperCells > 0 {
			mv.Paper = strconv.Itoa(m.PaperExact) + " of " + strconv.Itoa(m.PaperCells)
		}
		for _, d := range m.AuthorsDiffering {
			mv.Causes = append(mv.Causes, verdictCauseView{Text: d.Dataset + ": ours " + pct(d.Ours) + ", the authors' " + pct(d.Authors) + " (not reproduced)", Failed: true})
		}
		for _, cc := range m.CauseCounts() {
			cv := verdictCauseView{Text: strconv.Itoa(cc.Cells) + ": " + cc.Text, Failed: cc.Cause == analysis.CauseUnexplained}
			if !cc.Cause.ByConstruction() {
				var cells []string
				for _, d := range m.Differing {
					if d.Cause == cc.Cause {
						cells = append(cells, d.Dataset+", ours "+num(d.Ours, 2)+", printed "+num(d.Paper, 2))
					}
				}
				cv.Cells = strings.Join(cells, "; ")
			}
			mv.Causes = append(mv.Causes, cv)
		}
		v.Methods = append(v.Methods, mv)
	}
	return v
}
