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
// Rules, line for line, each with the same class and the same conditions
// up to their spelling, and may end in a learn.RuleStats (coverage and
// confidence in [0, 1]). A numeric feature's tests on one line may be
// merged into the one interval they leave (learn.IntervalConditions),
// and a learner's own spelling of a bin ("x=<0.5", "x=0.1-0.4",
// "x=>0.4") reads as the interval it is ("x <= 0.5000", "0.1000 < x <=
// 0.4000"). With unscale nil each number is Rules' number printed by
// learn.ReadableNumber, and with an unscale each is unscale(j, number)
// (the check uses v ↦ 1000·v + 5 for every feature j, so that a number
// left in the learner's units shows). Numbers are compared after
// rounding the learner's spelling through ReadableNumber, which is where
// a reader meets them.
func CheckReadableRules(m learn.Model, s learn.Schema) error {
	rr, ok := m.(learn.ReadableRuler)
	if !ok {
		return nil
	}
	want := learn.RuleLines(m.Rules(s))
	for _, c := range []struct {
		name  string
		apply func(float64) float64
	}{
		{"unscale nil", nil},
		{"unscale 1000v+5", func(v float64) float64 { return float64(1000*v) + 5 }},
	} {
		var unscale learn.Unscale
		num := learn.ReadableNumber
		if c.apply != nil {
			unscale = func(_ int, v float64) float64 { return c.apply(v) }
			num = func(v float64) string { return learn.ReadableNumber(c.apply(v)) }
		}
		text := rr.ReadableRules(s, unscale)
		got := learn.RuleLines(text)
		if len(got) != len(want) {
			return fmt.Errorf("%s: %d rule lines, Rules has %d", c.name, len(got), len(want))
		}
		if d := learn.DefaultRule(text); d != "" {
			if _, stats := splitStats(d); stats != "" && !ruleStats.MatchString(stats) {
				return fmt.Errorf("%s: the default rule ends in %q, not learn.RuleStats", c.name, stats)
			}
		}
		for i := range got {
			line, stats := splitStats(got[i])
			if stats != "" && !ruleStats.MatchString(stats) {
				return fmt.Errorf("%s: rule %d ends in %q, not learn.RuleStats", c.name, i+1, stats)
			}
			g, err := readableConds(line, s)
			if err != nil {
				return fmt.Errorf("%s: rule %d reads %q: %v", c.name, i+1, got[i], err)
			}
			w, err := learnerConds(want[i], s, num)
			if err != nil {
				return fmt.Errorf("rule %d of Rules, %q: %v", i+1, want[i], err)
			}
			if g != w {
				return fmt.Errorf("%s: rule %d reads %q, Rules %q: they differ in more than their spelling (%s vs %s)",
					c.name, i+1, got[i], want[i], g, w)
			}
		}
	}
	return nil
}

// interval is what a rule line says of one numeric feature: above lo, at
// most hi ("" for an open side).
type interval struct{ lo, hi string }

// splitRule cuts "IF conds THEN rest" into its conditions (none for
// "TRUE") and the rest.
func splitRule(line string) ([]string, string, error) {
	body, ok := strings.CutPrefix(line, "IF ")
	ante, then, ok2 := strings.Cut(body, " THEN ")
	if !ok || !ok2 {
		return nil, "", fmt.Errorf("not of the form IF conditions THEN class")
	}
	if ante == "TRUE" {
		return nil, then, nil
	}
	return strings.Split(ante, " AND "), then, nil
}

// featureOf returns the feature a condition starts with (the longest name
// that fits) and the text after it.
func featureOf(c string, s learn.Schema) (int, string, bool) {
	best, rest := -1, ""
	for j := range s.Features {
		name := s.FeatureName(j)
		if after, ok := strings.CutPrefix(c, name); ok && (best < 0 || len(name) > len(s.FeatureName(best))) {
			best, rest = j, after
		}
	}
	return best, rest, best >= 0
}

// canonical writes a rule's class and conditions in one spelling: the
// numeric features' intervals by feature index, then the other
// conditions sorted.
func canonical(then string, ivs map[int]*interval, other []string) string {
	var b strings.Builder
	b.WriteString("THEN " + then)
	keys := make([]int, 0, len(ivs))
	for j := range ivs {
		keys = append(keys, j)
	}
	slices.Sort(keys)
	for _, j := range keys {
		fmt.Fprintf(&b, "; %d in (%s, %s]", j, ivs[j].lo, ivs[j].hi)
	}
	slices.Sort(other)
	for _, o := range other {
		b.WriteString("; " + o)
	}
	return b.String()
}

// readableConds is a readable rule line in canonical form: its conditions
// are "name <= v", "name > v", "lo < name <= hi" (one per numeric
// feature) or "name = value".
func readableConds(line string, s learn.Schema) (string, error) {
	conds, then, err := splitRule(line)
	if err != nil {
		return "", err
	}
	ivs := map[int]*interval{}
	var other []string
	for _, c := range conds {
		var iv interval
		var j int
		if lo, rest, ok := strings.Cut(c, " < "); ok && unsigned.MatchString(lo) {
			var tail string
			if j, tail, ok = featureOf(rest, s); !ok {
				return "", fmt.Errorf("condition %q names no feature", c)
			}
			hi, ok := strings.CutPrefix(tail, " <= ")
			if !ok {
				return "", fmt.Errorf("condition %q is not lo < name <= hi", c)
			}
			iv = interval{lo: lo, hi: hi}
		} else {
			var tail string
			if j, tail, ok = featureOf(c, s); !ok {
				return "", fmt.Errorf("condition %q names no feature", c)
			}
			switch {
			case strings.HasPrefix(tail, " <= "):
				iv.hi = tail[len(" <= "):]
			case strings.HasPrefix(tail, " > "):
				iv.lo = tail[len(" > "):]
			case strings.HasPrefix(tail, " = "):
				other = append(other, fmt.Sprintf("%d = %s", j, tail[len(" = "):]))
				continue
			default:
				return "", fmt.Errorf("condition %q is none of <=, >, =", c)
			}
		}
		if _, dup := ivs[j]; dup {
			return "", fmt.Errorf("feature %s has two intervals", s.FeatureName(j))
		}
		ivs[j] = &iv
	}
	return canonical(then, ivs, other), nil
}

// learnerConds is a line of Rules in canonical form, its tests on one
// feature merged into their interval and every threshold printed by num:
// "name <= v" and "name > v" (trees), "name = category" (C4.5's nominal
// tests), and RIPPER's "name=<v", "name=>v", "name=l-r" (bins), "name=v"
// (a raw value or a category), "name=any" and "name=nan".
func learnerConds(line string, s learn.Schema, num func(float64) string) (string, error) {
	conds, then, err := splitRule(line)
	if err != nil {
		return "", err
	}
	type bounds struct {
		lo, hi       float64
		hasLo, hasHi bool
	}
	bs := map[int]*bounds{}
	var other []string
	bound := func(j int, v string, above bool) error {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return fmt.Errorf("threshold %q: %v", v, err)
		}
		b := bs[j]
		if b == nil {
			b = &bounds{}
			bs[j] = b
		}
		switch {
		case above && (!b.hasLo || f > b.lo):
			b.lo, b.hasLo = f, true
		case !above && (!b.hasHi || f < b.hi):
			b.hi, b.hasHi = f, true
		}
		return nil
	}
	for _, c := range conds {
		j, tail, ok := featureOf(c, s)
		if !ok {
			return "", fmt.Errorf("condition %q names no feature", c)
		}
		switch {
		case strings.HasPrefix(tail, " <= "):
			err = bound(j, tail[len(" <= "):], false)
		case strings.HasPrefix(tail, " > "):
			err = bound(j, tail[len(" > "):], true)
		case strings.HasPrefix(tail, " = "):
			other = append(other, fmt.Sprintf("%d = %s", j, tail[len(" = "):]))
		case strings.HasPrefix(tail, "=<"):
			err = bound(j, tail[2:], false)
		case strings.HasPrefix(tail, "=>"):
			err = bound(j, tail[2:], true)
		case strings.HasPrefix(tail, "="):
			v := tail[1:]
			nums, between := numbers(v)
			switch {
			case v == "any" || v == "nan" || s.Features[j].Nominal:
				other = append(other, fmt.Sprintf("%d = %s", j, v))
			case len(nums) == 2 && between[0] == "" && between[1] == "-" && between[2] == "":
				if err = bound(j, nums[0], true); err == nil {
					err = bound(j, nums[1], false)
				}
			case len(nums) == 1 && between[0] == "" && between[1] == "":
				f, perr := strconv.ParseFloat(nums[0], 64)
				if perr != nil {
					return "", perr
				}
				other = append(other, fmt.Sprintf("%d = %s", j, num(f)))
			default:
				return "", fmt.Errorf("condition %q: no bin or value", c)
			}
		default:
			return "", fmt.Errorf("condition %q is none of <=, >, =", c)
		}
		if err != nil {
			return "", err
		}
	}
	ivs := map[int]*interval{}
	for j, b := range bs {
		iv := &interval{}
		if b.hasLo {
			iv.lo = num(b.lo)
		}
		if b.hasHi {
			iv.hi = num(b.hi)
		}
		ivs[j] = iv
	}
	return canonical(then, ivs, other), nil
}
