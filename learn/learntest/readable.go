package learntest

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/fgrtbench/fgrtbench/learn"
)

// unsigned matches a number without its sign as the learners print one
// in a rule; numbers finds the signed ones.
var unsigned = regexp.MustCompile(`(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|Inf|NaN`)

// numbers returns the numbers of a rule line and the text around them. A
// "-" before a number is its sign where it follows the start, a space or
// a comparison or a bin's separator ("x <= -0.5", "x=-1.2--0.4"), and otherwise a bin's
// separator ("x=0.1-0.4").
func numbers(line string) (nums, between []string) {
	last := 0
	for _, m := range unsigned.FindAllStringIndex(line, -1) {
		i, j := m[0], m[1]
		if i > 0 && (line[i-1] == '-' || line[i-1] == '+') && (i == 1 || strings.ContainsRune(" =<>-", rune(line[i-2]))) {
			i--
		}
		nums, between = append(nums, line[i:j]), append(between, line[last:i])
		last = j
	}
	return nums, append(between, line[last:])
}

// ruleStats matches learn.RuleStats.
var ruleStats = regexp.MustCompile(`^  \[coverage (0\.\d{3}|1\.000), confidence (0\.\d{3}|1\.000)\]$`)

// splitStats cuts a readable rule line's trailing "  [...]".
func splitStats(line string) (rule, stats string) {
	if i := strings.LastIndex(line, "  ["); i > 0 && strings.HasSuffix(line, "]") {
		return line[:i], line[i:]
	}
	return line, ""
}

// CheckReadableRules checks the promise of learn.ReadableRuler, for models
// that implement it (others pass): ReadableRules prints the same rules as
// Rules, line for line, differing only in their numbers and a trailing
// learn.RuleStats (coverage and confidence in [0, 1]); with unscale nil
// each number is Rules' number printed by learn.ReadableNumber, and with an
// unscale each is unscale(j, number) (the check uses v ↦ 1000·v + 5 for
// every feature j, so that a number left in the learner's units shows).
// Numbers are compared after rounding the learner's spelling through
// ReadableNumber, which is where a reader meets them.
func CheckReadableRules(m learn.Model, s learn.Schema) error {
	rr, ok := m.(learn.ReadableRuler)
	if !ok {
		return nil
	}
	want := learn.RuleLines(m.Rules(s))
	for _, c := range []struct {
		name    string
		unscale learn.Unscale
		apply   func(float64) float64
	}{
		{"unscale nil", nil, func(v float64) float64 { return v }},
		{"unscale 1000v+5", func(_ int, v float64) float64 { return float64(1000*v) + 5 }, func(v float64) float64 { return float64(1000*v) + 5 }},
	} {
		got := learn.RuleLines(rr.ReadableRules(s, c.unscale))
		if len(got) != len(want) {
			return fmt.Errorf("%s: %d rule lines, Rules has %d", c.name, len(got), len(want))
		}
		for i := range got {
			line, stats := splitStats(got[i])
			if stats != "" && !ruleStats.MatchString(stats) {
				return fmt.Errorf("%s: rule %d ends in %q, not learn.RuleStats", c.name, i+1, stats)
			}
			gn, gs := numbers(line)
			wn, ws := numbers(want[i])
			if !slices.Equal(gs, ws) {
				return fmt.Errorf("%s: rule %d reads %q, Rules %q: they differ in more than their numbers", c.name, i+1, got[i], want[i])
			}
			for k := range gn {
				v, err := strconv.ParseFloat(wn[k], 64)
				if err != nil {
					return fmt.Errorf("rule %d of Rules: number %q: %v", i+1, wn[k], err)
				}
				// Numbers in names (feature "x2", class "3") are not
				// thresholds: they read the same in both texts.
				if gn[k] == wn[k] {
					continue
				}
				if w := learn.ReadableNumber(c.apply(v)); gn[k] != w {
					return fmt.Errorf("%s: rule %d reads %q where %q (%s of Rules' %s) was expected:\n%s\nvs Rules\n%s",
						c.name, i+1, gn[k], w, c.name, wn[k], got[i], want[i])
				}
			}
		}
	}
	return nil
}
