package study

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/fgrtbench/fgrtbench/learn"
)

// UnitsOf lists the units a study expands to, in canonical order; the
// number of units is what a shard count divides. Their keys are empty: keys
// identify the data too, which UnitsOf does not load.
func UnitsOf(s Study) ([]Unit, error) {
	ms, err := s.Resolve()
	if err != nil {
		return nil, err
	}
	_, units, err := s.Identity(ms, nil)
	for i := range units {
		units[i].Key = ""
	}
	return units, err
}

// CheckReference refuses a control method (spec reference:, --reference)
// that names no method label of the units; an empty one is no control.
// The error names the labels there are; the caller says where ref came from.
func CheckReference(ref string, units []Unit) error {
	if ref == "" {
		return nil
	}
	var labels []string
	for _, u := range units {
		if !slices.Contains(labels, u.Label) {
			labels = append(labels, u.Label)
		}
	}
	if !slices.Contains(labels, ref) {
		return fmt.Errorf("%q is not a method label of the study (labels: %s)", ref, strings.Join(labels, ", "))
	}
	return nil
}

// checkSweep refuses a sweep parameter without values: the cartesian product
// would have no point, and a method without configurations has nothing to
// run or report. It refuses a value listed twice, also in two spellings
// of one value of the method's parameter (m's Canonical: "true" and
// "True", "0" and "-0.0").
func checkSweep(s MethodSpec, m *learn.Spec) error {
	if s.Sweep != nil && len(s.Sweep) == 0 {
		return fmt.Errorf("method %s: sweep names no parameter (omit it to use a grid)", s.Name)
	}
	for _, name := range slices.Sorted(maps.Keys(s.Sweep)) {
		if len(s.Sweep[name]) == 0 {
			return fmt.Errorf("method %s: sweep of %s lists no values", s.Name, name)
		}
		// One value listed twice ("0" and "0.0" too) would be two points
		// of one configuration, ranked against each other.
		vals := s.Sweep[name]
		for i := range vals {
			for j := range i {
				if sameValue(vals[i], vals[j]) || sameCanonical(m, name, vals[i], vals[j]) {
					return fmt.Errorf("method %s: sweep of %s lists one value twice (%q and %q); list each value once", s.Name, name, vals[j], vals[i])
				}
			}
		}
	}
	return nil
}

// sameCanonical reports whether a and b are valid values of m's parameter
// name with one canonical form.
func sameCanonical(m *learn.Spec, name, a, b string) bool {
	if m == nil {
		return false
	}
	p, ok := m.Param(name)
	return ok && p.Check(a) == nil && p.Check(b) == nil && p.Canonical(a) == p.Canonical(b)
}

// sameValue reports whether two parameter values are one: equal strings,
// or numbers of equal value.
func sameValue(a, b string) bool {
	if strings.TrimSpace(a) == strings.TrimSpace(b) {
		return true
	}
	x, errA := strconv.ParseFloat(strings.TrimSpace(a), 64)
	y, errB := strconv.ParseFloat(strings.TrimSpace(b), 64)
	return errA == nil && errB == nil && x == y
}
