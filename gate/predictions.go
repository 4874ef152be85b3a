package gate

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/fgrtbench/fgrtbench/results/artifacts"
)

// PredictionDiff is one test row whose stored prediction differs between a
// reference directory and the results under check (or that only one of
// them holds). A change of prediction can leave every accuracy as it was
// (two wrong predictions swapped), so the row-level gate catches what the
// accuracy gate cannot. Scores and timing are not compared: the labels are
// what a deterministic method must reproduce exactly.
type PredictionDiff struct {
	Key         string
	ConfigIndex int
	Row         int
	// Was and Now are the predicted labels ("" when the row is absent on
	// that side); YTrue is the reference's true label.
	Was, Now, YTrue string
	// Note says why a row is listed when not a changed label: "missing"
	// (in the reference only), "extra" (in the results only), "true label
	// differs" (the rows are of different data).
	Note string
}

// ComparePredictions lists the rows whose predicted label differs between
// ref and cur, in (key, config, row) order. compare reports whether a
// unit's key is held to exact predictions (deterministic methods); rows of
// other keys are skipped and counted. A row that a side holds twice counts
// once, with its last occurrence.
//
// Both sides are walked in (key, config, row) order through sorted
// indexes, not looked up in maps: on a 10^6-row study the two maps of
// every row took about 600 MB beside the rows themselves.
func ComparePredictions(ref, cur artifacts.Predictions, compare func(key string) bool) (diffs []PredictionDiff, compared, skipped int) {
	was, now := ref.Rows, cur.Rows
	wi, ni := rowOrder(was), rowOrder(now)
	i, j := 0, 0
	for i < len(wi) || j < len(ni) {
		c := 0
		switch {
		case i == len(wi):
			c = 1
		case j == len(ni):
			c = -1
		default:
			c = compareRows(&was[wi[i]], &now[ni[j]])
		}
		switch {
		case c < 0: // in the reference only
			r := &was[wi[i]]
			i++
			if !compare(r.Key) {
				skipped++
				continue
			}
			compared++
			diffs = append(diffs, PredictionDiff{r.Key, r.ConfigIndex, r.Row, r.YPred, "", r.YTrue, "missing"})
		case c > 0: // in the results only
			n := &now[ni[j]]
			j++
			if compare(n.Key) {
				diffs = append(diffs, PredictionDiff{n.Key, n.ConfigIndex, n.Row, "", n.YPred, n.YTrue, "extra"})
			}
		default:
			r, n := &was[wi[i]], &now[ni[j]]
			i, j = i+1, j+1
			if !compare(r.Key) {
				skipped++
				continue
			}
			compared++
			switch {
			case n.YTrue != r.YTrue:
				diffs = append(diffs, PredictionDiff{r.Key, r.ConfigIndex, r.Row, r.YPred, n.YPred, r.YTrue, "true label differs: " + r.YTrue + " -> " + n.YTrue})
			case n.YPred != r.YPred:
				diffs = append(diffs, PredictionDiff{r.Key, r.ConfigIndex, r.Row, r.YPred, n.YPred, r.YTrue, ""})
			}
		}
	}
	return diffs, compared, skipped
}

// compareRows orders rows by key, then configuration, then row.
func compareRows(a, b *artifacts.PredictionRow) int {
	if c := strings.Compare(a.Key, b.Key); c != 0 {
		return c
	}
	if c := cmp.Compare(a.ConfigIndex, b.ConfigIndex); c != 0 {
		return c
	}
	return cmp.Compare(a.Row, b.Row)
}

// rowOrder returns the indexes of rows in (key, config, row) order, the
// last occurrence of a repeated row only. Files fgrtbench writes are in
// that order already, which costs one pass to confirm.
func rowOrder(rows []artifacts.PredictionRow) []int32 {
	idx := make([]int32, len(rows))
	for i := range idx {
		idx[i] = int32(i)
	}
	less := func(a, b int32) int { return compareRows(&rows[a], &rows[b]) }
	if !slices.IsSortedFunc(idx, less) {
		slices.SortStableFunc(idx, less)
	}
	out := idx[:0]
	for k, i := range idx {
		if k+1 < len(idx) && less(i, idx[k+1]) == 0 {
			continue // a later occurrence follows (the sort is stable)
		}
		out = append(out, i)
	}
	return out
}

// WritePredictionTable prints at most limit differences (0 = all), one per
// line: key, config, row, old -> new label.
func WritePredictionTable(w io.Writer, ds []PredictionDiff, limit int) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "key\tconfig\trow\ty_true\tprediction\tnote")
	for i, d := range ds {
		if limit > 0 && i == limit {
			fmt.Fprintf(tw, "... %d more\t\t\t\t\t\n", len(ds)-limit)
			break
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s -> %s\t%s\n", d.Key, d.ConfigIndex, d.Row, d.YTrue, orNone(d.Was), orNone(d.Now), d.Note)
	}
	tw.Flush()
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}
