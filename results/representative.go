package results

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/fgrtbench/fgrtbench/learn"
)

// Representative returns the representative fold of the selected rows of
// one (protocol, dataset, method): the one whose accuracy is the median
// (the lower median of an even count; ties by key, so the choice does not
// depend on row order). ok is false when rows holds no selected row.
func Representative(rows []Record) (rec Record, ok bool) {
	var sel []Record
	for _, r := range rows {
		if r.Selected {
			sel = append(sel, r)
		}
	}
	if len(sel) == 0 {
		return Record{}, false
	}
	sort.Slice(sel, func(i, j int) bool {
		if sel[i].Accuracy != sel[j].Accuracy {
			return sel[i].Accuracy < sel[j].Accuracy
		}
		return sel[i].Key < sel[j].Key
	})
	return sel[(len(sel)-1)/2], true
}

// ModelOf returns the model record of one results row.
func (m Models) ModelOf(r Record) (ModelRecord, bool) {
	for _, rec := range m.Records {
		if rec.Key == r.Key && rec.ConfigIndex == r.ConfigIndex {
			return rec, true
		}
	}
	return ModelRecord{}, false
}

// NamedTerm is a partition term with its feature and term named (no
// positions), in the data's own units.
type NamedTerm struct {
	Feature   string    `json:"feature"`
	Term      string    `json:"term"`
	Trapezoid []float64 `json:"trapezoid,omitempty"`
	// Category is the code a crisp term matches.
	Category *float64 `json:"category,omitempty"`
}

// NamedPartitions returns the terms a model's rules use, named, in the
// data's units.
func (m ModelRecord) NamedPartitions() []NamedTerm {
	var out []NamedTerm
	for _, t := range m.Partitions {
		nt := NamedTerm{Feature: t.FeatureName, Term: t.TermName}
		for _, v := range t.Trapezoid {
			nt.Trapezoid = append(nt.Trapezoid, float64(v))
		}
		if t.Category != nil {
			c := float64(*t.Category)
			nt.Category = &c
		}
		out = append(out, nt)
	}
	return out
}

// FormatPartitions renders named terms as an aligned text table, one term
// per line: feature, term, then the trapezoid's corners (a, b, c, d),
// printed as the readable rules of CART, C4.5 and RIPPER print their
// thresholds (learn.ReadableNumber: 4 significant digits; the models keep
// them at full precision), or the category a crisp term matches.
func FormatPartitions(ts []NamedTerm) string {
	if len(ts) == 0 {
		return "(the rules use no fuzzy partition)"
	}
	wf, wt := len("feature"), len("term")
	for _, t := range ts {
		wf, wt = max(wf, len(t.Feature)), max(wt, len(t.Term))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-*s  %-*s  %s\n", wf, "feature", wt, "term", "trapezoid (a, b, c, d) or category")
	for _, t := range ts {
		var shape string
		switch {
		case t.Category != nil:
			shape = "= " + strconv.FormatFloat(*t.Category, 'g', -1, 64)
		default:
			parts := make([]string, len(t.Trapezoid))
			for i, v := range t.Trapezoid {
				parts[i] = learn.ReadableNumber(v)
			}
			shape = "(" + strings.Join(parts, ", ") + ")"
		}
		fmt.Fprintf(&b, "%-*s  %-*s  %s\n", wf, t.Feature, wt, t.Term, shape)
	}
	return strings.TrimRight(b.String(), "\n")
}
