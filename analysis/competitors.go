package analysis

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/fgrtbench/fgrtbench/results"
)

// How duplicates were found (Tests.MergedBy).
const (
	MergedByCounts     = "correct-counts"
	MergedByAccuracies = "accuracies"
)

// foldSignature is what one cell's folds say about its predictions: per
// (repeat, fold), the correct count and test size where every row records
// them (Counts), else the accuracies' bits.
type foldSignature struct {
	Text   string
	Counts bool
}

// foldSignatures writes each cell's signature from its selected rows.
func foldSignatures(recs []results.Record) map[foldKey]foldSignature {
	type row struct {
		repeat, fold, correct, n int
		acc                      float64
	}
	rows := map[foldKey][]row{}
	for _, r := range recs {
		if r.Selected {
			k := foldKey{r.Protocol, r.Dataset, r.Method}
			rows[k] = append(rows[k], row{r.Repeat, r.Fold, r.Correct, r.NTest, r.Accuracy})
		}
	}
	out := map[foldKey]foldSignature{}
	for k, rs := range rows {
		sort.Slice(rs, func(i, j int) bool {
			if rs[i].repeat != rs[j].repeat {
				return rs[i].repeat < rs[j].repeat
			}
			return rs[i].fold < rs[j].fold
		})
		counts := true
		for _, r := range rs {
			counts = counts && r.n > 0
		}
		var b strings.Builder
		for _, r := range rs {
			if counts {
				fmt.Fprintf(&b, "%d/%d:%d/%d;", r.repeat, r.fold, r.correct, r.n)
			} else {
				fmt.Fprintf(&b, "%d/%d:%x;", r.repeat, r.fold, math.Float64bits(r.acc))
			}
		}
		out[k] = foldSignature{Text: b.String(), Counts: counts}
	}
	return out
}

// competitors narrows t.Methods to the methods the tests rank: it leaves
// out the baselines (Options.Baselines, into t.Baselines) and, unless
// Options.KeepDuplicates, merges labels whose every fold on every dataset
// has the same result into one entry (t.Merged), kept under the reference
// when it is one of them, else under the first in display order. Neither
// happens where fewer than two entries would be left.
func competitors(t *Tests, cells []Cell, opts Options, sigs map[foldKey]foldSignature) {
	var kept, base []string
	for _, m := range t.Methods {
		if slices.Contains(opts.Baselines, m) && m != opts.Reference {
			base = append(base, m)
		} else {
			kept = append(kept, m)
		}
	}
	if len(kept) >= 2 {
		t.Methods, t.Baselines = kept, base
	}
	if opts.KeepDuplicates {
		return
	}
	datasets := map[string][]string{}
	for _, c := range cells {
		datasets[c.Method] = append(datasets[c.Method], c.Dataset)
	}
	same := func(a, b string) (equal, counts bool) {
		da, db := datasets[a], datasets[b]
		slices.Sort(da)
		slices.Sort(db)
		if len(da) == 0 || !slices.Equal(da, db) {
			return false, false
		}
		counts = true
		for _, d := range da {
			sa, sb := sigs[foldKey{t.Protocol, d, a}], sigs[foldKey{t.Protocol, d, b}]
			if sa.Text == "" || sa.Text != sb.Text {
				return false, false
			}
			counts = counts && sa.Counts
		}
		return true, counts
	}
	var groups [][]string
	merged := map[string]bool{}
	allCounts := true
	for i, a := range t.Methods {
		if merged[a] {
			continue
		}
		group := []string{a}
		for _, b := range t.Methods[i+1:] {
			if merged[b] {
				continue
			}
			if eq, counts := same(a, b); eq {
				group = append(group, b)
				merged[b] = true
				allCounts = allCounts && counts
			}
		}
		if len(group) > 1 {
			if j := slices.Index(group, opts.Reference); j > 0 {
				group[0], group[j] = group[j], group[0]
			}
			groups = append(groups, group)
		}
	}
	if len(groups) == 0 {
		return
	}
	var entries []string
	for _, m := range t.Methods {
		drop := false
		for _, g := range groups {
			drop = drop || (slices.Contains(g[1:], m))
		}
		if !drop {
			entries = append(entries, m)
		}
	}
	if len(entries) < 2 {
		return
	}
	t.Methods, t.Merged = entries, groups
	t.MergedBy = MergedByAccuracies
	if allCounts {
		t.MergedBy = MergedByCounts
	}
}

// EntryName is how the views name a ranked entry: the display name of
// the label, followed by those of the labels merged into it ("FGRT =
// FGRT (Q1+Q2 fixed)").
func (t Tests) EntryName(label string, pres results.Presentation) string {
	for _, g := range t.Merged {
		if g[0] == label {
			names := make([]string, len(g))
			for i, m := range g {
				names[i] = pres.DisplayName(m)
			}
			return strings.Join(names, " = ")
		}
	}
	return pres.DisplayName(label)
}

// competitorSentences state which methods the tests leave out as
// baselines and which labels they rank as one entry, and how to undo
// either.
func competitorSentences(t Tests, pres results.Presentation) []string {
	var out []string
	if len(t.Baselines) > 0 {
		names := make([]string, len(t.Baselines))
		for i, m := range t.Baselines {
			names[i] = pres.DisplayName(m)
		}
		verb, it := "is a baseline, a reference point rather than a competitor", "it"
		if len(names) > 1 {
			verb, it = "are baselines, reference points rather than competitors", "them"
		}
		out = append(out, fmt.Sprintf("%s %s: the rank tests leave %s out, the tables still show %s (--rank-baselines ranks %s).", strings.Join(names, ", "), verb, it, it, it))
	}
	for _, g := range t.Merged {
		how := "the same correct count on every fold of every dataset (from results.csv's counts; the stored predictions were not compared)"
		if t.MergedBy == MergedByAccuracies {
			how = "the same accuracy on every fold of every dataset (results.csv records no correct counts for them)"
		}
		out = append(out, fmt.Sprintf("%s have %s, so the rank tests count them once, as %s (--keep-duplicates ranks them apart).",
			joinAnd(g, pres), how, t.EntryName(g[0], pres)))
	}
	return out
}

// joinAnd writes display names as "A and B" or "A, B and C".
func joinAnd(labels []string, pres results.Presentation) string {
	names := make([]string, len(labels))
	for i, m := range labels {
		names[i] = pres.DisplayName(m)
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
