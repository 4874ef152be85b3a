package datasets

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"

	"github.com/fgrtbench/fgrtbench/internal/safefile"
)

// CSVOptions are the choices ReadCSVWith leaves to the caller.
type CSVOptions struct {
	// Class names the class column (exact, else unique case-insensitive
	// match); empty means the last column.
	Class string
	// Nominal names input columns to read as nominal whatever their cells
	// look like (category codes such as 1, 2, 3). A header cell "name:nominal"
	// declares the same inside the file, where the file's checksum covers it.
	Nominal []string
}

// nominalSuffix marks a column as nominal in a CSV header ("zip:nominal").
const nominalSuffix = ":nominal"

// ReadCSV reads a comma-separated file whose first row names the columns,
// with classCol as CSVOptions.Class; see ReadCSVWith.
func ReadCSV(r io.Reader, name, path, classCol string) (*Dataset, error) {
	return ReadCSVWith(r, name, path, CSVOptions{Class: classCol})
}

// ReadCSVWith reads a comma-separated file whose first row names the
// columns. name names the dataset (derived from path when empty); path is
// used in messages only.
//
// Cells: an empty cell, "?" and "NaN" (any case) are missing, in every
// column. A number is a finite decimal literal (see numberLiteral).
//
// Column types: a column declared nominal (CSVOptions.Nominal, or a header
// cell "name:nominal") is nominal. Any other column is numeric when its
// non-missing cells are all numbers (or when every cell is missing), nominal
// when none of them is a number, and an error when it mixes both: the message names the file, the line
// and the column of the first cell of the rarer kind. A numeric column with
// an infinite cell ("inf", "-Infinity", or a literal beyond the float64
// range) is an error too. So a single edited cell never changes the type of
// a column that has at least two non-missing cells: the file either reads
// as before or is refused. Numeric columns have Type "integer" when every
// cell is an integer literal, "real" otherwise; nominal columns list their
// categories in order of first appearance.
//
// Class labels are ordered as numpy.unique orders them: by value when all
// are numbers, otherwise sorted as strings (not by first appearance); a
// missing class label is an error.
func ReadCSVWith(r io.Reader, name, path string, o CSVOptions) (*Dataset, error) {
	if name == "" && path != "" {
		name = nameFromPath(path)
	}
	errf := func(line int, format string, args ...any) error {
		return fmt.Errorf("%s: %s", where(path, name, line), fmt.Sprintf(format, args...))
	}
	cr := csv.NewReader(r)
	cr.TrimLeadingSpace = true
	cr.Comment = 0
	header, err := cr.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errf(1, "empty file: expected a header row naming the columns")
		}
		return nil, csvError(path, name, err)
	}
	if len(header) < 2 {
		return nil, errf(1, "header names %d column(s); need at least one input and the class", len(header))
	}
	t := csvTable{errf: errf}
	if t.attrs, t.declared, t.classK, err = csvHeader(header, o, errf); err != nil {
		return nil, err
	}
	if err := t.read(cr, path, name); err != nil {
		return nil, err
	}
	// First pass: what each input column's cells are; second: convert.
	labels, err := t.columnTypes()
	if err != nil {
		return nil, err
	}
	d := &Dataset{Name: name, Path: path}
	classes := labels.csvClasses()
	if err := t.convert(d, classes); err != nil {
		return nil, err
	}
	d.Output = Attribute{Name: t.attrs[t.classK].Name, Type: "nominal", Domain: append([]string(nil), classes...), IntegerLiterals: allIntegerLiterals(classes)}
	d.Output.Min, d.Output.Max = newNaNRange()
	d.Classes = classes
	canonicalNumericClasses(d)
	return d, nil
}

// csvTable is a CSV file read whole: its header's columns, its records as
// strings with their line numbers, and then its typed input columns.
type csvTable struct {
	errf     func(line int, format string, args ...any) error
	attrs    []Attribute
	declared []bool // columns declared nominal in the header
	classK   int
	records  [][]string
	lines    []int
	cols     []*column // the inputs, without the class
}

// read reads every record after the header, cells trimmed.
func (t *csvTable) read(cr *csv.Reader, path, name string) error {
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return csvError(path, name, err)
		}
		line, _ := cr.FieldPos(0)
		for k := range rec {
			rec[k] = strings.TrimSpace(rec[k])
		}
		t.records = append(t.records, rec)
		t.lines = append(t.lines, line)
	}
	if len(t.records) == 0 {
		return t.errf(1, "no data rows after the header")
	}
	return nil
}

// columnTypes decides each input column's type from its cells and
// collects the class labels.
func (t *csvTable) columnTypes() (labelSet, error) {
	kinds := make([]cellKinds, len(t.attrs))
	var labels labelSet
	for i, rec := range t.records {
		for k, f := range rec {
			if k == t.classK {
				if isCSVMissing(f) {
					return labels, t.errf(t.lines[i], "missing class value in column %s", t.attrs[k].Name)
				}
				labels.add(f)
				continue
			}
			if !isCSVMissing(f) && !t.declared[k] {
				kinds[k].add(f, t.lines[i])
			}
		}
	}
	t.cols = make([]*column, 0, len(t.attrs)-1)
	for k, a := range t.attrs {
		if k == t.classK {
			continue
		}
		typ, line, msg := kinds[k].columnType(t.declared[k])
		if msg != "" {
			return labels, t.errf(line, "column %d (%s): %s", k+1, a.Name, msg)
		}
		a.Type = typ
		a.Min, a.Max = newNaNRange()
		t.cols = append(t.cols, newColumn(a))
	}
	return labels, nil
}

// convert fills d's rows, labels and inputs from the typed columns.
func (t *csvTable) convert(d *Dataset, classes []string) error {
	classIndex := make(map[string]int, len(classes))
	for i, c := range classes {
		classIndex[c] = i
	}
	n, width := len(t.records), len(t.cols)
	d.X, d.Y = make([][]float64, n), make([]int, n)
	flat := make([]float64, n*width)
	for i, rec := range t.records {
		row := flat[i*width : (i+1)*width : (i+1)*width]
		j := 0
		for k, f := range rec {
			if k == t.classK {
				d.Y[i] = classIndex[f]
				continue
			}
			if isCSVMissing(f) {
				row[j] = math.NaN()
				d.noteMissing(t.lines[i], k+1, t.attrs[k].Name)
			} else {
				v, err := t.cols[j].cell(f)
				if err != nil {
					return t.errf(t.lines[i], "column %d: %v", k+1, err)
				}
				row[j] = v
			}
			j++
		}
		d.X[i] = row
	}
	d.Inputs = make([]Attribute, width)
	for j, c := range t.cols {
		d.Inputs[j] = c.attr
	}
	return nil
}

// csvHeader reads the header row: the column names (a byte-order mark and
// a ":nominal" suffix removed), which columns are declared nominal, and the
// class column. Both CSV readers (ReadCSVWith and the streaming fast path)
// use it, so they agree on names and messages.
func csvHeader(header []string, o CSVOptions, errf func(line int, format string, args ...any) error) (attrs []Attribute, declared []bool, classK int, err error) {
	// Excel and PowerShell write a byte-order mark; it belongs to no name.
	header[0] = strings.TrimPrefix(header[0], "\ufeff")
	attrs = make([]Attribute, len(header))
	declared = make([]bool, len(header))
	columnOf := make(map[string]int, len(header))
	for k, h := range header {
		h = strings.TrimSpace(h)
		if base, ok := strings.CutSuffix(h, nominalSuffix); ok && base != "" {
			h, declared[k] = strings.TrimSpace(base), true
		}
		// Rules, partitions and --class name columns; a nameless or
		// repeated name would make them ambiguous (as ARFF and KEEL
		// refuse a repeated attribute).
		if h == "" {
			return nil, nil, 0, errf(1, "column %d has no name in the header (a pandas index? write it with to_csv(index=False), or name it)", k+1)
		}
		if j, dup := columnOf[h]; dup {
			return nil, nil, 0, errf(1, "columns %d and %d are both named %q; give each column its own name", j+1, k+1, h)
		}
		columnOf[h] = k
		attrs[k] = Attribute{Name: h}
	}
	classK, err = findColumn(attrs, o.Class)
	if err != nil {
		return nil, nil, 0, errf(1, "%v", err)
	}
	for _, n := range o.Nominal {
		k, err := findColumn(attrs, n)
		if err != nil {
			return nil, nil, 0, errf(1, "nominal %v", err)
		}
		declared[k] = true
	}
	return attrs, declared, classK, nil
}

// cellKinds counts the non-missing cells of one undeclared CSV column by
// kind, remembering the first cell of each kind for messages.
type cellKinds struct {
	numbers, texts, infinite     int
	allInteger                   bool
	firstNumber, firstText       cellAt
	firstInfinite, firstOverflow cellAt
}

type cellAt struct {
	value string
	line  int
}

func (c *cellKinds) add(f string, line int) {
	isNum, isInt := numberLiteral(f)
	switch {
	case isNum:
		if c.numbers == 0 {
			c.firstNumber, c.allInteger = cellAt{f, line}, true
		}
		c.numbers++
		c.allInteger = c.allInteger && isInt
		if _, err := parseNumber(f); err != nil && c.firstOverflow.line == 0 {
			c.firstOverflow = cellAt{f, line}
		}
	case isInfinity(f):
		if c.infinite == 0 {
			c.firstInfinite = cellAt{f, line}
		}
		c.infinite++
	default:
		if c.texts == 0 {
			c.firstText = cellAt{f, line}
		}
		c.texts++
	}
}

// columnType decides a column's type from its cells, or explains on which
// line and why the column cannot be read.
func (c *cellKinds) columnType(declaredNominal bool) (typ string, line int, msg string) {
	const fix = "missing values are empty, ? or NaN; a column of category codes is declared nominal as \"name:nominal\" in the header"
	switch {
	case declaredNominal || (c.numbers == 0 && c.texts+c.infinite > 0):
		return "nominal", 0, ""
	case c.texts > 0 && c.texts <= c.numbers:
		return "", c.firstText.line, fmt.Sprintf("%q is not a number, but %d other cells of this column are (%s)", c.firstText.value, c.numbers, fix)
	case c.texts > 0:
		return "", c.firstNumber.line, fmt.Sprintf("%q is a number, but %d other cells of this column are text (%s)", c.firstNumber.value, c.texts, fix)
	case c.infinite > 0:
		return "", c.firstInfinite.line, fmt.Sprintf("%q is infinite; a numeric column holds finite numbers only (%s)", c.firstInfinite.value, fix)
	case c.firstOverflow.line > 0:
		return "", c.firstOverflow.line, fmt.Sprintf("%q is beyond the float64 range; a numeric column holds finite numbers only", c.firstOverflow.value)
	case c.numbers > 0 && c.allInteger:
		return "integer", 0, ""
	}
	return "real", 0, ""
}

// isCSVMissing reports a missing CSV cell: empty, "?" or NaN (any case,
// as pandas and numpy write it).
func isCSVMissing(f string) bool { return f == "" || f == "?" || isNaNWord(f) }

// csvError turns an encoding/csv error into a file:line message.
func csvError(path, name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		msg := pe.Err.Error()
		if errors.Is(pe.Err, csv.ErrFieldCount) {
			msg = "row has a different number of values than the header"
		}
		return fmt.Errorf("%s: %s", where(path, name, pe.Line), msg)
	}
	return fmt.Errorf("%s: %v", where(path, name, 0), err)
}

// ReadFile reads a dataset file, choosing the reader by extension: .dat
// (KEEL), .arff (ARFF) or .csv (CSV). classCol names the class column for
// ARFF and CSV; for KEEL, where the header names the output, it must be
// empty or equal to that name.
func ReadFile(path, classCol string) (*Dataset, error) {
	return ReadFileWith(path, CSVOptions{Class: classCol})
}

// ReadFileWith is ReadFile with CSV options; for KEEL and ARFF files, whose
// headers declare every column's type, o.Nominal must be empty.
func ReadFileWith(path string, o CSVOptions) (*Dataset, error) {
	if err := checkFormat(path, o); err != nil {
		return nil, err
	}
	f, err := safefile.Open(path, safefile.DataCap)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readFormat(f, path, o)
}

func checkFormat(path string, o CSVOptions) error {
	ext := strings.ToLower(filepath.Ext(path))
	switch ext {
	case ".dat", ".arff", ".csv":
	default:
		return fmt.Errorf("%s: unknown dataset format %q (expected .dat for KEEL, .arff or .csv)", path, ext)
	}
	if ext != ".csv" && len(o.Nominal) > 0 {
		return fmt.Errorf("%s: nominal columns can be declared for CSV files only; a %s header declares every column's type", path, ext)
	}
	return nil
}

func readFormat(r io.Reader, path string, o CSVOptions) (*Dataset, error) {
	name := nameFromPath(path)
	switch strings.ToLower(filepath.Ext(path)) {
	case ".dat":
		d, err := ReadKEEL(r, name, path)
		if err != nil {
			return nil, err
		}
		if o.Class != "" && o.Class != d.Output.Name {
			return nil, fmt.Errorf("%s: class column %q requested, but the KEEL header declares output %q", path, o.Class, d.Output.Name)
		}
		return d, nil
	case ".arff":
		return ReadARFF(r, name, path, o.Class)
	default:
		return ReadCSVWith(r, name, path, o)
	}
}
