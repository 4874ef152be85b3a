package datasets

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
)

// ReadARFF reads a Weka ARFF file. classAttr names the class attribute
// (exact match, else a unique case-insensitive match); empty means the last
// attribute. name names the dataset (derived from path when empty); path is
// used in messages only.
//
// Supported: "@relation", "@attribute NAME numeric|real|integer" and
// "@attribute NAME {v1, 'v 2', ...}" with names and values in single or
// double quotes, "@data" with dense comma-separated rows, '%' comment lines
// and '?' for missing values. String, date and relational attributes and
// sparse rows ("{0 x, 3 y}") are rejected with an error.
//
// A nominal class keeps its declared order. A numeric class attribute is
// turned into labels: sorted by value when all labels are numbers, as for
// CSV. Nominal inputs are coded in declared order, undeclared values being
// appended to the domain.
func ReadARFF(r io.Reader, name, path, classAttr string) (*Dataset, error) {
	if name == "" && path != "" {
		name = nameFromPath(path)
	}
	a := &arffReader{lr: newLineReader(r), path: path, name: name}
	if err := a.header(); err != nil {
		return nil, err
	}
	if err := a.columns(classAttr); err != nil {
		return nil, err
	}
	d := &Dataset{Name: name, Path: path}
	for {
		text, ok, err := a.lr.next()
		if err != nil {
			return nil, a.errf(a.lr.line+1, "%v", err)
		}
		if !ok {
			break
		}
		if text == "" || text[0] == '%' {
			continue
		}
		if err := a.row(d, text); err != nil {
			return nil, err
		}
	}
	if len(d.X) == 0 {
		return nil, a.errf(a.dataLine, "no data rows after @data")
	}
	a.finish(d)
	return d, nil
}

// arffReader is the state of one ARFF file's reading: its header's
// attributes, the input columns and the class attribute's labels.
type arffReader struct {
	lr         *lineReader
	path, name string
	attrs      []Attribute
	dataLine   int // the line of @data
	classCol   int
	cols       []*column // the inputs, in file order without the class
	out        Attribute // the class attribute
	classIndex map[string]int
	rawLabels  []string // numeric class: labels resolved after all rows
	labels     labelSet
}

// errf is an error at a line of the file.
func (a *arffReader) errf(line int, format string, args ...any) error {
	return fmt.Errorf("%s: %s", where(a.path, a.name, line), fmt.Sprintf(format, args...))
}

// header reads the directives up to and including @data.
func (a *arffReader) header() error {
	byName := make(map[string]int)
	for {
		text, ok, err := a.lr.next()
		if err != nil {
			return a.errf(a.lr.line+1, "%v", err)
		}
		if !ok {
			return a.errf(a.lr.line, "missing @data line: the file ends inside the header")
		}
		if text == "" || text[0] == '%' {
			continue
		}
		if text[0] != '@' {
			return a.errf(a.lr.line, "expected a header directive (@relation, @attribute or @data), got %q", clip(text))
		}
		keyword, rest := splitKeyword(text)
		switch strings.ToLower(keyword) {
		case "@relation":
		case "@attribute":
			if err := a.attribute(rest, byName); err != nil {
				return err
			}
		case "@data":
			a.dataLine = a.lr.line
			return nil
		default:
			return a.errf(a.lr.line, "unknown header directive %q (expected @relation, @attribute or @data)", clip(keyword))
		}
	}
}

// attribute reads one @attribute declaration (rest is what follows the
// keyword).
func (a *arffReader) attribute(rest string, byName map[string]int) error {
	an, spec, err := attributeName(rest)
	if err != nil {
		return a.errf(a.lr.line, "%v", err)
	}
	if _, dup := byName[an]; dup {
		return a.errf(a.lr.line, "attribute %q declared twice", an)
	}
	lower := strings.ToLower(spec)
	if strings.HasPrefix(lower, "string") || strings.HasPrefix(lower, "date") || strings.HasPrefix(lower, "relational") {
		return a.errf(a.lr.line, "attribute %q: type %s is not supported (use numeric or {values})", an, clip(spec))
	}
	attr, err := attributeSpec(an, spec, true)
	if err != nil {
		return a.errf(a.lr.line, "%v", err)
	}
	byName[an] = len(a.attrs)
	a.attrs = append(a.attrs, attr)
	return nil
}

// columns chooses the class attribute and sets up the input columns.
func (a *arffReader) columns(classAttr string) error {
	if len(a.attrs) < 2 {
		return a.errf(a.dataLine, "need at least one input and one class attribute, got %d attribute(s)", len(a.attrs))
	}
	classCol, err := findColumn(a.attrs, classAttr)
	if err != nil {
		return a.errf(a.dataLine, "%v", err)
	}
	a.classCol = classCol
	a.cols = make([]*column, 0, len(a.attrs)-1)
	for k, attr := range a.attrs {
		if k != classCol {
			a.cols = append(a.cols, newColumn(attr))
		}
	}
	a.out = a.attrs[classCol]
	a.classIndex = make(map[string]int)
	for i, v := range a.out.Domain {
		a.classIndex[v] = i
	}
	return nil
}

// row reads one data line into d.
func (a *arffReader) row(d *Dataset, text string) error {
	if text[0] == '{' {
		return a.errf(a.lr.line, "sparse ARFF rows are not supported")
	}
	fields, err := splitQuoted(text)
	if err != nil {
		return a.errf(a.lr.line, "%v", err)
	}
	if len(fields) != len(a.attrs) {
		return a.errf(a.lr.line, "data row has %d values, want %d (one per @attribute)", len(fields), len(a.attrs))
	}
	if err := a.label(d, fields[a.classCol]); err != nil {
		return err
	}
	row := make([]float64, len(a.cols))
	j := 0
	for k, f := range fields {
		if k == a.classCol {
			continue
		}
		if f == "?" {
			row[j] = math.NaN()
			d.noteMissing(a.lr.line, k+1, a.attrs[k].Name)
		} else {
			v, err := a.cols[j].cell(f)
			if err != nil {
				return a.errf(a.lr.line, "%v", err)
			}
			row[j] = v
		}
		j++
	}
	d.X = append(d.X, row)
	return nil
}

// label reads a row's class value: a nominal class's index at once, a
// numeric class's literal for finish.
func (a *arffReader) label(d *Dataset, label string) error {
	if label == "?" {
		return a.errf(a.lr.line, "missing class value in attribute %s", a.out.Name)
	}
	if a.out.Nominal() {
		y, ok := a.classIndex[label]
		if !ok {
			return a.errf(a.lr.line, "unknown class label %q: attribute %s declares {%s}", clip(label), a.out.Name, strings.Join(a.out.Domain, ", "))
		}
		d.Y = append(d.Y, y)
		return nil
	}
	if ok, _ := numberLiteral(label); !ok {
		return a.errf(a.lr.line, "class attribute %s is %s but the value %q is not a number", a.out.Name, a.out.Type, clip(label))
	}
	a.rawLabels = append(a.rawLabels, label)
	a.labels.add(label)
	return nil
}

// finish sets d's attributes and classes once every row is read; a
// numeric class becomes nominal over the labels seen.
func (a *arffReader) finish(d *Dataset) {
	d.Inputs = make([]Attribute, len(a.cols))
	for j, c := range a.cols {
		d.Inputs[j] = c.attr
	}
	d.Output = a.out
	if a.out.Nominal() {
		d.Classes = append([]string(nil), a.out.Domain...)
	} else {
		d.Classes = a.labels.classes()
		idx := make(map[string]int, len(d.Classes))
		for i, c := range d.Classes {
			idx[c] = i
		}
		d.Y = make([]int, len(a.rawLabels))
		for i, l := range a.rawLabels {
			d.Y[i] = idx[l]
		}
		d.Output.Type = "nominal"
		d.Output.Domain = append([]string(nil), d.Classes...)
	}
	d.Output.IntegerLiterals = allIntegerLiterals(d.Classes)
}

// findColumn returns the index of the attribute called want: exact match,
// else the only case-insensitive match; the last attribute when want is "".
func findColumn(attrs []Attribute, want string) (int, error) {
	if want == "" {
		return len(attrs) - 1, nil
	}
	folded := -1
	for k, a := range attrs {
		if a.Name == want {
			return k, nil
		}
		if strings.EqualFold(a.Name, want) {
			if folded >= 0 {
				folded = -2
			} else if folded == -1 {
				folded = k
			}
		}
	}
	if folded >= 0 {
		return folded, nil
	}
	names := make([]string, len(attrs))
	for k, a := range attrs {
		names[k] = a.Name
	}
	return 0, fmt.Errorf("class column %q not found; columns are: %s", want, strings.Join(names, ", "))
}

// splitQuoted splits an ARFF value list at commas outside quotes. Values may
// be enclosed in single or double quotes, inside which a backslash escapes
// the next character; blanks around values are dropped.
func splitQuoted(s string) ([]string, error) {
	var out []string
	i := 0
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		var v string
		if i < len(s) && (s[i] == '\'' || s[i] == '"') {
			var err error
			if v, i, err = quotedValue(s, i); err != nil {
				return nil, err
			}
		} else {
			end := strings.IndexByte(s[i:], ',')
			if end < 0 {
				end = len(s) - i
			}
			v = strings.TrimSpace(s[i : i+end])
			i += end
		}
		out = append(out, v)
		if i >= len(s) {
			return out, nil
		}
		i++ // the comma
	}
}

// quotedValue reads the quoted value that starts at s[i] (backslash
// escapes one byte) and the blanks after it; next is the index of the
// comma or the end that must follow.
func quotedValue(s string, i int) (v string, next int, err error) {
	q := s[i]
	i++
	var b strings.Builder
	closed := false
	for i < len(s) {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			b.WriteByte(s[i+1])
			i += 2
			continue
		}
		i++
		if c == q {
			closed = true
			break
		}
		b.WriteByte(c)
	}
	if !closed {
		return "", i, errors.New("unterminated quoted value")
	}
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if i < len(s) && s[i] != ',' {
		return "", i, fmt.Errorf("unexpected %q after a quoted value", s[i])
	}
	return b.String(), i, nil
}
