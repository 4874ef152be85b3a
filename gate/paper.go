package gate

import (
	"fmt"
	"io"
	"math"
	"text/tabwriter"
)

// PaperRow is one reproduced paper-protocol cell beside the authors'
// committed mean, as the analysis computes it (analysis.PaperCheckRow, which
// converts to it): the gate judges the cells, the analysis computes them.
type PaperRow struct {
	Dataset, Method string
	// Have is false when the results hold no paper-protocol cell for it.
	Have bool
	// Ours and Authors are accuracies as fractions; Diff = Ours − Authors.
	Ours, OursStd, Authors, AuthorsStd, Diff float64
	// Leaves and InternalNodes (ours) against the authors' N_Rules and
	// N_Unique_Conditions.
	Leaves, AuthorsLeaves, InternalNodes, AuthorsInternal float64
}

// PaperDiff is one reproduced paper-protocol cell against the authors'
// committed mean, with the gate's verdict.
type PaperDiff struct {
	PaperRow
	// Match: accuracy, leaves and internal nodes all equal the authors'.
	Match bool
	// Note is the baseline's explanation of an accepted difference.
	Note string
	// Explained is Match, or a note explains the difference.
	Explained bool
}

// paperTol absorbs the last-digit rounding of a mean of five fractions.
const paperTol = 1e-9

// PaperCompare judges every (method, dataset) of the authors' committed
// results that the rows cover (fgrt, fgrt-opt, cart, c45-entropy under the
// paper protocol; analysis.PaperCheck computes them from the cells).
// notes are keyed "method/dataset".
func PaperCompare(rows []PaperRow, notes map[string]string) []PaperDiff {
	var out []PaperDiff
	for _, r := range rows {
		if !r.Have {
			continue
		}
		d := PaperDiff{PaperRow: r, Note: notes[r.Method+"/"+r.Dataset]}
		d.Match = math.Abs(r.Diff) <= paperTol && math.Abs(r.Leaves-r.AuthorsLeaves) <= paperTol &&
			math.Abs(r.InternalNodes-r.AuthorsInternal) <= paperTol
		d.Explained = d.Match || d.Note != ""
		out = append(out, d)
	}
	return out
}

// WritePaperTable prints the paper comparison.
func WritePaperTable(w io.Writer, ds []PaperDiff) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "method\tdataset\tours\tauthors\tdiff (pp)\tleaves ours/authors\tinternal ours/authors\tstatus")
	matched := 0
	for _, d := range ds {
		status := "match"
		switch {
		case d.Match:
			matched++
		case d.Explained:
			status = "explained: " + d.Note
		default:
			status = "DRIFT"
		}
		fmt.Fprintf(tw, "%s\t%s\t%.6f\t%.6f\t%+.2f\t%.1f/%.1f\t%.1f/%.1f\t%s\n", d.Method, d.Dataset, d.Ours, d.Authors,
			100*d.Diff, d.Leaves, d.AuthorsLeaves, d.InternalNodes, d.AuthorsInternal, status)
	}
	tw.Flush()
	fmt.Fprintf(w, "paper check: %d of %d (method, dataset) means equal the authors' committed numbers\n", matched, len(ds))
}
