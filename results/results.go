// Package results defines results.csv, the contract between running
// experiments and reporting on them: one row per (work unit, configuration).
//
// The runner appends rows; reports, plots, merge and check read them. Nothing
// downstream reads runner state, so a fresh run, a resumed run and merged
// shards are reported the same way. What is stored beside it, the
// predictions and models, is package results/artifacts; the runtime
// study's runtime.csv is package results/runtimecsv.
package results

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/fgrtbench/fgrtbench/internal/safefile"
)

// FileName is the name of the results file inside an output directory,
// for its writer (the runner) and every reader.
const FileName = "results.csv"

// Header is the column list of results.csv, in order.
var Header = []string{
	"protocol", "dataset", "method", "config", "config_index", "selected", "selection", "repeat", "fold", "seed",
	"n_train", "n_test", "correct", "accuracy", "balanced_accuracy",
	"rules", "antecedents", "rulebase_size", "leaves", "internal_nodes",
	"fit_seconds", "predict_seconds", "key",
}

// PartialMark starts the comment line that heads a knowingly partial
// results file (merge --allow-partial): readers of this package skip it,
// other CSV readers stumble on it instead of taking the file for complete.
const PartialMark = "# partial:"

// TimingColumns are the columns that legitimately differ between two runs of
// the same work; everything else must be byte-identical.
var TimingColumns = []string{"fit_seconds", "predict_seconds"}

// Record is one row of results.csv.
type Record struct {
	Protocol string // "paper" or "clean"
	Dataset  string
	Method   string // registry name, e.g. "fgrt", "cart"
	// Config is the canonical configuration: "name=value" pairs sorted by
	// name and joined with ';' (empty for a method without parameters).
	Config string
	// ConfigIndex is the position of Config in the method's grid, in list
	// order (0 for a fixed configuration). Ties in test-selection resolve to
	// the lowest index, as in the authors' code.
	ConfigIndex int
	// Selected marks the configuration whose accuracy is the reported number
	// of this (protocol, dataset, method, repeat, fold).
	Selected bool
	// Selection says how the selected configuration was chosen: "fixed" (one
	// configuration), "test" (best test accuracy: the paper's optimistic
	// rule), or "inner-cv" (inner cross-validation on the training fold).
	Selection string
	Repeat    int
	Fold      int
	Seed      int64
	NTrain    int
	NTest     int
	Correct   int
	Accuracy  float64
	// BalancedAccuracy is the mean per-class recall on the test fold.
	BalancedAccuracy float64
	Rules            int
	Antecedents      int
	RulebaseSize     int
	Leaves           int
	InternalNodes    int
	FitSeconds       float64
	PredictSeconds   float64
	// Key identifies the work unit (protocol, dataset, method, method
	// variant, repeat, fold, seed); rows of one unit share it.
	Key string
}

// MeanAntecedents returns antecedents per rule.
func (r Record) MeanAntecedents() float64 {
	if r.Rules == 0 {
		return 0
	}
	return float64(r.Antecedents) / float64(r.Rules)
}

func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// Fields renders the record as CSV fields in Header order.
func (r Record) Fields() []string {
	return []string{
		r.Protocol, r.Dataset, r.Method, r.Config, strconv.Itoa(r.ConfigIndex), strconv.FormatBool(r.Selected), r.Selection,
		strconv.Itoa(r.Repeat), strconv.Itoa(r.Fold), strconv.FormatInt(r.Seed, 10),
		strconv.Itoa(r.NTrain), strconv.Itoa(r.NTest), strconv.Itoa(r.Correct),
		formatFloat(r.Accuracy), formatFloat(r.BalancedAccuracy),
		strconv.Itoa(r.Rules), strconv.Itoa(r.Antecedents), strconv.Itoa(r.RulebaseSize),
		strconv.Itoa(r.Leaves), strconv.Itoa(r.InternalNodes),
		strconv.FormatFloat(r.FitSeconds, 'f', 6, 64), strconv.FormatFloat(r.PredictSeconds, 'f', 6, 64),
		r.Key,
	}
}

// Parse builds a record from CSV fields in Header order.
func Parse(f []string) (Record, error) {
	if len(f) != len(Header) {
		return Record{}, fmt.Errorf("results: %d fields, want %d", len(f), len(Header))
	}
	var r Record
	p := fieldParser{f: f}
	r.Protocol, r.Dataset, r.Method, r.Config = f[0], f[1], f[2], f[3]
	p.int(4, &r.ConfigIndex)
	if p.err != nil {
		return r, p.err
	}
	var err error
	r.Selected, err = strconv.ParseBool(f[5])
	if err != nil {
		return r, fmt.Errorf("results: column selected: %v", err)
	}
	r.Selection = f[6]
	p.int(7, &r.Repeat)
	p.int(8, &r.Fold)
	if p.err == nil {
		r.Seed, p.err = strconv.ParseInt(f[9], 10, 64)
	}
	p.int(10, &r.NTrain)
	p.int(11, &r.NTest)
	p.int(12, &r.Correct)
	p.float(13, &r.Accuracy)
	p.float(14, &r.BalancedAccuracy)
	p.int(15, &r.Rules)
	p.int(16, &r.Antecedents)
	p.int(17, &r.RulebaseSize)
	p.int(18, &r.Leaves)
	p.int(19, &r.InternalNodes)
	p.float(20, &r.FitSeconds)
	p.float(21, &r.PredictSeconds)
	r.Key = f[22]
	if p.err == nil {
		p.err = r.checkRanges()
	}
	if p.err == nil {
		p.err = r.checkAccuracy()
	}
	if p.err == nil {
		p.err = r.checkKey()
	}
	return r, p.err
}

// UnitKey is the key of one work unit as results.csv holds it:
// protocol/dataset/label#group/rREPEAT/fFOLD/sSEED, where group is the
// hash of the unit's identity group (bench/identity). It is spelled here,
// with the contract of the file, so that the reader can hold every row's
// key to the row's own columns (checkKey).
func UnitKey(protocol, dataset, label, group string, repeat, fold int, seed int64) string {
	return fmt.Sprintf("%s/%s/%s#%s/r%d/f%d/s%d", protocol, dataset, label, group, repeat, fold, seed)
}

// checkKey holds a row's key to its own columns: the key names the
// protocol, dataset, method label, repeat, fold and seed of the unit that
// wrote the row, so a cell edited apart from its key (fold 0 made 7) is an
// edited or corrupted row, named at the cell that disagrees. A key that
// is not a unit key at all (no '#': rows built by hand in tests) has
// nothing to agree with here; readers that know the study refuse it as a
// unit the study does not have.
func (r Record) checkKey() error {
	if !strings.Contains(r.Key, "#") {
		return nil
	}
	disagree := func(name, value, inKey string) error {
		return &FieldError{Column: column(name), Name: name,
			Msg: fmt.Sprintf("%s disagrees with the row's key %s, which says %s (an edited or corrupted row)", value, r.Key, inKey)}
	}
	notAKey := func() error {
		return &FieldError{Column: column("key"), Name: "key", Msg: fmt.Sprintf("%q is not a unit key (protocol/dataset/label#group/rR/fF/sS)", r.Key)}
	}
	// Read once per row of files of millions: no allocation unless refused.
	rest := r.Key
	for _, c := range [...]struct {
		name, value string
		sep         byte
	}{{"protocol", r.Protocol, '/'}, {"dataset", r.Dataset, '/'}, {"method", r.Method, '#'}} {
		if len(rest) <= len(c.value) || rest[:len(c.value)] != c.value || rest[len(c.value)] != c.sep {
			return disagree(c.name, strconv.Quote(c.value), "another "+c.name)
		}
		rest = rest[len(c.value)+1:]
	}
	group, rest, ok := strings.Cut(rest, "/")
	if !ok || group == "" {
		return notAKey()
	}
	var buf [24]byte
	for i, c := range [...]struct {
		name   string
		prefix byte
		value  int64
	}{{"repeat", 'r', int64(r.Repeat)}, {"fold", 'f', int64(r.Fold)}, {"seed", 's', r.Seed}} {
		var seg string
		seg, rest, ok = strings.Cut(rest, "/")
		if len(seg) < 2 || seg[0] != c.prefix || ok != (i < 2) {
			return notAKey()
		}
		if want := strconv.AppendInt(buf[:0], c.value, 10); seg[1:] != string(want) {
			return disagree(c.name, string(want), c.name+" "+seg[1:])
		}
	}
	return nil
}

// fieldParser parses the numeric fields of one row in turn; after the
// first error it parses nothing more and keeps that error.
type fieldParser struct {
	f   []string
	err error
}

// int parses field i into dst.
func (p *fieldParser) int(i int, dst *int) {
	if p.err != nil {
		return
	}
	v, err := strconv.Atoi(p.f[i])
	if err != nil {
		p.err = &FieldError{Column: i + 1, Name: Header[i], Msg: fmt.Sprintf("%q is not an integer", p.f[i])}
	}
	*dst = v
}

// float parses field i into dst.
func (p *fieldParser) float(i int, dst *float64) {
	if p.err != nil {
		return
	}
	v, err := strconv.ParseFloat(p.f[i], 64)
	if err != nil {
		p.err = &FieldError{Column: i + 1, Name: Header[i], Msg: fmt.Sprintf("%q is not a number", p.f[i])}
	}
	*dst = v
}

// FieldError is a cell of results.csv holding a number no run writes (a
// rate outside [0, 1], a negative time or count): an edited or corrupted
// row. Read fills Line; ReadFile fills Path.
type FieldError struct {
	Path         string
	Line, Column int // 1-based; Line 0 when unknown
	Name         string
	Msg          string
}

func (e *FieldError) Error() string {
	switch {
	case e.Path != "" && e.Line > 0:
		return fmt.Sprintf("%s:%d:%d: %s %s", e.Path, e.Line, e.Column, e.Name, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("line %d, column %d: %s %s", e.Line, e.Column, e.Name, e.Msg)
	}
	return fmt.Sprintf("results: column %d: %s %s", e.Column, e.Name, e.Msg)
}

// column is the 1-based column of a Header name.
func column(name string) int {
	for i, h := range Header {
		if h == name {
			return i + 1
		}
	}
	return 0
}

// checkRanges holds every number of a parsed row to the range a run can
// write: rates in [0, 1], times finite and >= 0, counts and indices >= 0.
// (correct, n_test and accuracy are held to each other by checkAccuracy.)
func (r Record) checkRanges() error {
	bad := func(name, msg string) error {
		return &FieldError{Column: column(name), Name: name, Msg: msg}
	}
	for _, c := range []struct {
		name string
		v    int
	}{
		{"config_index", r.ConfigIndex}, {"repeat", r.Repeat}, {"fold", r.Fold}, {"n_train", r.NTrain},
		{"rules", r.Rules}, {"antecedents", r.Antecedents}, {"rulebase_size", r.RulebaseSize},
		{"leaves", r.Leaves}, {"internal_nodes", r.InternalNodes},
	} {
		if c.v < 0 {
			return bad(c.name, fmt.Sprintf("%d is negative; counts and indices are >= 0 (an edited or corrupted row)", c.v))
		}
	}
	if v := r.BalancedAccuracy; !(v >= 0 && v <= 1) {
		return bad("balanced_accuracy", formatFloat(v)+" is not a rate in [0, 1] (an edited or corrupted row)")
	}
	for _, c := range []struct {
		name string
		v    float64
	}{{"fit_seconds", r.FitSeconds}, {"predict_seconds", r.PredictSeconds}} {
		if !(c.v >= 0) || math.IsInf(c.v, 1) {
			return bad(c.name, formatFloat(c.v)+" is not a time >= 0 (an edited or corrupted row)")
		}
	}
	return nil
}

// checkAccuracy holds a parsed row to the contract that its accuracy is
// correct / n_test, so that an edited or corrupted row is an error rather
// than a number every report would carry.
// A row without test rows is not one the runner writes (validation refuses
// folds without test rows), so it is refused too.
func (r Record) checkAccuracy() error {
	switch {
	case r.NTest <= 0 || r.Correct < 0 || r.Correct > r.NTest:
		return fmt.Errorf("results: correct %d of n_test %d is impossible", r.Correct, r.NTest)
	case r.Accuracy != float64(r.Correct)/float64(r.NTest):
		return fmt.Errorf("results: accuracy %s is not correct / n_test = %d/%d = %s (an edited or corrupted row)",
			formatFloat(r.Accuracy), r.Correct, r.NTest, formatFloat(float64(r.Correct)/float64(r.NTest)))
	}
	return nil
}

// Read parses a whole results.csv stream. A final line without its newline
// (a write cut short by a crash) is reported as truncated and dropped, so
// that a resumed run redoes that unit; any other malformed line is an error.
func Read(rd io.Reader) (recs []Record, truncated bool, err error) {
	data, err := io.ReadAll(rd)
	if err != nil {
		return nil, false, err
	}
	text := string(data)
	if text != "" && !strings.HasSuffix(text, "\n") {
		cut := strings.LastIndexByte(text, '\n')
		text = text[:cut+1]
		truncated = true
	}
	rows, lines, torn, err := readRows(text)
	truncated = truncated || torn
	if err != nil {
		return nil, truncated, err
	}
	if len(rows) == 0 {
		return nil, truncated, nil
	}
	if strings.Join(rows[0], ",") != strings.Join(Header, ",") {
		return nil, truncated, fmt.Errorf("results: unexpected header %q", strings.Join(rows[0], ","))
	}
	for i, row := range rows[1:] {
		r, err := Parse(row)
		var fe *FieldError
		if errors.As(err, &fe) {
			fe.Line = lines[i+1]
			return nil, truncated, fe
		}
		if err != nil {
			return nil, truncated, fmt.Errorf("line %d: %v", lines[i+1], err)
		}
		recs = append(recs, r)
	}
	if err := checkRows(recs); err != nil {
		return nil, truncated, err
	}
	return recs, truncated, nil
}

// readRows reads the CSV rows of text (whole lines) with each row's line
// in the file (a partial mark shifts them); torn reports a last row cut
// inside a quoted field, which is dropped.
func readRows(text string) (rows [][]string, lines []int, torn bool, err error) {
	cr := csv.NewReader(strings.NewReader(text))
	cr.FieldsPerRecord = -1
	cr.Comment = '#' // a PartialMark line
	for {
		good := cr.InputOffset()
		row, err := cr.Read()
		if err == io.EOF {
			return rows, lines, false, nil
		}
		if err != nil {
			if tornQuotedRow(text[good:]) {
				return rows, lines, true, nil
			}
			return nil, nil, false, fmt.Errorf("results: %v", err)
		}
		line, _ := cr.FieldPos(0)
		lines = append(lines, line)
		rows = append(rows, row)
	}
}

// tornQuotedRow reports whether tail, the text from the row encoding/csv
// refused, is a write cut inside a quoted field that holds a newline: a
// last row whose quote never closes, torn like a row without its newline
// and dropped like it, so resume redoes the unit. Only when the rest of
// the file, its quote closed, is one row: a stray quote mid-file is an
// error, not a torn end.
func tornQuotedRow(tail string) bool {
	if strings.Count(tail, `"`)%2 != 1 {
		return false
	}
	rest, err := csv.NewReader(strings.NewReader(tail + "\"\n")).ReadAll()
	return err == nil && len(rest) == 1 && len(rest[0]) <= len(Header)
}

// checkRows enforces the invariants between rows that a hand edit breaks
// (a flipped selected cell, an edited n_train), naming the line (rows are
// lines 2, 3, ... of the file): at most one selected row per unit (a unit
// with none is incomplete, which readers that know the study refuse); one
// n_train and n_test for every row of one unit (its configurations see one
// split); and one n_train + n_test for every fold of one protocol,
// dataset, repeat and seed (the folds partition one set of rows).
func checkRows(recs []Record) error {
	selected := map[string]int{} // unit key -> line of its selected row
	split := map[string]int{}    // unit key -> line of its first row
	type repeatKey struct {
		protocol, dataset string
		repeat            int
		seed              int64
	}
	size := map[repeatKey]int{} // -> line of its first row
	for i, r := range recs {
		line := i + 2
		if r.Key == "" {
			continue // rows built by hand in tests and older files name no unit
		}
		if r.Selected {
			if at, dup := selected[r.Key]; dup {
				return fmt.Errorf("line %d: a second selected row of unit %s (line %d is selected too); exactly one configuration per unit and fold is selected (an edited row?)", line, r.Key, at)
			}
			selected[r.Key] = line
		}
		if at, ok := split[r.Key]; ok {
			if o := recs[at-2]; o.NTrain != r.NTrain || o.NTest != r.NTest {
				return fmt.Errorf("line %d: n_train %d, n_test %d differ from line %d's %d, %d, a row of the same unit (one split per unit; an edited row?)", line, r.NTrain, r.NTest, at, o.NTrain, o.NTest)
			}
		} else {
			split[r.Key] = line
		}
	}
	for i, r := range recs {
		line := i + 2
		k := repeatKey{r.Protocol, r.Dataset, r.Repeat, r.Seed}
		if at, ok := size[k]; ok {
			if o := recs[at-2]; o.NTrain+o.NTest != r.NTrain+r.NTest {
				return fmt.Errorf("line %d: n_train + n_test = %d, but line %d of the same protocol, dataset and repeat has %d (the folds of a repeat share their rows; an edited row?)", line, r.NTrain+r.NTest, at, o.NTrain+o.NTest)
			}
		} else {
			size[k] = line
		}
	}
	return nil
}

// ReadFile reads results.csv from a path.
func ReadFile(path string) ([]Record, error) {
	f, err := safefile.Open(path, safefile.ResultsCap)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, _, err := Read(f)
	var fe *FieldError
	if errors.As(err, &fe) {
		fe.Path = path
		return nil, fe
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return recs, nil
}

// Write writes a header and the records as CSV.
func Write(w io.Writer, recs []Record) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(Header); err != nil {
		return err
	}
	for _, r := range recs {
		if err := cw.Write(r.Fields()); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// SameOutsideTiming reports whether two records agree on every column but
// the timing ones.
func SameOutsideTiming(a, b Record) bool {
	a.FitSeconds, a.PredictSeconds = 0, 0
	b.FitSeconds, b.PredictSeconds = 0, 0
	return a == b
}
