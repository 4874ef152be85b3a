package results

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
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
	for k, c := range p.Classes {
		j, ok := e.col[ScoreColumn(c)]
		if !ok && p.Scores != nil {
			return fmt.Errorf("results: the predictions header has no column %s", ScoreColumn(c))
		}
		scoreAt[k] = j
	}
	if len(p.Rows) == 0 {
		return fmt.Errorf("results: predictions of %s config %d: no test row", p.Key, p.ConfigIndex)
	}
	if e.preds.zw == nil {
		e.preds.start()
	}
	classes := make([]string, len(p.Classes))
	for k, c := range p.Classes {
		classes[k] = csvField(c)
	}
	// prefix: key,config_index,
	prefix := strconv.AppendInt(append([]byte(csvField(p.Key)), ','), int64(p.ConfigIndex), 10)
	prefix = append(prefix, ',')
	width := len(e.header)
	cells := make([]int, width) // score column -> class index + 1 (0: empty)
	line := e.line
	for i, r := range p.Rows {
		line = append(line[:0], prefix...)
		line = strconv.AppendInt(line, int64(r), 10)
		line = append(line, ',')
		line = append(line, classes[p.YTrue[i]]...)
		line = append(line, ',')
		if p.YPred[i] >= 0 {
			line = append(line, classes[p.YPred[i]]...)
		}
		if p.Scores != nil {
			clear(cells)
			for k := range p.Scores[i] {
				cells[scoreAt[k]] = k + 1
			}
			for j := len(PredictionColumns); j < width; j++ {
				line = append(line, ',')
				if k := cells[j]; k > 0 {
					line = appendScore(line, p.Scores[i][k-1])
				}
			}
		} else {
			for j := len(PredictionColumns); j < width; j++ {
				line = append(line, ',')
			}
		}
		line = append(line, '\n')
		if _, err := e.preds.zw.Write(line); err != nil {
			return err
		}
	}
	e.line = line
	e.nSets++
	return nil
}

// AddModel appends one model record's JSON line.
func (e *UnitEncoder) AddModel(r ModelRecord) error {
	if err := e.checkKey(r.Key); err != nil {
		return err
	}
	line, err := appendModelJSON(e.line[:0], r)
	if err != nil {
		return fmt.Errorf("results: model of %s config %d: %w", r.Key, r.ConfigIndex, err)
	}
	e.line = line
	if e.mod.zw == nil {
		e.mod.start()
	}
	if _, err := e.mod.zw.Write(line); err != nil {
		return err
	}
	e.nModels++
	return nil
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

// appendModelJSON appends r's JSON line as ModelsMember's encoder writes
// it (HTML characters unescaped).
func appendModelJSON(b []byte, r ModelRecord) ([]byte, error) {
	buf := bytes.NewBuffer(b)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
