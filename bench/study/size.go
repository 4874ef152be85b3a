package study

import (
	"fmt"
	"math"
	"slices"

	"github.com/fgrtbench/fgrtbench/bench/methods"
	"github.com/fgrtbench/fgrtbench/bench/protocol"
)

// DefaultMaxUnits is the default bound on a study's size: the number of
// fits it holds (units — protocol × dataset × method × repeat × fold —
// each counted once per configuration of its method). The paper's study
// holds a few tens of thousands; a study a thousand times larger still
// fits. It is checked before any unit list, layout or configuration is
// built, so a study too large to exist (folds: 1000000000) is refused in
// one line instead of exhausting memory.
const DefaultMaxUnits = 1_000_000

// MaxUnits is the bound the process applies; values below 1 mean
// DefaultMaxUnits. The command line's --max-units sets it.
var MaxUnits int64 = DefaultMaxUnits

// checkSize refuses a study with more fits than MaxUnits, counting them
// from the spec alone (no data is read, nothing is expanded).
func (s Study) checkSize() error {
	limit := MaxUnits
	if limit < 1 {
		limit = DefaultMaxUnits
	}
	d, m := int64(len(s.Datasets)), int64(len(s.Methods))
	o := s.Options
	// Folds and repeats first: a layout allocates per repeat.
	reads := func(opt string) bool {
		return slices.ContainsFunc(s.Protocols, func(p string) bool { return slices.Contains(protocol.Readers(opt), p) })
	}
	for _, g := range []struct {
		name string
		v    int
	}{{"folds", o.Folds}, {"repeats", o.Repeats}} {
		if reads(g.name) && int64(g.v) > limit {
			units := mul(mul(d, m), mul(int64(o.Folds), int64(o.Repeats)))
			return fmt.Errorf("the study would have at least %s units (%s: %d), more than the limit of %s; make it smaller, or raise the limit with --max-units", count(units), g.name, g.v, count(limit))
		}
	}
	var perMethod int64 // units of one method: Σ over protocols of folds × repeats, × datasets
	for _, p := range s.Protocols {
		l := s.Layout(p)
		perMethod = add(perMethod, mul(int64(l.Folds), int64(l.Repeats)))
	}
	perMethod = mul(perMethod, d)
	var fits int64
	for _, ms := range s.Methods {
		fits = add(fits, mul(perMethod, configCount(ms)))
	}
	if fits > limit {
		return fmt.Errorf("the study would have %s units and %s fits (units × configurations), more than the limit of %s; make it smaller, or raise the limit with --max-units", count(mul(perMethod, m)), count(fits), count(limit))
	}
	return nil
}

// configCount is how many configurations a method spec expands to, from
// the sweep's value counts or the grid's size, without building them.
func configCount(ms MethodSpec) int64 {
	if len(ms.Sweep) > 0 {
		n := int64(1)
		for _, vs := range ms.Sweep {
			n = mul(n, int64(max(len(vs), 1)))
		}
		return n
	}
	m, err := methods.Lookup(ms.Name)
	if err != nil {
		return 1
	}
	grid := ms.Grid
	if grid == "" {
		grid = "default"
	}
	return int64(max(len(m.Grids[grid]), 1))
}

// mul and add saturate at math.MaxInt64 instead of overflowing.
func mul(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	if a > math.MaxInt64/b {
		return math.MaxInt64
	}
	return a * b
}

func add(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// count writes n with thousands separators, or "more than 9.2e18".
func count(n int64) string {
	if n == math.MaxInt64 {
		return "more than 9.2e18"
	}
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
