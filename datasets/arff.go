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
	errf := func(line int, format string, args ...any) error {
		return fmt.Errorf("%s: %s", where(path, name, line), fmt.Sprintf(format, args...))
	}
	lr := newLineReader(r)
	var attrs []Attribute
	byName := make(map[string]int)
	dataLine := 0
header:
	for {
		text, ok, err := lr.next()
		if err != nil {
			return nil, errf(lr.line+1, "%v", err)
		}
		if !ok {
			return nil, errf(lr.line, "missing @data line: the file ends inside the header")
		}
		if text == "" || text[0] == '%' {
			continue
		}
		if text[0] != '@' {
			return nil, errf(lr.line, "expected a header directive (@relation, @attribute or @data), got %q", clip(text))
		}
		keyword, rest := splitKeyword(text)
		switch strings.ToLower(keyword) {
		case "@relation":
		case "@attribute":
			an, spec, err := attributeName(rest)
			if err != nil {
				return nil, errf(lr.line, "%v", err)
			}
			if _, dup := byName[an]; dup {
				return nil, errf(lr.line, "attribute %q declared twice", an)
			}
			lower := strings.ToLower(spec)
			if strings.HasPrefix(lower, "string") || strings.HasPrefix(lower, "date") || strings.HasPrefix(lower, "relational") {
				return nil, errf(lr.line, "attribute %q: type %s is not supported (use numeric or {values})", an, clip(spec))
			}
			a, err := attributeSpec(an, spec, true)
			if err != nil {
				return nil, errf(lr.line, "%v", err)
			}
			byName[an] = len(attrs)
			attrs = append(attrs, a)
		case "@data":
			dataLine = lr.line
			break header
		default:
			return nil, errf(lr.line, "unknown header directive %q (expected @relation, @attribute or @data)", clip(keyword))
		}
	}
	if len(attrs) < 2 {
		return nil, errf(dataLine, "need at least one input and one class attribute, got %d attribute(s)", len(attrs))
	}
	classCol, err := findColumn(attrs, classAttr)
	if err != nil {
		return nil, errf(dataLine, "%v", err)
	}
	cols := make([]*column, 0, len(attrs)-1)
	for k, a := range attrs {
		if k != classCol {
			cols = append(cols, newColumn(a))
		}
	}
	out := attrs[classCol]
	classIndex := make(map[string]int)
	for i, v := range out.Domain {
		classIndex[v] = i
	}
	var rawLabels []string // numeric class: labels resolved after all rows
	var labels labelSet
	d := &Dataset{Name: name, Path: path}
	for {
		text, ok, err := lr.next()
		if err != nil {
			return nil, errf(lr.line+1, "%v", err)
		}
		if !ok {
			break
		}
		if text == "" || text[0] == '%' {
			continue
		}
		if text[0] == '{' {
			return nil, errf(lr.line, "sparse ARFF rows are not supported")
		}
		fields, err := splitQuoted(text)
		if err != nil {
			return nil, errf(lr.line, "%v", err)
		}
		if len(fields) != len(attrs) {
			return nil, errf(lr.line, "data row has %d values, want %d (one per @attribute)", len(fields), len(attrs))
		}
		label := fields[classCol]
		if label == "?" {
			return nil, errf(lr.line, "missing class value in attribute %s", out.Name)
		}
		if out.Nominal() {
			y, ok := classIndex[label]
			if !ok {
				return nil, errf(lr.line, "unknown class label %q: attribute %s declares {%s}", clip(label), out.Name, strings.Join(out.Domain, ", "))
			}
			d.Y = append(d.Y, y)
		} else {
			if ok, _ := numberLiteral(label); !ok {
				return nil, errf(lr.line, "class attribute %s is %s but the value %q is not a number", out.Name, out.Type, clip(label))
			}
			rawLabels = append(rawLabels, label)
			labels.add(label)
		}
		row := make([]float64, len(cols))
		j := 0
		for k, f := range fields {
			if k == classCol {
				continue
			}
			if f == "?" {
				row[j] = math.NaN()
				d.noteMissing(lr.line, k+1, attrs[k].Name)
			} else {
				v, err := cols[j].cell(f)
				if err != nil {
					return nil, errf(lr.line, "%v", err)
				}
				row[j] = v
			}
			j++
		}
		d.X = append(d.X, row)
	}
	if len(d.X) == 0 {
		return nil, errf(dataLine, "no data rows after @data")
	}
	d.Inputs = make([]Attribute, len(cols))
	for j, c := range cols {
		d.Inputs[j] = c.attr
	}
	d.Output = out
	if out.Nominal() {
		d.Classes = append([]string(nil), out.Domain...)
	} else {
		d.Classes = labels.classes()
		idx := make(map[string]int, len(d.Classes))
		for i, c := range d.Classes {
			idx[c] = i
		}
		d.Y = make([]int, len(rawLabels))
		for i, l := range rawLabels {
			d.Y[i] = idx[l]
		}
		d.Output.Type = "nominal"
		d.Output.Domain = append([]string(nil), d.Classes...)
	}
	d.Output.IntegerLiterals = allIntegerLiterals(d.Classes)
	return d, nil
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
				return nil, errors.New("unterminated quoted value")
			}
			v = b.String()
			for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
				i++
			}
			if i < len(s) && s[i] != ',' {
				return nil, fmt.Errorf("unexpected %q after a quoted value", s[i])
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
