package analysis

import (
	"math"

	"github.com/fgrtbench/fgrtbench/paper"
)

// PaperCheckRow compares one reproduced paper-protocol cell with the
// authors' committed mean (fuzzy_cart_results.csv): the report's
// reproduction check and the gate's paper comparison (gate.PaperRow, which
// it converts to) both take these rows.
type PaperCheckRow struct {
	Dataset, Method string
	// Have is false when the results hold no paper-protocol cell for it.
	Have bool
	// Ours and Authors are accuracies as fractions; Diff = Ours − Authors.
	Ours, OursStd, Authors, AuthorsStd, Diff float64
	// Leaves and InternalNodes (ours) against the authors' N_Rules and
	// N_Unique_Conditions.
	Leaves, AuthorsLeaves, InternalNodes, AuthorsInternal float64
}

// PaperCheck lists every (dataset, method) of the authors' committed results
// (fgrt, fgrt-opt, cart, c45-entropy on the ten datasets), in the paper's
// dataset order, with the reproduced paper-protocol values where present.
func PaperCheck(cells []Cell) []PaperCheckRow {
	ix := map[cellKey]Cell{}
	for _, c := range cells {
		ix[cellKey{c.Protocol, c.Dataset, c.Method}] = c
	}
	var out []PaperCheckRow
	for _, ds := range paper.Datasets {
		for _, m := range paper.AuthorsMethods {
			a, _ := paper.Authors(ds, m)
			r := PaperCheckRow{Dataset: ds, Method: m, Authors: a.Accuracy, AuthorsStd: a.AccuracyStd,
				AuthorsLeaves: a.NRules, AuthorsInternal: a.NUniqueConditions}
			if c, ok := ix[cellKey{"paper", ds, m}]; ok {
				r.Have = true
				r.Ours, r.OursStd, r.Diff = c.Accuracy, c.AccuracyStd, c.Accuracy-a.Accuracy
				r.Leaves, r.InternalNodes = c.Leaves, c.InternalNodes
			}
			out = append(out, r)
		}
	}
	return out
}

// PaperMismatches returns the rows present in the results whose accuracy
// differs from the authors' by more than tol (a fraction: 1e-9 demands
// equality up to rounding, 0.0001 is 0.01 percentage points).
func PaperMismatches(rows []PaperCheckRow, tol float64) []PaperCheckRow {
	var out []PaperCheckRow
	for _, r := range rows {
		if r.Have && math.Abs(r.Diff) > tol {
			out = append(out, r)
		}
	}
	return out
}

// PaperMissing returns the rows the results do not cover.
func PaperMissing(rows []PaperCheckRow) []PaperCheckRow {
	var out []PaperCheckRow
	for _, r := range rows {
		if !r.Have {
			out = append(out, r)
		}
	}
	return out
}
