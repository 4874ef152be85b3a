package datasets

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
)

// ReadCSV reads a comma-separated file whose first row names the columns.
// classCol names the class column (exact, else unique case-insensitive
// match); empty means the last column. name names the dataset (derived from
// path when empty); path is used in messages only.
//
// Column types are inferred: a column is numeric when every non-missing cell
// is a decimal number, with Type "integer" when every such cell is an
// integer literal and "real" otherwise; any other column is nominal with its
// categories in order of first appearance. Empty cells and "?" are missing.
// Class labels are sorted by value when all are numbers, otherwise kept in
// order of first appearance; a missing class label is an error.
func ReadCSV(r io.Reader, name, path, classCol string) (*Dataset, error) {
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
	attrs := make([]Attribute, len(header))
	for k, h := range header {
		attrs[k] = Attribute{Name: strings.TrimSpace(h)}
	}
	classK, err := findColumn(attrs, classCol)
	if err != nil {
		return nil, errf(1, "%v", err)
	}
	var records [][]string
	var lines []int
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, csvError(path, name, err)
		}
		line, _ := cr.FieldPos(0)
		for k := range rec {
			rec[k] = strings.TrimSpace(rec[k])
		}
		records = append(records, rec)
		lines = append(lines, line)
	}
	if len(records) == 0 {
		return nil, errf(1, "no data rows after the header")
	}

	// First pass: infer the type of every input column.
	numeric := make([]bool, len(attrs))
	integer := make([]bool, len(attrs))
	for k := range attrs {
		numeric[k], integer[k] = true, true
	}
	seen := make([]bool, len(attrs))
	var labels labelSet
	for i, rec := range records {
		for k, f := range rec {
			if k == classK {
				if isCSVMissing(f) {
					return nil, errf(lines[i], "missing class value in column %s", attrs[k].Name)
				}
				labels.add(f)
				continue
			}
			if isCSVMissing(f) {
				continue
			}
			seen[k] = true
			isNum, isInt := numberLiteral(f)
			if isNum {
				if _, err := parseNumber(f); err != nil {
					isNum = false
				}
			}
			numeric[k] = numeric[k] && isNum
			integer[k] = integer[k] && isInt
		}
	}
	cols := make([]*column, 0, len(attrs)-1)
	for k, a := range attrs {
		if k == classK {
			continue
		}
		switch {
		case !numeric[k]:
			a.Type = "nominal"
		case integer[k] && seen[k]:
			a.Type = "integer"
		default:
			a.Type = "real"
		}
		a.Min, a.Max = newNaNRange()
		cols = append(cols, newColumn(a))
	}

	// Second pass: convert.
	classes := labels.classes()
	classIndex := make(map[string]int, len(classes))
	for i, c := range classes {
		classIndex[c] = i
	}
	d := &Dataset{Name: name, Path: path, X: make([][]float64, len(records)), Y: make([]int, len(records))}
	flat := make([]float64, len(records)*len(cols))
	for i, rec := range records {
		row := flat[i*len(cols) : (i+1)*len(cols) : (i+1)*len(cols)]
		j := 0
		for k, f := range rec {
			if k == classK {
				d.Y[i] = classIndex[f]
				continue
			}
			if isCSVMissing(f) {
				row[j] = math.NaN()
			} else {
				v, err := cols[j].cell(f)
				if err != nil {
					return nil, errf(lines[i], "%v", err)
				}
				row[j] = v
			}
			j++
		}
		d.X[i] = row
	}
	d.Inputs = make([]Attribute, len(cols))
	for j, c := range cols {
		d.Inputs[j] = c.attr
	}
	d.Output = Attribute{Name: attrs[classK].Name, Type: "nominal", Domain: append([]string(nil), classes...), IntegerLiterals: allIntegerLiterals(classes)}
	d.Output.Min, d.Output.Max = newNaNRange()
	d.Classes = classes
	return d, nil
}

func isCSVMissing(f string) bool { return f == "" || f == "?" }

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
	ext := strings.ToLower(filepath.Ext(path))
	switch ext {
	case ".dat", ".arff", ".csv":
	default:
		return nil, fmt.Errorf("%s: unknown dataset format %q (expected .dat for KEEL, .arff or .csv)", path, ext)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	name := nameFromPath(path)
	switch ext {
	case ".dat":
		d, err := ReadKEEL(f, name, path)
		if err != nil {
			return nil, err
		}
		if classCol != "" && classCol != d.Output.Name {
			return nil, fmt.Errorf("%s: class column %q requested, but the KEEL header declares output %q", path, classCol, d.Output.Name)
		}
		return d, nil
	case ".arff":
		return ReadARFF(f, name, path, classCol)
	default:
		return ReadCSV(f, name, path, classCol)
	}
}
