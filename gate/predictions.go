package gate

import (
	"fmt"
	"io"
	"sort"
	"text/tabwriter"

	"github.com/fgrtbench/fgrtbench/results"
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

type predID struct {
	key    string
	config int
	row    int
}

// ComparePredictions lists the rows whose predicted label differs between
// ref and cur, in (key, config, row) order. compare reports whether a
// unit's key is held to exact predictions (deterministic methods); rows of
// other keys are skipped and counted.
func ComparePredictions(ref, cur results.Predictions, compare func(key string) bool) (diffs []PredictionDiff, compared, skipped int) {
	index := func(p results.Predictions) map[predID]results.PredictionRow {
		m := make(map[predID]results.PredictionRow, len(p.Rows))
		for _, r := range p.Rows {
			m[predID{r.Key, r.ConfigIndex, r.Row}] = r
		}
		return m
	}
	was, now := index(ref), index(cur)
	for id, r := range was {
		if !compare(id.key) {
			skipped++
			continue
		}
		compared++
		n, ok := now[id]
		switch {
		case !ok:
			diffs = append(diffs, PredictionDiff{id.key, id.config, id.row, r.YPred, "", r.YTrue, "missing"})
		case n.YTrue != r.YTrue:
			diffs = append(diffs, PredictionDiff{id.key, id.config, id.row, r.YPred, n.YPred, r.YTrue, "true label differs: " + r.YTrue + " -> " + n.YTrue})
		case n.YPred != r.YPred:
			diffs = append(diffs, PredictionDiff{id.key, id.config, id.row, r.YPred, n.YPred, r.YTrue, ""})
		}
	}
	for id, n := range now {
		if _, ok := was[id]; !ok && compare(id.key) {
			diffs = append(diffs, PredictionDiff{id.key, id.config, id.row, "", n.YPred, n.YTrue, "extra"})
		}
	}
	sort.Slice(diffs, func(i, j int) bool {
		a, b := diffs[i], diffs[j]
		if a.Key != b.Key {
			return a.Key < b.Key
		}
		if a.ConfigIndex != b.ConfigIndex {
			return a.ConfigIndex < b.ConfigIndex
		}
		return a.Row < b.Row
	})
	return diffs, compared, skipped
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
