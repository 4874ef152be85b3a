package learn

import (
	"math"
	"strconv"
	"strings"
)

// Unscale maps a value of feature j from the units a learner saw (the
// protocol's scaled units) back to the data's own units. Nil means the
// units are the same.
type Unscale func(j int, v float64) float64

// ReadableRuler is implemented by models whose rules compare features
// with numeric thresholds (CART, C4.5, RIPPER's bins). ReadableRules
// renders the rules of Model.Rules, one "IF " line per rule in the same
// order and with the same conditions, in one form for every learner: one
// interval per numeric feature (IntervalConditions), every threshold
// mapped back through unscale (nil: as it is) and printed by
// ReadableNumber, each line ending in its RuleStats, then the default rule
// of a learner that has one (DefaultRulePrefix). It is for a reader, not
// for reconstruction: the model's description keeps the thresholds at
// full precision (learntest.CheckReadableRules holds learners to this).
type ReadableRuler interface {
	ReadableRules(s Schema, unscale Unscale) string
}

// ReadableDigits is the number of significant digits ReadableNumber keeps.
const ReadableDigits = 4

// ReadableNumber prints a threshold for a reader: ReadableDigits
// significant digits, trailing zeros kept so that the precision shows
// (757.04 → "757.0", 0.5 → "0.5000", -0.656396 → "-0.6564"), in plain
// decimal notation for magnitudes from 1e-4 up to 1e6. The integer part
// is never rounded away (12345.6 → "12346", not "1.235e+04"); outside
// that range, and only there, the exponent form ("1.235e+06",
// "1.234e-07"). Zero is "0"; NaN and the infinities print as Go prints
// them.
func ReadableNumber(v float64) string {
	switch {
	case v == 0:
		return "0"
	case math.IsNaN(v) || math.IsInf(v, 0):
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	// Round to the significant digits first: 9999.6 becomes 10000 and
	// must print as such, with the exponent of the rounded value.
	r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'e', ReadableDigits-1, 64), 64)
	if err != nil {
		r = v
	}
	if a := math.Abs(v); a < 1e-4 || a >= 1e6 {
		return strconv.FormatFloat(v, 'e', ReadableDigits-1, 64)
	}
	a := math.Abs(r)
	exp := int(math.Floor(math.Log10(a)))
	// math.Log10 is inexact near powers of ten: settle exp on the value.
	for math.Pow10(exp) > a {
		exp--
	}
	for math.Pow10(exp+1) <= a {
		exp++
	}
	decimals := max(0, ReadableDigits-1-exp)
	return strconv.FormatFloat(v, 'f', decimals, 64)
}

// RuleStats is the suffix of a rule line that tells how much of the
// training data the rule covers (its share of the training rows or
// weight) and how confident it is (the share of those of the predicted
// class), as FGRT prints it: "  [coverage 0.307, confidence 0.972]".
// Readers of rule strings strip it before comparing rules.
func RuleStats(coverage, confidence float64) string {
	return "  [coverage " + strconv.FormatFloat(coverage, 'f', 3, 64) + ", confidence " + strconv.FormatFloat(confidence, 'f', 3, 64) + "]"
}

// StatsShown says which statistics every one of a model's rule lines
// ends in: "coverage and confidence" (learn.RuleStats), "coverage" (a
// "[coverage 0.296]" alone, as FuzzyCART's rules stored before they showed
// confidence), or "" (some line shows none, or there is no line), so that
// a footer claims only what the rules show.
func StatsShown(lines []string) string {
	both, coverage := len(lines) > 0, len(lines) > 0
	for _, l := range lines {
		i := strings.LastIndex(l, "  [coverage ")
		if i < 0 || !strings.HasSuffix(l, "]") {
			return ""
		}
		hasConf := strings.Contains(l[i:], ", confidence ")
		both, coverage = both && hasConf, coverage && !hasConf
	}
	switch {
	case both:
		return "coverage and confidence"
	case coverage:
		return "coverage"
	}
	return ""
}

// DefaultRulePrefix starts the line of a model's default rule in its
// readable rules: the class it predicts for a row none of its rules
// covers ("ELSE class 2  [coverage 0.120, confidence 0.765]"). The line
// does not start with "IF ", so RuleLines and the rule count leave it out
// (the paper counts no default rule); DefaultRule finds it.
const DefaultRulePrefix = "ELSE "

// DefaultRule returns the default-rule line of a readable rules text (the
// first line starting with DefaultRulePrefix), or "" when it has none.
func DefaultRule(rules string) string {
	for _, line := range strings.Split(rules, "\n") {
		if strings.HasPrefix(line, DefaultRulePrefix) {
			return line
		}
	}
	return ""
}

// A PathTest is one threshold test on a tree's path from the root to a
// leaf: feature Feature (named Name) above Threshold (x > Threshold) or,
// with Above false, at most Threshold (x <= Threshold). Text, when not
// empty, is a test of another kind (a nominal "= value"), printed as it is.
type PathTest struct {
	Feature   int
	Name      string
	Threshold float64
	Above     bool
	Text      string
}

// IntervalConditions renders a path's tests with one condition per
// numeric feature, the interval its tests leave: "lo < name <= hi",
// "name <= hi" or "name > lo", at the place of the feature's first test
// ("worst_area <= 957.4 AND worst_area <= 806.2" reads "worst_area <=
// 806.2"). Only the tightest bound of each side matters to the rows that
// reach the leaf, so the rule covers the same rows. num prints the
// threshold of feature j; it must preserve order (unscaling a
// standardised feature does). Tests with Text are kept in place.
func IntervalConditions(tests []PathTest, num func(j int, v float64) string) []string {
	type interval struct {
		name           string
		lo, hi         float64
		hasLo, hasHi   bool
		feature, place int
	}
	var out []string
	var ivs []*interval
	at := map[int]*interval{}
	for _, t := range tests {
		if t.Text != "" {
			out = append(out, t.Text)
			continue
		}
		iv, ok := at[t.Feature]
		if !ok {
			iv = &interval{name: t.Name, feature: t.Feature, place: len(out)}
			at[t.Feature] = iv
			ivs = append(ivs, iv)
			out = append(out, "")
		}
		switch {
		case t.Above && (!iv.hasLo || t.Threshold > iv.lo):
			iv.lo, iv.hasLo = t.Threshold, true
		case !t.Above && (!iv.hasHi || t.Threshold < iv.hi):
			iv.hi, iv.hasHi = t.Threshold, true
		}
	}
	for _, iv := range ivs {
		switch {
		case iv.hasLo && iv.hasHi:
			out[iv.place] = num(iv.feature, iv.lo) + " < " + iv.name + " <= " + num(iv.feature, iv.hi)
		case iv.hasLo:
			out[iv.place] = iv.name + " > " + num(iv.feature, iv.lo)
		default:
			out[iv.place] = iv.name + " <= " + num(iv.feature, iv.hi)
		}
	}
	return out
}
