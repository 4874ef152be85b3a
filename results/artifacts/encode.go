package artifacts

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/fgrtbench/fgrtbench/learn"
)

// The artifact path runs once per unit and, on large data, over hundreds
// of thousands of test rows: the encoders here write the CSV and JSON
// text straight into a gzip member, without a string per cell, and a
// unit's configurations are compressed as they come, so that a unit holds
// neither its text nor its score matrices until its write. The text is
// byte for byte what encoding/csv and encoding/json write.

// gzipPool reuses the compressors (a level-3 compressor holds about a
// megabyte of tables).
var gzipPool = sync.Pool{New: func() any {
	zw, err := gzip.NewWriterLevel(nil, compressionLevel)
	if err != nil {
		panic(err) // compressionLevel is a valid constant
	}
	return zw
}}

// member is one gzip member being written.
type member struct {
	buf bytes.Buffer
	zw  *gzip.Writer
}

func (m *member) start() {
	m.zw = gzipPool.Get().(*gzip.Writer)
	m.zw.Reset(&m.buf)
}

// finish closes the member and returns its bytes.
func (m *member) finish() ([]byte, error) {
	if m.zw == nil {
		return nil, fmt.Errorf("results: an empty member")
	}
	err := m.zw.Close()
	gzipPool.Put(m.zw)
	m.zw = nil
	if err != nil {
		return nil, err
	}
	return m.buf.Bytes(), nil
}

// release returns the compressor of a member that will not be finished.
func (m *member) release() {
	if m.zw != nil {
		gzipPool.Put(m.zw)
		m.zw = nil
	}
}

// csvField returns field as encoding/csv writes it (quoted when it must
// be), so that a field repeated on every row is quoted once.
func csvField(field string) string {
	var b strings.Builder
	cw := csv.NewWriter(&b)
	cw.Write([]string{field, "x"}) // a lone empty field would be written `""`
	cw.Flush()
	return strings.TrimSuffix(b.String(), ",x\n")
}

// UnitEncoder compresses one unit's artifacts as its configurations are
// recorded: AddSet and AddModel in any interleaving, then Members.
type UnitEncoder struct {
	header     []string
	col        map[string]int
	key        string
	preds, mod member
	line       []byte
	nSets      int
	nModels    int
}

// NewUnitEncoder starts the members of one unit whose predictions go
// under header (from PredictionsHeader).
func NewUnitEncoder(header []string) *UnitEncoder {
	e := &UnitEncoder{header: header, col: map[string]int{}}
	for j, h := range header[len(PredictionColumns):] {
		e.col[h] = len(PredictionColumns) + j
	}
	return e
}

func (e *UnitEncoder) checkKey(key string) error {
	if e.nSets+e.nModels == 0 {
		e.key = key
		return nil
	}
	if key != e.key {
		return fmt.Errorf("results: one unit's artifacts name units %s and %s", e.key, key)
	}
	return nil
}

// AddSet appends the rows of one prediction set.
func (e *UnitEncoder) AddSet(p PredictionSet) error {
	if err := e.checkKey(p.Key); err != nil {
		return err
	}
	if err := p.check(); err != nil {
		return err
	}
	scoreAt := make([]int, len(p.Classes))
	if err := e.scoreColumns(p, scoreAt); err != nil {
		return err
	}
	if len(p.Rows) == 0 {
		return fmt.Errorf("results: predictions of %s config %d: no test row", p.Key, p.ConfigIndex)
	}
	if e.preds.zw == nil {
		e.preds.start()
	}
	w := rowWriter{p: p, scoreAt: scoreAt, classes: make([]string, len(p.Classes)), cells: make([]int, len(e.header))}
	for k, c := range p.Classes {
		w.classes[k] = csvField(c)
	}
	w.prefix = strconv.AppendInt(append([]byte(csvField(p.Key)), ','), int64(p.ConfigIndex), 10)
	w.prefix = append(w.prefix, ',')
	for i := range p.Rows {
		e.line = w.appendRow(e.line[:0], i)
		if _, err := e.preds.zw.Write(e.line); err != nil {
			return err
		}
	}
	e.nSets++
	return nil
}

// scoreColumns sets scoreAt[k] to the header column of class k's score.
func (e *UnitEncoder) scoreColumns(p PredictionSet, scoreAt []int) error {
	for k, c := range p.Classes {
		j, ok := e.col[ScoreColumn(c)]
		if !ok && p.Scores != nil {
			return fmt.Errorf("results: the predictions header has no column %s", ScoreColumn(c))
		}
		scoreAt[k] = j
	}
	return nil
}

// rowWriter writes the CSV lines of one prediction set, with what its
// rows share quoted once.
type rowWriter struct {
	p       PredictionSet
	prefix  []byte   // key,config_index,
	classes []string // the class labels as CSV fields
	scoreAt []int    // class index -> header column
	cells   []int    // header column -> class index + 1 (0: empty)
}

// appendRow appends row i's line.
func (w rowWriter) appendRow(line []byte, i int) []byte {
	p := w.p
	line = append(line, w.prefix...)
	line = strconv.AppendInt(line, int64(p.Rows[i]), 10)
	line = append(line, ',')
	line = append(line, w.classes[p.YTrue[i]]...)
	line = append(line, ',')
	if p.YPred[i] >= 0 {
		line = append(line, w.classes[p.YPred[i]]...)
	}
	width := len(w.cells)
	if p.Scores != nil {
		clear(w.cells)
		for k := range p.Scores[i] {
			w.cells[w.scoreAt[k]] = k + 1
		}
		for j := len(PredictionColumns); j < width; j++ {
			line = append(line, ',')
			if k := w.cells[j]; k > 0 {
				line = appendScore(line, p.Scores[i][k-1])
			}
		}
	} else {
		for j := len(PredictionColumns); j < width; j++ {
			line = append(line, ',')
		}
	}
	return append(line, '\n')
}

// AddModel appends one model record's JSON line. The model, the bulk of
// the line (megabytes for a deep tree), goes to the compressor as it is
// when it is already compact, without a copy.
func (e *UnitEncoder) AddModel(r ModelRecord) error {
	if err := e.checkKey(r.Key); err != nil {
		return err
	}
	if e.mod.zw == nil {
		e.mod.start()
	}
	line, at, err := writeModelHead(e.mod.zw, e.line[:0], r)
	if err != nil {
		return err
	}
	line, model, err := appendModelMember(line, r, at)
	if err != nil {
		return fmt.Errorf("results: model of %s config %d: %w", r.Key, r.ConfigIndex, err)
	}
	e.line = line
	for _, part := range [][]byte{line, model, []byte("}\n")} {
		if _, err := e.mod.zw.Write(part); err != nil {
			return err
		}
	}
	e.nModels++
	return nil
}

// flushBytes is the size at which writeModelHead hands its buffer to the
// compressor.
const flushBytes = 64 << 10

// writeModelHead writes r's JSON line up to its model's text to w, as
// appendModelParts appends it (the same bytes), through buf, which it
// hands to w whenever it holds flushBytes: a deep tree's rules (tens of
// megabytes on 10^6 rows, as many again for their readable form) then go
// to the compressor as they are written instead of into one line held
// whole, whose buffer the encoder kept for the unit's next model. It
// returns what buf holds at the end (not yet written) and the index of
// the member it stopped at, as appendObject does.
func writeModelHead(w io.Writer, buf []byte, r ModelRecord) ([]byte, int, error) {
	return writeObject(buf[:0], r, modelFields, func(b []byte) ([]byte, error) {
		if len(b) < flushBytes {
			return b, nil
		}
		_, err := w.Write(b)
		return b[:0], err
	})
}

// Key is the unit's key ("" before anything was added).
func (e *UnitEncoder) Key() string { return e.key }

// Members closes the unit's two members: predictions, models.
func (e *UnitEncoder) Members() (pm, mm []byte, err error) {
	defer e.Release()
	if e.nSets == 0 || e.nModels == 0 {
		return nil, nil, fmt.Errorf("results: a unit needs predictions and models (%d and %d given)", e.nSets, e.nModels)
	}
	if pm, err = e.preds.finish(); err != nil {
		return nil, nil, err
	}
	if mm, err = e.mod.finish(); err != nil {
		return nil, nil, err
	}
	return pm, mm, nil
}

// Release returns the encoder's compressors (an abandoned unit).
func (e *UnitEncoder) Release() {
	e.preds.release()
	e.mod.release()
}

// appendScore appends formatScore(v).
func appendScore(b []byte, v float64) []byte {
	if v-v != 0 { // NaN or ±Inf
		return append(b, formatScore(v)...)
	}
	return strconv.AppendFloat(b, v, 'g', -1, 64)
}

// appendModelJSON appends r's JSON line as an encoding/json Encoder with
// HTML escaping off writes it (TestModelJSONMatchesEncodingJSON), without
// reflection: a model record is written once per configuration and its
// partitions and rules are the bulk of models.jsonl.gz.
func appendModelJSON(b []byte, r ModelRecord) ([]byte, error) {
	b, model, err := appendModelParts(b, r)
	if err != nil {
		return nil, err
	}
	return append(append(b, model...), '}', '\n'), nil
}

// appendModelParts appends r's JSON line up to its model's text, which it
// returns apart (r.Model itself when it is already compact, else a
// compacted copy appended to b after the head), without the closing "}\n".
// The members are modelFields'.
func appendModelParts(b []byte, r ModelRecord) (head, model []byte, err error) {
	b, at := appendObject(b, r, modelFields)
	return appendModelMember(b, r, at)
}

// appendModelMember ends a model record's head b, written up to member
// at of modelFields (appendObject's or writeModelHead's stop), with the
// model's key, and returns the model's text as appendCompactModel does;
// a record without a model (at the end of the fields, or empty) adds
// nothing.
func appendModelMember(b []byte, r ModelRecord, at int) (head, model []byte, err error) {
	if at == len(modelFields) || modelFields[at].empty(r) {
		return b, nil, nil
	}
	b = appendMemberKey(append(b, ','), modelFields[at].key)
	return appendCompactModel(b, r.Model)
}

// appendTermJSON appends one partition term's JSON object (termFields).
func appendTermJSON(b []byte, t Term) []byte {
	b, _ = appendObject(b, t, termFields)
	return append(b, '}')
}

// appendCompactModel returns head and the model's text as
// appendModelParts does: model itself when it is already compact, else a
// compacted copy appended to head.
func appendCompactModel(head []byte, model []byte) ([]byte, []byte, error) {
	// encoding/json writes a RawMessage compacted (and refuses an invalid
	// one); json.Compact does both without HTML escaping.
	if !json.Valid(model) {
		return nil, nil, fmt.Errorf("json: error calling MarshalJSON for type json.RawMessage: invalid JSON")
	}
	if learn.IsCompactJSON(model) {
		return head, model, nil
	}
	n := len(head)
	buf := bytes.NewBuffer(head)
	if err := json.Compact(buf, model); err != nil {
		return nil, nil, err
	}
	b := buf.Bytes()
	return b[:n], b[n:], nil
}

func appendJSONStrings(b []byte, ss []string) []byte {
	return learn.AppendJSONArray(b, ss, appendJSONString)
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s quoted as encoding/json quotes a string with
// HTML escaping off: quotes, backslashes and control characters escaped,
// invalid UTF-8 as U+FFFD, U+2028 and U+2029 escaped.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
