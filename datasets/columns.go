package datasets

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// column accumulates the cells of one input attribute while a reader walks
// the data section. It is shared by the KEEL, ARFF and CSV readers so that
// the three agree on number syntax, missing values, nominal coding and the
// IntegerLiterals rule.
type column struct {
	attr  Attribute
	codes map[string]int // nominal value -> index in attr.Domain
}

func newColumn(a Attribute) *column {
	c := &column{attr: a}
	// IntegerLiterals starts true and is cleared by the first non-integer
	// cell: the Attribute contract is "every non-missing value", which is
	// vacuously true for a column whose cells are all missing.
	c.attr.IntegerLiterals = true
	if a.Nominal() {
		c.codes = make(map[string]int, len(a.Domain))
		for i, v := range a.Domain {
			c.codes[v] = i
		}
	}
	return c
}

// cell converts one trimmed, non-missing field. A nominal value that the
// header did not declare is appended to the domain (in order of first
// appearance) rather than rejected: KEEL headers written by hand are not
// always complete, and the declared values keep their codes either way.
func (c *column) cell(field string) (float64, error) {
	if !c.attr.Nominal() {
		// Weka reads a NaN in a numeric ARFF column as a missing value; the
		// three readers agree. Infinities are refused: they would reach
		// scalers and learners as numbers.
		if isNaNWord(field) {
			return math.NaN(), nil
		}
		if isInfinity(field) {
			return 0, fmt.Errorf("column %s is %s but the value %q is infinite; only finite numbers are allowed (missing values are ? or NaN)", c.attr.Name, c.attr.Type, field)
		}
	}
	isNum, isInt := numberLiteral(field)
	if !isInt {
		c.attr.IntegerLiterals = false
	}
	if c.attr.Nominal() {
		k, ok := c.codes[field]
		if !ok {
			k = len(c.attr.Domain)
			c.codes[field] = k
			c.attr.Domain = append(c.attr.Domain, field)
			c.attr.Appended++
		}
		return float64(k), nil
	}
	if !isNum {
		return 0, fmt.Errorf("column %s is %s but the value %q is not a number", c.attr.Name, c.attr.Type, field)
	}
	v, err := parseNumber(field)
	if err != nil {
		return 0, fmt.Errorf("column %s is %s but the %v", c.attr.Name, c.attr.Type, err)
	}
	return v, nil
}

// numberLiteral reports whether s is a plain decimal number (optional sign,
// digits with an optional fraction, optional exponent; ".28" and "5." are
// allowed) and whether it is an integer literal (optional sign and digits
// only, the pandas int64 rule). Words such as "nan", "inf" and hexadecimal
// forms that strconv would accept are deliberately not numbers here: NaN is
// a missing value (isNaNWord) and infinities are refused (isInfinity).
func numberLiteral(s string) (isNumber, isInteger bool) {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	intDigits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		intDigits++
	}
	if i == len(s) {
		return intDigits > 0, intDigits > 0
	}
	fracDigits := 0
	if s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			fracDigits++
		}
	}
	if intDigits+fracDigits == 0 {
		return false, false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		expDigits := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			expDigits++
		}
		if expDigits == 0 {
			return false, false
		}
	}
	return i == len(s), false
}

// isNaNWord reports "NaN" in any case, the missing-value marker of numpy and
// pandas (and Java's Double.toString, which Weka writes).
func isNaNWord(s string) bool { return strings.EqualFold(s, "nan") }

// isInfinity reports the spellings of an infinite value that numpy, pandas,
// Java and strconv write or accept: inf and infinity, any case, with an
// optional sign.
func isInfinity(s string) bool {
	if strings.HasPrefix(s, "+") || strings.HasPrefix(s, "-") {
		s = s[1:]
	}
	return strings.EqualFold(s, "inf") || strings.EqualFold(s, "infinity")
}

// parseNumber parses a string already accepted by numberLiteral. Values
// beyond the float64 range are an error rather than ±Inf, so that a Dataset
// only ever holds finite numbers and NaN (= missing).
func parseNumber(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) && (math.IsInf(v, 0)) {
			return 0, fmt.Errorf("value %q is outside the float64 range", s)
		}
		if !errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("value %q is not a number", s)
		}
	}
	return v, nil
}

// labelSet collects class labels for files whose class column has no
// declared domain (CSV, or a numeric ARFF class).
type labelSet struct {
	order []string
	seen  map[string]bool
}

func (l *labelSet) add(s string) {
	if l.seen == nil {
		l.seen = make(map[string]bool)
	}
	if !l.seen[s] {
		l.seen[s] = true
		l.order = append(l.order, s)
	}
}

// csvClasses is the class list of a CSV file, which declares no classes:
// as numpy.unique (and so scikit-learn's LabelEncoder) orders them — by
// numeric value when every label is a number (classes), otherwise sorted
// as strings, by code point — so that a tie in a leaf resolves to the
// class scikit-learn would pick on the same file, whichever class the file
// happens to list first.
func (l *labelSet) csvClasses() []string {
	out := l.classes()
	for _, s := range out {
		if isNum, _ := numberLiteral(s); !isNum {
			sort.Strings(out)
			break
		}
	}
	return out
}

// classes returns the class list: sorted by numeric value when every label
// is a number (as numpy.unique / LabelEncoder would order 0/1 or 1..7 codes,
// independent of which class happens to come first in the file), otherwise
// in order of first appearance.
func (l *labelSet) classes() []string {
	out := append([]string(nil), l.order...)
	vals := make([]float64, len(out))
	for i, s := range out {
		isNum, _ := numberLiteral(s)
		if !isNum {
			return out
		}
		v, err := parseNumber(s)
		if err != nil {
			return out
		}
		vals[i] = v
	}
	idx := make([]int, len(out))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		if vals[idx[a]] != vals[idx[b]] {
			return vals[idx[a]] < vals[idx[b]]
		}
		return out[idx[a]] < out[idx[b]]
	})
	sorted := make([]string, len(out))
	for i, k := range idx {
		sorted[i] = out[k]
	}
	return sorted
}

// nameFromPath is the dataset name for a file: its base name without the
// extension.
func nameFromPath(path string) string {
	base := filepath.Base(path)
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// where formats the file:line prefix of a reader error.
func where(path, name string, line int) string {
	src := path
	if src == "" {
		src = name
	}
	if src == "" {
		src = "<input>"
	}
	return fmt.Sprintf("%s:%d", src, line)
}

// newNaNRange returns the Min/Max pair of an attribute without a declared range.
func newNaNRange() (float64, float64) { return math.NaN(), math.NaN() }
