// Package datasets knows the ten benchmark datasets of the FGRT paper: where
// to get them, how to verify them, and how to read KEEL, ARFF and CSV files
// into a Dataset.
//
// The three readers agree on cells: '?' (and KEEL's "<null>", CSV's empty
// cell) are missing values, stored as NaN, and so is NaN in any case in a
// numeric column (in CSV, in any column: CSV types are inferred); a numeric
// cell is a finite decimal literal, and an infinity ("inf", "-Infinity",
// "1e999") in a numeric column is an error naming file, line and column.
// KEEL and ARFF headers declare column types. CSV types are inferred by a
// rule that a single cell cannot flip (see ReadCSVWith): all numbers is
// numeric, no number is nominal, a mix is an error; a column is declared
// nominal by CSVOptions.Nominal or by "name:nominal" in the header.
package datasets

import (
	"fmt"
	"math"

	"github.com/fgrtbench/fgrtbench/learn"
)

// Attribute describes one column as the file declares it.
type Attribute struct {
	Name string
	// Type is the declared type: "real", "integer" or "nominal" (ARFF
	// "numeric" is reported as "real").
	Type string
	// Domain is the declared category list of a nominal attribute, in header
	// order. Values met in the data but not declared are appended after the
	// declared ones, in order of first appearance.
	Domain []string
	// Appended is the number of trailing Domain values that the header did
	// not declare but the data holds (every value of a CSV column): their
	// codes depend on where in the file they first appear, so the
	// leakage-free protocols recode them from training rows (Coding).
	Appended int
	// Min and Max are the declared range of a numeric attribute, NaN when the
	// header gives none.
	Min, Max float64
	// IntegerLiterals reports whether every non-missing value of this column
	// in the data section is written as an integer literal (no '.', no
	// exponent). pandas reads such a column as int64, which matters for the
	// paper protocol's integer-matrix truncation.
	IntegerLiterals bool
}

// Nominal reports whether the attribute is nominal.
func (a Attribute) Nominal() bool { return a.Type == "nominal" }

// Dataset is a classification dataset read from a file.
//
// X holds one row per data row of the file, in file order. Numeric cells are
// their values, nominal cells are the index of the value in Attribute.Domain
// (declared-domain order), and missing cells ('?') are NaN. Y holds the class
// index of each row: the position of its label in Classes, which is the
// output attribute's declared domain.
type Dataset struct {
	Name    string
	Path    string // file it was read from, for messages
	Inputs  []Attribute
	Output  Attribute
	Classes []string
	X       [][]float64
	Y       []int

	// Checksum is the normalised SHA-256 (NormalizedSHA256) of the file the
	// dataset was read from, set by loaders that verify or hash the file
	// (Fetcher.Load); empty otherwise. Results identify their data by it.
	Checksum string

	// FirstMissing is where the reader met the first missing input cell
	// (zero Line when the file has none, or the dataset was not read from
	// a file), so that a refusal of incomplete data can name it.
	FirstMissing Cell
}

// Cell is a position in a data file: the 1-based line, the 1-based field
// of that line and the column's name.
type Cell struct {
	Line, Column int
	Name         string
}

// noteMissing records the first missing input cell a reader meets.
func (d *Dataset) noteMissing(line, column int, name string) {
	if d.FirstMissing.Line == 0 {
		d.FirstMissing = Cell{Line: line, Column: column, Name: name}
	}
}

// MissingByColumn returns the number of missing cells of each input
// column, in column order.
func (d *Dataset) MissingByColumn() []int {
	out := make([]int, len(d.Inputs))
	for _, row := range d.X {
		for j, v := range row {
			if j < len(out) && math.IsNaN(v) {
				out[j]++
			}
		}
	}
	return out
}

// MissingError returns nil when the dataset has no missing input cell, and
// otherwise an error naming the first one: its file, line and column as
// the reader recorded them, else its row and column.
func (d *Dataset) MissingError() error {
	rows := d.MissingRows()
	if len(rows) == 0 {
		return nil
	}
	cells := 0
	for _, n := range d.MissingByColumn() {
		cells += n
	}
	why := fmt.Sprintf("missing value (%d missing cells in %d of %d rows); the missing-value policy \"error\" refuses incomplete data (use drop or impute)", cells, len(rows), d.Rows())
	if c := d.FirstMissing; c.Line > 0 {
		return fmt.Errorf("%s:%d: column %d (%s): %s", d.Path, c.Line, c.Column, c.Name, why)
	}
	row := d.X[rows[0]]
	for j, v := range row {
		if math.IsNaN(v) {
			return fmt.Errorf("%s: data row %d, column %s: %s", d.Name, rows[0]+1, d.Inputs[j].Name, why)
		}
	}
	return fmt.Errorf("%s: data row %d: %s", d.Name, rows[0]+1, why)
}

// Rows returns the number of data rows.
func (d *Dataset) Rows() int { return len(d.X) }

// Schema returns the learner-facing description of the dataset, with nominal
// columns named by their declared domains.
func (d *Dataset) Schema() learn.Schema {
	s := learn.Schema{Features: make([]learn.Feature, len(d.Inputs)), Classes: append([]string(nil), d.Classes...)}
	for j, a := range d.Inputs {
		s.Features[j] = learn.Feature{Name: a.Name, Nominal: a.Nominal()}
		if a.Nominal() {
			s.Features[j].Categories = append([]string(nil), a.Domain...)
		}
	}
	return s
}

// MissingRows returns the indices of rows with at least one missing input.
func (d *Dataset) MissingRows() []int {
	var out []int
	for i, row := range d.X {
		for _, v := range row {
			if math.IsNaN(v) {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

// CompleteRows returns a copy of the dataset without the rows that have a
// missing input, keeping the order of the others, and the source indices of
// the kept rows. This is what the paper's experiment effectively did for
// hepatitis and dermatology.
func (d *Dataset) CompleteRows() (*Dataset, []int) {
	complete := func(row []float64) bool {
		for _, v := range row {
			if math.IsNaN(v) {
				return false
			}
		}
		return true
	}
	// Count first: on 10^6 rows, growing the three slices by append would
	// allocate about twice their final size.
	n := 0
	for _, row := range d.X {
		if complete(row) {
			n++
		}
	}
	out := *d
	out.X = make([][]float64, 0, n)
	out.Y = make([]int, 0, n)
	kept := make([]int, 0, n)
	for i, row := range d.X {
		if complete(row) {
			out.X = append(out.X, row)
			out.Y = append(out.Y, d.Y[i])
			kept = append(kept, i)
		}
	}
	out.Inputs = append([]Attribute(nil), d.Inputs...)
	return &out, kept
}

// FirstAppearanceCodes returns a copy of X in which every nominal column is
// recoded by order of first appearance in the rows (code 0 = the value of the
// first non-missing row), as pandas.factorize does. Numeric columns are
// copied unchanged and missing cells stay NaN. The second result gives, per
// column, the category labels in the new code order (nil for numeric
// columns).
func (d *Dataset) FirstAppearanceCodes() ([][]float64, [][]string) {
	out := make([][]float64, len(d.X))
	flat := make([]float64, len(d.X)*len(d.Inputs))
	for i, row := range d.X {
		out[i] = flat[i*len(d.Inputs) : (i+1)*len(d.Inputs) : (i+1)*len(d.Inputs)]
		copy(out[i], row)
	}
	labels := make([][]string, len(d.Inputs))
	for j, a := range d.Inputs {
		if !a.Nominal() {
			continue
		}
		recode := make(map[int]int)
		for i := range out {
			v := out[i][j]
			if math.IsNaN(v) {
				continue
			}
			k := int(v)
			c, ok := recode[k]
			if !ok {
				c = len(recode)
				recode[k] = c
				labels[j] = append(labels[j], a.Domain[k])
			}
			out[i][j] = float64(c)
		}
	}
	return out, labels
}

// Validate checks the internal consistency of a dataset: rectangular X of
// the declared width, class indices in range, nominal codes inside their
// domains, no infinite value (NaN is a missing cell; ±Inf is never data).
func (d *Dataset) Validate() error {
	if len(d.X) != len(d.Y) {
		return fmt.Errorf("%s: %d rows but %d labels", d.Name, len(d.X), len(d.Y))
	}
	for i, row := range d.X {
		if len(row) != len(d.Inputs) {
			return fmt.Errorf("%s: row %d has %d values, want %d", d.Name, i, len(row), len(d.Inputs))
		}
		if d.Y[i] < 0 || d.Y[i] >= len(d.Classes) {
			return fmt.Errorf("%s: row %d has class index %d outside 0..%d", d.Name, i, d.Y[i], len(d.Classes)-1)
		}
		for j, v := range row {
			if math.IsInf(v, 0) {
				return fmt.Errorf("%s: row %d column %s is %v; only finite numbers and NaN (missing) are allowed", d.Name, i, d.Inputs[j].Name, v)
			}
			if d.Inputs[j].Nominal() && !math.IsNaN(v) && (v < 0 || int(v) >= len(d.Inputs[j].Domain) || v != math.Trunc(v)) {
				return fmt.Errorf("%s: row %d column %s has code %v outside its domain", d.Name, i, d.Inputs[j].Name, v)
			}
		}
	}
	return nil
}
