package datasets

import (
	"math"
	"strconv"
	"strings"
)

// canonicalNumericClasses rewrites the class labels of a CSV file whose
// class column holds numbers only as numpy (pandas.read_csv, then
// numpy.unique) reads that column: all integer literals make an int64
// column ("01", "+1" and "1" are the class 1), anything else a float64
// column, whose labels are Python's repr of the value ("1", "1.0" and
// "1.00" are the class 1.0; "1e3" is 1000.0). Labels that become equal are
// one class: without this, "1" and "1.0" in one file would be two classes
// where scikit-learn sees one. Classes keep their order (numpy.unique's,
// by value), and Y, Classes and the output attribute are rewritten
// together. Text labels, or a mixture of text and numbers, are left as
// written. KEEL and ARFF files declare their class domain, which is kept.
func canonicalNumericClasses(d *Dataset) {
	canon := make([]string, len(d.Classes))
	allInt := true
	for _, c := range d.Classes {
		isNum, isInt := numberLiteral(c)
		if !isNum {
			return
		}
		allInt = allInt && isInt
	}
	for i, c := range d.Classes {
		var ok bool
		if canon[i], ok = numpyLabel(c, allInt); !ok {
			return
		}
	}
	index := make(map[string]int, len(canon))
	remap := make([]int, len(canon))
	var classes []string
	for i, c := range canon {
		j, seen := index[c]
		if !seen {
			j = len(classes)
			index[c] = j
			classes = append(classes, c)
		}
		remap[i] = j
	}
	if len(classes) < len(d.Classes) {
		for i, y := range d.Y {
			d.Y[i] = remap[y]
		}
	}
	d.Classes = classes
	d.Output.Domain = append([]string(nil), classes...)
	d.Output.IntegerLiterals = allIntegerLiterals(classes)
}

// numpyLabel is the label numpy shows for a numeric class literal in an
// int64 column (allInt) or a float64 one; false when it cannot say (an
// integer beyond int64).
func numpyLabel(s string, allInt bool) (string, bool) {
	if allInt {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return "", false
		}
		return strconv.FormatInt(v, 10), true
	}
	v, err := parseNumber(s)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return "", false
	}
	return pythonRepr(v), true
}

// pythonRepr formats a float64 as Python's repr (and numpy's str of a
// float64) does: the shortest digits that round-trip, in positional
// notation with at least one decimal when the decimal exponent is in
// [-4, 16), else in scientific notation with a two-digit exponent at least
// ("1e+16", "1.5e-05"). Negative zero is written as zero: numpy.unique
// makes one class of both.
func pythonRepr(v float64) string {
	if v == 0 {
		return "0.0"
	}
	sci := strconv.FormatFloat(v, 'e', -1, 64) // "1.2345e+06", "1e-05"
	mant, exp, _ := strings.Cut(sci, "e")
	e, _ := strconv.Atoi(exp)
	if e < -4 || e >= 16 {
		return mant + "e" + exp
	}
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}
