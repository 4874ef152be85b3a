package analysis

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/fgrtbench/fgrtbench/paper"
)

// ReproductionTolerance is the accuracy difference (fraction) above which
// a reproduced paper-protocol mean counts as differing from the authors'
// committed mean: summation-order noise only.
const ReproductionTolerance = 1e-6

// Cause names why a reproduced cell differs from the paper's printed
// value. Every cause but CauseUnexplained is read from what the project
// keeps about the paper (package paper): which method of the authors'
// code computed a column, which columns are single hold-outs, the paper's
// known typos. A difference none of them explains is reported as
// unexplained, never put under one of them.
type Cause string

const (
	// CauseOtherAlgorithm: the paper's column was computed by another
	// method of the authors' code (J48 against the entropy CART's C4.5).
	CauseOtherAlgorithm Cause = "other-algorithm"
	// CauseSingleHoldout: the paper's value was counted on one hold-out
	// split, ours is a cross-validation mean (FGA).
	CauseSingleHoldout Cause = "single-holdout"
	// CauseNotRunByAuthors: the authors' code has no run of the method,
	// so nothing of theirs can be reproduced (RIPPER).
	CauseNotRunByAuthors Cause = "not-run-by-authors"
	// CausePaperTypo: the paper's printed value disagrees with the
	// authors' committed result, which ours reproduces (saheart's C4.5).
	CausePaperTypo Cause = "paper-typo"
	// CauseUnexplained: none of the above; a failure to reproduce.
	CauseUnexplained Cause = "unexplained"
)

// causeOrder is the order causes are counted and listed in.
var causeOrder = []Cause{CauseOtherAlgorithm, CauseSingleHoldout, CauseNotRunByAuthors, CausePaperTypo, CauseUnexplained}

// ByConstruction reports whether a cause makes a difference inevitable
// whatever the reproduction does: the paper's value is not a result of
// the same computation.
func (c Cause) ByConstruction() bool {
	return c == CauseOtherAlgorithm || c == CauseSingleHoldout || c == CauseNotRunByAuthors
}

// Explain says in words what a cause means; other names the method of the
// authors' code behind the paper's column (CauseOtherAlgorithm only).
func (c Cause) Explain(other string) string {
	switch c {
	case CauseOtherAlgorithm:
		return "the paper's column was computed by another algorithm, " + other
	case CauseSingleHoldout:
		return "the paper's value is one hold-out split, ours a cross-validation mean"
	case CauseNotRunByAuthors:
		return "the authors' code never ran this method"
	case CausePaperTypo:
		return "a typo in the paper (the authors' committed result, which ours reproduces, differs from the printed value)"
	}
	return "unexplained: not a known property of the paper's value"
}

// VerdictCell is one reproduced cell that differs from the paper's
// printed value (at the printed two decimals), with its cause.
type VerdictCell struct {
	Dataset string `json:"dataset"`
	Method  string `json:"method"`
	Column  string `json:"paper_column"`
	// Ours and Paper are accuracies in percent; DiffPP = Ours − Paper.
	Ours   float64 `json:"ours"`
	Paper  float64 `json:"paper"`
	DiffPP float64 `json:"diff_pp"`
	Cause  Cause   `json:"cause"`
	// Other is the display name of the method of the authors' code that
	// computed the paper's column (CauseOtherAlgorithm only).
	Other string `json:"other_method,omitempty"`
}

// MethodVerdict is one method's reproduction: its cells against the
// authors' committed means (the authors' methods only) and against the
// paper's printed table, and its differing cells.
type MethodVerdict struct {
	Method  string `json:"method"`
	Display string `json:"display"`
	Column  string `json:"paper_column"`
	// AuthorsCells counts the method's cells that the authors' committed
	// results hold and the study reproduced; AuthorsExact those within
	// the tolerance. Both 0 for a method the authors' code never ran.
	AuthorsCells int `json:"authors_cells"`
	AuthorsExact int `json:"authors_exact"`
	// PaperCells counts the cells with a printed value in the paper;
	// PaperExact those equal to it at the printed two decimals.
	PaperCells int           `json:"paper_cells"`
	PaperExact int           `json:"paper_exact"`
	Differing  []VerdictCell `json:"differing,omitempty"`
	// AuthorsDiffering are the cells beyond the tolerance from the
	// authors' committed means: each is a failure to reproduce.
	AuthorsDiffering []PaperCheckRow `json:"authors_differing,omitempty"`
}

// CauseCount is how many differing cells one cause explains, and whose.
type CauseCount struct {
	Cause   Cause    `json:"cause"`
	Cells   int      `json:"cells"`
	Methods []string `json:"methods"`
	// Text explains the cause (with the other algorithm's name for
	// CauseOtherAlgorithm).
	Text string `json:"text"`
}

// Reproduction is the reproduction verdict of the paper's study: what the
// paper protocol reproduced, method by method, and why each differing cell
// differs (docs/report.md#reproduction-verdict). Every view prints it
// first; a study that is not the paper's has none.
type Reproduction struct {
	Tolerance float64         `json:"tolerance"`
	Methods   []MethodVerdict `json:"methods"`
	// Totals over the methods.
	AuthorsCells int `json:"authors_cells"`
	AuthorsExact int `json:"authors_exact"`
	PaperCells   int `json:"paper_cells"`
	PaperExact   int `json:"paper_exact"`
	// Causes count the differing cells by cause, in causeOrder, causes
	// without a cell left out.
	Causes []CauseCount `json:"causes"`
	// Summary is the verdict in one line.
	Summary string `json:"summary"`
}

// Unexplained counts the cells that failed to reproduce: against the
// authors' committed means, or against the paper for no known cause.
func (r *Reproduction) Unexplained() int {
	n := r.AuthorsCells - r.AuthorsExact
	for _, c := range r.Causes {
		if c.Cause == CauseUnexplained {
			n += c.Cells
		}
	}
	return n
}

// IsPaperStudy reports whether the study is the paper's own: the built-in
// paper study (reproduce, or a spec named paper) on the paper's datasets
// only, with the paper protocol. Only it gets a reproduction verdict; a
// study of a user's own that shares a dataset or method with the paper
// does not.
func (a *Analysis) IsPaperStudy() bool {
	if a.Study.Name != "paper" && !(a.Study.Name == "" && strings.Contains(" "+a.Study.Command+" ", " reproduce ")) {
		return false
	}
	if len(a.Study.Datasets) == 0 || !hasProtocolName(a.Protocols, "paper") {
		return false
	}
	for _, d := range a.Study.Datasets {
		if !a.PaperDataset(d.Name) {
			return false
		}
	}
	return true
}

func hasProtocolName(list []string, p string) bool {
	for _, v := range list {
		if v == p {
			return true
		}
	}
	return false
}

// computeReproduction is the verdict of the paper study (nil for any
// other study).
func computeReproduction(a *Analysis) *Reproduction {
	if !a.IsPaperStudy() {
		return nil
	}
	return reproductionOf(a, FilterProtocol(a.PaperCells(), "paper"), ReproductionTolerance)
}

// reproductionOf classifies the paper-protocol cells of an analysis.
func reproductionOf(a *Analysis, cells []Cell, tol float64) *Reproduction {
	r := &Reproduction{Tolerance: tol}
	byMethod := map[string]*MethodVerdict{}
	var order []string
	verdictOf := func(m string) *MethodVerdict {
		if v, ok := byMethod[m]; ok {
			return v
		}
		col, _ := PaperColumn(m)
		byMethod[m] = &MethodVerdict{Method: m, Display: a.Display(m), Column: col}
		order = append(order, m)
		return byMethod[m]
	}
	for _, c := range cells {
		pc, ok := a.PaperComparisonOf(c)
		if !ok {
			continue
		}
		v := verdictOf(c.Method)
		v.PaperCells++
		if twoDecimals(c.Accuracy*100) == twoDecimals(pc.Paper) {
			v.PaperExact++
			continue
		}
		cause, other := causeOf(c, pc.Column)
		if other != "" {
			other = a.Display(other)
		}
		v.Differing = append(v.Differing, VerdictCell{Dataset: c.Dataset, Method: c.Method, Column: pc.Column,
			Ours: c.Accuracy * 100, Paper: pc.Paper, DiffPP: pc.DiffPP, Cause: cause, Other: other})
	}
	for _, row := range PaperCheck(cells) {
		if !row.Have {
			continue
		}
		v := verdictOf(row.Method)
		v.AuthorsCells++
		if math.Abs(row.Diff) <= tol {
			v.AuthorsExact++
		} else {
			v.AuthorsDiffering = append(v.AuthorsDiffering, row)
		}
	}
	// Methods in the analysis's display order.
	for _, m := range a.Methods {
		v, ok := byMethod[m.Label]
		if !ok {
			continue
		}
		r.Methods = append(r.Methods, *v)
		r.AuthorsCells += v.AuthorsCells
		r.AuthorsExact += v.AuthorsExact
		r.PaperCells += v.PaperCells
		r.PaperExact += v.PaperExact
	}
	if len(r.Methods) < len(order) { // a label the analysis does not list
		for _, m := range order {
			if !hasMethod(a.Methods, m) {
				v := byMethod[m]
				r.Methods = append(r.Methods, *v)
				r.AuthorsCells += v.AuthorsCells
				r.AuthorsExact += v.AuthorsExact
				r.PaperCells += v.PaperCells
				r.PaperExact += v.PaperExact
			}
		}
	}
	r.Causes = countCauses(r.Methods)
	r.Summary = r.summary()
	return r
}

// twoDecimals is a percentage as the paper prints it.
func twoDecimals(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }

// causeOf classifies a cell that differs from the paper's printed value
// of column, from what package paper records about the column and the
// cell. It returns the method of the authors' code behind the column for
// CauseOtherAlgorithm.
func causeOf(c Cell, column string) (Cause, string) {
	base, _ := splitVariant(c.Method)
	authors, ran := paper.AuthorsMethodOf(column)
	switch {
	case ran && authors != base:
		return CauseOtherAlgorithm, authors
	case !ran && paper.HoldoutColumn(column):
		return CauseSingleHoldout, ""
	case !ran:
		return CauseNotRunByAuthors, ""
	}
	// The authors' own method: the paper's value may only differ from
	// ours where the paper misprinted the authors' result and ours equals
	// that result.
	if d, ok := paper.DiscrepancyOf(c.Dataset, column); ok && twoDecimals(c.Accuracy*100) == twoDecimals(d.Authors) {
		return CausePaperTypo, ""
	}
	return CauseUnexplained, ""
}

// countCauses totals the differing cells by cause.
func countCauses(methods []MethodVerdict) []CauseCount {
	var out []CauseCount
	for _, cause := range causeOrder {
		cc := CauseCount{Cause: cause}
		others := []string{}
		for _, v := range methods {
			n := 0
			for _, d := range v.Differing {
				if d.Cause == cause {
					n++
					if d.Other != "" && !containsString(others, d.Other) {
						others = append(others, d.Other)
					}
				}
			}
			if n > 0 {
				cc.Cells += n
				cc.Methods = append(cc.Methods, v.Display)
			}
		}
		if cc.Cells > 0 {
			cc.Text = cause.Explain(strings.Join(others, ", "))
			out = append(out, cc)
		}
	}
	return out
}

func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// summary says in one line what reproduced and why the rest differs.
func (r *Reproduction) summary() string {
	var b strings.Builder
	switch {
	case r.AuthorsCells == 0:
		b.WriteString("The study holds no cell of the authors' committed results")
	case r.AuthorsExact == r.AuthorsCells:
		fmt.Fprintf(&b, "Every cell the authors' code produced reproduces (%d of %d, within %g)", r.AuthorsExact, r.AuthorsCells, r.Tolerance)
	default:
		bad := r.AuthorsCells - r.AuthorsExact
		do := "do"
		if bad == 1 {
			do = "does"
		}
		fmt.Fprintf(&b, "%d of the %d cells the authors' code produced reproduce and %d %s NOT (beyond %g of their committed means)",
			r.AuthorsExact, r.AuthorsCells, bad, strings.ToUpper(do), r.Tolerance)
	}
	fmt.Fprintf(&b, "; against the paper's printed table %d of %d cells are equal", r.PaperExact, r.PaperCells)
	var items []string
	construction := 0
	for _, cause := range causeOrder {
		if !cause.ByConstruction() {
			continue
		}
		for _, v := range r.Methods {
			n, other := 0, ""
			for _, d := range v.Differing {
				if d.Cause == cause {
					n++
					other = d.Other
				}
			}
			if n == 0 {
				continue
			}
			construction += n
			switch cause {
			case CauseOtherAlgorithm:
				items = append(items, fmt.Sprintf("%d of %s, whose paper column %s computed", n, v.Display, other))
			case CauseSingleHoldout:
				items = append(items, fmt.Sprintf("%d of %s, whose paper value is a single hold-out", n, v.Display))
			default:
				items = append(items, fmt.Sprintf("%d of %s, which the authors' code never ran", n, v.Display))
			}
		}
	}
	var rest []string
	if construction > 0 {
		rest = append(rest, fmt.Sprintf("%d differ by construction (%s)", construction, strings.Join(items, "; ")))
	}
	for _, cause := range []Cause{CausePaperTypo, CauseUnexplained} {
		var where []string
		for _, v := range r.Methods {
			for _, d := range v.Differing {
				if d.Cause == cause {
					where = append(where, d.Dataset+" "+v.Display)
				}
			}
		}
		if len(where) == 0 {
			continue
		}
		what := "a typo in the paper"
		if cause == CauseUnexplained {
			what = "UNEXPLAINED"
		}
		rest = append(rest, fmt.Sprintf("%d %s %s (%s)", len(where), isAre(len(where)), what, strings.Join(where, ", ")))
	}
	switch len(rest) {
	case 0:
	case 1:
		b.WriteString("; " + rest[0])
	default:
		b.WriteString("; " + strings.Join(rest[:len(rest)-1], ", ") + " and " + rest[len(rest)-1])
	}
	b.WriteString(".")
	return b.String()
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// CauseCounts groups a method's differing cells by cause, in causeOrder,
// each with its explanation: what every view prints beside the method.
func (v MethodVerdict) CauseCounts() []CauseCount {
	return countCauses([]MethodVerdict{v})
}

// CauseOfCell returns the cause of a reproduced cell's difference from
// the paper's printed value (false when the cell equals it or is not in
// the verdict): the paper table's Cause column.
func (r *Reproduction) CauseOfCell(dataset, method string) (VerdictCell, bool) {
	if r == nil {
		return VerdictCell{}, false
	}
	for _, v := range r.Methods {
		for _, d := range v.Differing {
			if d.Dataset == dataset && d.Method == method {
				return d, true
			}
		}
	}
	return VerdictCell{}, false
}
