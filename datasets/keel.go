package datasets

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/fgrtbench/fgrtbench/internal/safefile"
)

// maxLineBytes bounds one line of a data file. The widest KEEL row of the
// ten datasets (spambase) is under 400 bytes; the limit only guards against
// a binary file being read as text.
const maxLineBytes = 16 << 20

// lineReader yields the lines of a text file with their 1-based numbers,
// without the line terminator and with CR and surrounding blanks removed
// (KEEL files come with LF or CRLF endings).
type lineReader struct {
	sc   *bufio.Scanner
	line int
}

func newLineReader(r io.Reader) *lineReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLineBytes)
	return &lineReader{sc: sc}
}

// next returns the next line, or ok=false at the end of input (err reports
// a read failure or an over-long line).
func (lr *lineReader) next() (text string, ok bool, err error) {
	if !lr.sc.Scan() {
		if err := lr.sc.Err(); err != nil {
			if errors.Is(err, bufio.ErrTooLong) {
				return "", false, fmt.Errorf("line longer than %d bytes", maxLineBytes)
			}
			return "", false, err
		}
		return "", false, nil
	}
	lr.line++
	return strings.Trim(lr.sc.Text(), " \t\r\f\v"), true, nil
}

// ReadKEELFile reads a KEEL .dat file. The dataset is named after the file
// (base name without .dat).
func ReadKEELFile(path string) (*Dataset, error) {
	f, err := safefile.Open(path, safefile.DataCap)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadKEEL(f, nameFromPath(path), path)
}

// ReadKEEL reads a KEEL .dat dataset. name names the dataset (derived from
// path when empty); path is used in error messages only.
//
// Header: "@relation", "@attribute NAME real|integer [lo, hi]" (the range is
// optional and may be glued to the type, "real[0.0,1.0]"),
// "@attribute NAME {v1, v2, ...}", "@inputs A, B, ...", "@outputs C" or
// "@output C", then "@data". Directives are case-insensitive, lines starting
// with '%' and blank lines are ignored, CRLF and LF endings are both
// accepted.
//
// Data rows list every declared attribute in declaration order, separated by
// commas with optional blanks. The inputs of the Dataset follow the @inputs
// order; declared attributes that are neither inputs nor the output are
// skipped. When @inputs is absent every attribute except the output is an
// input; when @outputs is absent the last declared attribute is the output.
// Exactly one nominal output attribute is supported.
//
// "?" (and KEEL's "<null>") are missing values (NaN) in input columns; a
// missing class label is an error. The class index is the position of the
// label in the output attribute's declared list, so spambase's "{1, 0}"
// gives label "1" index 0. Nominal inputs are coded by declared-domain
// order; a value not in the declared domain is appended to it.
func ReadKEEL(r io.Reader, name, path string) (*Dataset, error) {
	if name == "" && path != "" {
		name = nameFromPath(path)
	}
	p := keelParser{name: name, path: path, byName: make(map[string]int)}
	return p.parse(newLineReader(r))
}

type keelParser struct {
	name, path string
	attrs      []Attribute
	byName     map[string]int // attribute name -> declaration index
	inputs     []string
	outputs    []string
	haveIn     bool
	haveOut    bool
}

func (p *keelParser) errf(line int, format string, args ...any) error {
	return fmt.Errorf("%s: %s", where(p.path, p.name, line), fmt.Sprintf(format, args...))
}

func (p *keelParser) parse(lr *lineReader) (*Dataset, error) {
	for {
		text, ok, err := lr.next()
		if err != nil {
			return nil, p.errf(lr.line+1, "%v", err)
		}
		if !ok {
			return nil, p.errf(lr.line, "missing @data line: the file ends inside the header")
		}
		if text == "" || text[0] == '%' {
			continue
		}
		if text[0] != '@' {
			return nil, p.errf(lr.line, "expected a header directive (@relation, @attribute, @inputs, @outputs or @data), got %q", clip(text))
		}
		keyword, rest := splitKeyword(text)
		switch strings.ToLower(keyword) {
		case "@relation":
		case "@attribute":
			if err := p.attribute(rest); err != nil {
				return nil, p.errf(lr.line, "%v", err)
			}
		case "@inputs", "@input":
			if p.haveIn {
				return nil, p.errf(lr.line, "second @inputs line")
			}
			p.haveIn = true
			p.inputs = splitNames(rest)
		case "@outputs", "@output":
			if p.haveOut {
				return nil, p.errf(lr.line, "second @outputs line")
			}
			p.haveOut = true
			p.outputs = splitNames(rest)
		case "@data":
			return p.data(lr)
		default:
			return nil, p.errf(lr.line, "unknown header directive %q (expected @relation, @attribute, @inputs, @outputs or @data)", clip(keyword))
		}
	}
}

// attribute parses the part of an @attribute line after the keyword.
func (p *keelParser) attribute(rest string) error {
	name, spec, err := attributeName(rest)
	if err != nil {
		return err
	}
	if _, dup := p.byName[name]; dup {
		return fmt.Errorf("attribute %q declared twice", name)
	}
	a, err := attributeSpec(name, spec, false)
	if err != nil {
		return err
	}
	p.byName[name] = len(p.attrs)
	p.attrs = append(p.attrs, a)
	return nil
}

// roles resolves @inputs/@outputs into declaration indices.
func (p *keelParser) roles(line int) (inCols []int, outCol int, err error) {
	if len(p.attrs) == 0 {
		return nil, 0, p.errf(line, "@data before any @attribute line")
	}
	outCol = len(p.attrs) - 1
	if p.haveOut {
		if len(p.outputs) != 1 {
			return nil, 0, p.errf(line, "@outputs must name exactly one attribute, got %d (%s)", len(p.outputs), strings.Join(p.outputs, ", "))
		}
		k, ok := p.byName[p.outputs[0]]
		if !ok {
			return nil, 0, p.errf(line, "@outputs names %q, which no @attribute line declares", p.outputs[0])
		}
		outCol = k
	}
	if p.haveIn {
		seen := make(map[int]bool)
		for _, n := range p.inputs {
			k, ok := p.byName[n]
			if !ok {
				return nil, 0, p.errf(line, "@inputs names %q, which no @attribute line declares", n)
			}
			if seen[k] {
				return nil, 0, p.errf(line, "@inputs names %q twice", n)
			}
			if k == outCol {
				return nil, 0, p.errf(line, "attribute %q is listed both in @inputs and as the output", n)
			}
			seen[k] = true
			inCols = append(inCols, k)
		}
	} else {
		for k := range p.attrs {
			if k != outCol {
				inCols = append(inCols, k)
			}
		}
	}
	if len(inCols) == 0 {
		return nil, 0, p.errf(line, "no input attributes")
	}
	out := p.attrs[outCol]
	if !out.Nominal() {
		return nil, 0, p.errf(line, "output attribute %q is %s; a classification dataset needs a nominal output {label1, label2, ...}", out.Name, out.Type)
	}
	if len(out.Domain) == 0 {
		return nil, 0, p.errf(line, "output attribute %q declares no class labels", out.Name)
	}
	return inCols, outCol, nil
}

func (p *keelParser) data(lr *lineReader) (*Dataset, error) {
	dataLine := lr.line
	inCols, outCol, err := p.roles(dataLine)
	if err != nil {
		return nil, err
	}
	r := keelRows{p: p, inCols: inCols, outCol: outCol, cols: make([]*column, len(inCols)), out: p.attrs[outCol]}
	for j, k := range inCols {
		r.cols[j] = newColumn(p.attrs[k])
	}
	r.classIndex = make(map[string]int, len(r.out.Domain))
	for i, v := range r.out.Domain {
		r.classIndex[v] = i
	}
	d := &Dataset{Name: p.name, Path: p.path}
	fields := make([]string, 0, len(p.attrs))
	for {
		text, ok, err := lr.next()
		if err != nil {
			return nil, p.errf(lr.line+1, "%v", err)
		}
		if !ok {
			break
		}
		if text == "" || text[0] == '%' {
			continue
		}
		fields = splitFields(fields[:0], text)
		if err := r.row(d, fields, lr.line); err != nil {
			return nil, err
		}
	}
	if len(d.X) == 0 {
		return nil, p.errf(dataLine, "no data rows after @data")
	}
	d.Inputs = make([]Attribute, len(r.cols))
	for j, c := range r.cols {
		d.Inputs[j] = c.attr
	}
	d.Output = r.out
	d.Output.Domain = append([]string(nil), r.out.Domain...)
	d.Output.IntegerLiterals = allIntegerLiterals(r.out.Domain)
	d.Classes = append([]string(nil), r.out.Domain...)
	return d, nil
}

// keelRows reads a KEEL file's data rows: the input columns and the
// output's classes.
type keelRows struct {
	p          *keelParser
	inCols     []int // the inputs' fields
	outCol     int   // the output's field
	cols       []*column
	out        Attribute
	classIndex map[string]int
}

// row reads one data row's fields (at line) into d.
func (r *keelRows) row(d *Dataset, fields []string, line int) error {
	p := r.p
	if len(fields) != len(p.attrs) {
		return p.errf(line, "data row has %d values, want %d (one per @attribute)", len(fields), len(p.attrs))
	}
	label := fields[r.outCol]
	y, ok := r.classIndex[label]
	if !ok {
		if isKEELMissing(label) {
			return p.errf(line, "missing class label (%q) in output %s", label, r.out.Name)
		}
		return p.errf(line, "unknown class label %q: output %s declares {%s}", clip(label), r.out.Name, strings.Join(r.out.Domain, ", "))
	}
	row := make([]float64, len(r.cols))
	for j, k := range r.inCols {
		f := fields[k]
		if isKEELMissing(f) {
			row[j] = math.NaN()
			d.noteMissing(line, k+1, p.attrs[k].Name)
			continue
		}
		v, err := r.cols[j].cell(f)
		if err != nil {
			return p.errf(line, "%v", err)
		}
		row[j] = v
	}
	d.X = append(d.X, row)
	d.Y = append(d.Y, y)
	return nil
}

// allIntegerLiterals reports whether every label is an integer literal.
func allIntegerLiterals(labels []string) bool {
	for _, s := range labels {
		if _, isInt := numberLiteral(s); !isInt {
			return false
		}
	}
	return true
}

func isKEELMissing(f string) bool { return f == "?" || f == "<null>" }

// splitKeyword splits "@keyword rest" at the first blank.
func splitKeyword(text string) (keyword, rest string) {
	i := strings.IndexAny(text, " \t")
	if i < 0 {
		return text, ""
	}
	return text[:i], strings.TrimSpace(text[i+1:])
}

// splitNames splits an @inputs/@outputs list. KEEL separates names with
// commas; blanks alone are accepted as separators too.
func splitNames(s string) []string {
	var out []string
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		if part != "" {
			out = append(out, part)
		}
	}
	return out
}

// splitFields splits a data row at commas and trims blanks around each value.
func splitFields(dst []string, text string) []string {
	for {
		i := strings.IndexByte(text, ',')
		if i < 0 {
			return append(dst, strings.TrimSpace(text))
		}
		dst = append(dst, strings.TrimSpace(text[:i]))
		text = text[i+1:]
	}
}

// attributeName reads the attribute name at the start of s: a bare word
// ending at a blank or '{', or a name in single or double quotes.
func attributeName(s string) (name, rest string, err error) {
	if s == "" {
		return "", "", errors.New("@attribute without a name")
	}
	if q := s[0]; q == '\'' || q == '"' {
		end := strings.IndexByte(s[1:], q)
		if end < 0 {
			return "", "", fmt.Errorf("unterminated quoted attribute name %s", clip(s))
		}
		name = s[1 : 1+end]
		rest = strings.TrimSpace(s[2+end:])
	} else {
		end := strings.IndexAny(s, " \t{")
		if end < 0 {
			end = len(s)
		}
		name, rest = s[:end], strings.TrimSpace(s[end:])
	}
	if name == "" {
		return "", "", errors.New("@attribute with an empty name")
	}
	return name, rest, nil
}

// attributeSpec parses the type part of an attribute declaration:
// "{v1, v2}" (nominal) or "real|integer|numeric" with an optional
// "[lo, hi]" range. quoted enables ARFF-style quoting of nominal values.
func attributeSpec(name, spec string, quoted bool) (Attribute, error) {
	a := Attribute{Name: name}
	a.Min, a.Max = newNaNRange()
	if spec == "" {
		return a, fmt.Errorf("attribute %q has no type (expected real, integer or {values})", name)
	}
	if spec[0] == '{' {
		err := a.nominal(spec, quoted)
		return a, err
	}
	typ, rng := spec, ""
	if i := strings.IndexAny(spec, " \t["); i >= 0 {
		typ, rng = spec[:i], strings.TrimSpace(spec[i:])
	}
	switch strings.ToLower(typ) {
	case "real", "numeric", "float", "double":
		a.Type = "real"
	case "integer", "int":
		a.Type = "integer"
	default:
		return a, fmt.Errorf("attribute %q has unsupported type %q (expected real, integer, numeric or {values})", name, clip(typ))
	}
	if rng == "" {
		return a, nil
	}
	err := a.declaredRange(rng)
	return a, err
}

// nominal reads a nominal attribute's value list {v1, v2, ...}, quoted
// values allowed when quoted (ARFF).
func (a *Attribute) nominal(spec string, quoted bool) error {
	if spec[len(spec)-1] != '}' {
		return fmt.Errorf("attribute %q: nominal value list %s does not end with '}'", a.Name, clip(spec))
	}
	a.Type = "nominal"
	body := strings.TrimSpace(spec[1 : len(spec)-1])
	if body == "" {
		return nil
	}
	var values []string
	if quoted {
		var err error
		values, err = splitQuoted(body)
		if err != nil {
			return fmt.Errorf("attribute %q: %v", a.Name, err)
		}
	} else {
		values = splitFields(nil, body)
	}
	seen := make(map[string]bool, len(values))
	for _, v := range values {
		if v == "" {
			return fmt.Errorf("attribute %q: empty value in nominal list %s", a.Name, clip(spec))
		}
		if seen[v] {
			return fmt.Errorf("attribute %q: value %q listed twice in nominal list", a.Name, clip(v))
		}
		seen[v] = true
		a.Domain = append(a.Domain, v)
	}
	return nil
}

// declaredRange reads a numeric attribute's range [lo, hi] into Min and
// Max.
func (a *Attribute) declaredRange(rng string) error {
	if rng[0] != '[' || rng[len(rng)-1] != ']' {
		return fmt.Errorf("attribute %q: expected a range [lo, hi] after the type, got %s", a.Name, clip(rng))
	}
	bounds := splitFields(nil, rng[1:len(rng)-1])
	if len(bounds) != 2 {
		return fmt.Errorf("attribute %q: range %s must have two bounds", a.Name, clip(rng))
	}
	for i, b := range bounds {
		if ok, _ := numberLiteral(b); !ok {
			return fmt.Errorf("attribute %q: range bound %q is not a number", a.Name, clip(b))
		}
		v, err := parseNumber(b)
		if err != nil {
			return fmt.Errorf("attribute %q: range bound: %v", a.Name, err)
		}
		if i == 0 {
			a.Min = v
		} else {
			a.Max = v
		}
	}
	return nil
}

// clip shortens a string quoted in an error message.
func clip(s string) string {
	const max = 60
	if len(s) <= max {
		return s
	}
	return s[:max] + "..."
}
