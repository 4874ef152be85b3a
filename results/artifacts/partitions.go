package artifacts

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/fgrtbench/fgrtbench/results"
)

// ModelOf returns the model record of one results row.
func (m Models) ModelOf(r results.Record) (ModelRecord, bool) {
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
// per line: feature, term, then the trapezoid's corners (a, b, c, d) by
// CornerText, or the category a crisp term matches; then, when a term is
// a trapezoid, a note that says how to read the corners (PartitionsNote).
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
	fuzzy := false
	for _, t := range ts {
		var shape string
		switch {
		case t.Category != nil:
			shape = "= " + strconv.FormatFloat(*t.Category, 'g', -1, 64)
		default:
			fuzzy = true
			parts := make([]string, len(t.Trapezoid))
			width := 0.0
			if n := len(t.Trapezoid); n > 0 {
				width = t.Trapezoid[n-1] - t.Trapezoid[0]
			}
			for i, v := range t.Trapezoid {
				parts[i] = CornerText(v, width)
			}
			shape = "(" + strings.Join(parts, ", ") + ")"
		}
		fmt.Fprintf(&b, "%-*s  %-*s  %s\n", wf, t.Feature, wt, t.Term, shape)
	}
	if fuzzy {
		b.WriteString(PartitionsNote + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// PartitionsNote says how to read the corners FormatPartitions prints:
// precise enough to recompute a rule's coverage, and why an outer corner
// lies just outside the training range.
const PartitionsNote = "Corners in the data's units, each to within a millionth of its term's width (a to d):\n" +
	"enough to recompute the coverage the rules show. An outer corner just outside the training range\n" +
	"(1.27976 for a minimum of 1.28, -6.599e-06 for a minimum of 0) is that end moved out by epsilon x sd\n" +
	"(ex-fuzzy's epsilon, 1e-4 in the learner's standardised units), so the end itself has membership 1;\n" +
	"a vertical shoulder (a = b, c = d) is a ramp of that width."

// CornerText prints a corner of a trapezoid of the given width (d - a)
// with the fewest significant digits, 4 at least, that keep it within a
// millionth of the width of its exact value (of its magnitude when the
// width is 0), in Go's shortest 'g' form: "2.86", "1.27976" (1.28 less
// the epsilon offset, which 4 digits would round back onto the data's
// minimum), "-6.599e-06". Rounding a corner by that much moves a membership
// by a millionth at most, well below the 3 decimals of a printed
// coverage, and keeps an offset corner on its side of the data.
func CornerText(v, width float64) string {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	tol := 1e-6 * math.Abs(width)
	if tol == 0 {
		tol = 1e-6 * math.Abs(v)
	}
	for p := 4; p < 17; p++ {
		text := strconv.FormatFloat(v, 'g', p, 64)
		if r, err := strconv.ParseFloat(text, 64); err == nil && math.Abs(r-v) <= tol {
			return text
		}
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
