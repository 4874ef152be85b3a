package artifacts

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unsafe"
)

// PredictionsFile is the per-row predictions artifact beside results.csv.
const PredictionsFile = "predictions.csv.gz"

// PredictionColumns are the leading columns of predictions.csv.gz; one
// "score_<class>" column per class of the study's datasets follows
// (ScoreColumn), empty where the row's learner gives no scores or the
// class is not one of its dataset's.
var PredictionColumns = []string{"key", "config_index", "row", "y_true", "y_pred"}

// ScoreColumn is the column of the scores of the class named c.
func ScoreColumn(c string) string { return "score_" + c }

// PredictionSet is the test-fold predictions of one recorded configuration
// of one unit.
type PredictionSet struct {
	Key         string
	ConfigIndex int
	// Classes names the dataset's classes: class index k is Classes[k].
	Classes []string
	// Rows are the test rows' 0-based indices among the data rows of the
	// dataset file; YTrue and YPred their class indices (YPred -1: the
	// model predicted no class, written as an empty y_pred).
	Rows         []int
	YTrue, YPred []int
	// Scores, when not nil, holds one row per test row with one score per
	// class (learn.Scorer).
	Scores [][]float64
}

// check validates a set against its own shape.
func (p PredictionSet) check() error {
	n := len(p.Rows)
	if len(p.YTrue) != n || len(p.YPred) != n || (p.Scores != nil && len(p.Scores) != n) {
		return fmt.Errorf("results: predictions of %s config %d: %d rows, %d labels, %d predictions, %d score rows",
			p.Key, p.ConfigIndex, n, len(p.YTrue), len(p.YPred), len(p.Scores))
	}
	for i := range p.Rows {
		if p.YTrue[i] < 0 || p.YTrue[i] >= len(p.Classes) || p.YPred[i] < -1 || p.YPred[i] >= len(p.Classes) {
			return fmt.Errorf("results: predictions of %s config %d row %d: class %d predicted %d, %d classes",
				p.Key, p.ConfigIndex, p.Rows[i], p.YTrue[i], p.YPred[i], len(p.Classes))
		}
		if p.Scores != nil && len(p.Scores[i]) != len(p.Classes) {
			return fmt.Errorf("results: predictions of %s config %d row %d: %d scores for %d classes",
				p.Key, p.ConfigIndex, p.Rows[i], len(p.Scores[i]), len(p.Classes))
		}
	}
	return nil
}

// PredictionsHeader returns the header of a predictions file whose score
// columns are those of scoreClasses (the distinct class names of the
// study's datasets, in a fixed order).
func PredictionsHeader(scoreClasses []string) ([]string, error) {
	h := append([]string(nil), PredictionColumns...)
	seen := map[string]bool{}
	for _, c := range scoreClasses {
		if seen[c] {
			return nil, fmt.Errorf("results: score class %q twice", c)
		}
		seen[c] = true
		h = append(h, ScoreColumn(c))
	}
	return h, nil
}

// formatScore writes a score so that Go and pandas read back its bits.
func formatScore(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

func parseScore(s string) (float64, error) {
	switch s {
	case "", "NaN":
		return math.NaN(), nil
	case "inf":
		return math.Inf(1), nil
	case "-inf":
		return math.Inf(-1), nil
	}
	return strconv.ParseFloat(s, 64)
}

// encodeCSV renders rows as CSV text.
func encodeCSV(rows [][]string) ([]byte, error) {
	var buf bytes.Buffer
	cw := csv.NewWriter(&buf)
	if err := cw.WriteAll(rows); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// PredictionsHeaderMember is the gzip member that starts a predictions
// file: its header line.
func PredictionsHeaderMember(header []string) ([]byte, error) {
	text, err := encodeCSV([][]string{header})
	if err != nil {
		return nil, err
	}
	return gzipMember(text)
}

// PredictionsMember renders the prediction sets of one unit as one gzip
// member of CSV rows under header (from PredictionsHeader).
func PredictionsMember(header []string, sets []PredictionSet) ([]byte, error) {
	if len(sets) == 0 {
		return nil, fmt.Errorf("results: a unit without predictions")
	}
	e := NewUnitEncoder(header)
	defer e.Release()
	for _, p := range sets {
		if err := e.AddSet(p); err != nil {
			return nil, err
		}
	}
	return e.preds.finish()
}

// PredictionRow is one row of predictions.csv.gz as read back.
type PredictionRow struct {
	Key          string
	ConfigIndex  int
	Row          int
	YTrue, YPred string // YPred "" = no prediction
	// Scores is aligned with the header's score columns; nil when the row
	// has none, NaN where a cell is empty. Read-only: rows of a unit
	// with the same scores, as read, share one slice.
	Scores []float64
}

// Correct reports whether the row was predicted its true class.
func (r PredictionRow) Correct() bool { return r.YPred != "" && r.YPred == r.YTrue }

// Predictions is a decoded predictions file.
type Predictions struct {
	Header []string
	// ScoreClasses are the class names of the score columns, in order.
	ScoreClasses []string
	Rows         []PredictionRow
	// Units lists the units' keys in file order (one member each).
	Units []string
}

// ReadPredictions decodes a whole predictions.csv.gz. A torn tail is an
// error naming the byte offset, unless allowTorn (a reader of a directory
// being written); then it is dropped and torn reports it. Members are
// parsed in parallel (parseMembers) and joined in file order: the result
// and the first error are those of reading the members one by one.
func ReadPredictions(data []byte, allowTorn bool) (p Predictions, torn bool, err error) {
	return readPredictions(data, allowTorn, readWorkers())
}

// predMember is one unit member's rows as parsed.
type predMember struct {
	// dst is the window of the shared row buffer the member's rows are
	// parsed into (nil: rows has its own storage).
	dst  []PredictionRow
	off  int // dst's index in the buffer
	rows []PredictionRow
	unit string
	err  error
}

func readPredictions(data []byte, allowTorn bool, workers int) (p Predictions, torn bool, err error) {
	defer pauseGC(len(data))()
	windows := rowWindows{capacity: len(data) / 5}
	first := func(k int, m Member, r *predMember) bool {
		if k == 0 {
			err = p.readHeader(m.Data)
			return false
		}
		if err != nil {
			return false
		}
		windows.assign(m, r)
		return true
	}
	header := func() []string { return p.Header }
	parse := func(k int, m Member, r *predMember) { parsePredictionMember(header(), k, m.Data, r) }
	members, torn, end, perr := parseMembers(data, workers, first, parse, func(r *predMember) bool { return r.err != nil })
	if err != nil { // the header, read first
		return p, torn, err
	}
	if perr != nil {
		return p, torn, fmt.Errorf("results: %s: %w", PredictionsFile, perr)
	}
	if len(members) > 0 {
		members = members[1:] // the header
	}
	p.Rows, p.Units, err = joinRows(windows.all, members)
	if err != nil {
		return p, torn, err
	}
	if torn && !allowTorn {
		return p, torn, fmt.Errorf("results: %s is damaged at byte %d (not a whole gzip member)", PredictionsFile, end)
	}
	return p, torn, nil
}

// rowWindows hands out the windows of one row buffer. A full
// reproduction holds millions of rows (rows compress to 5 to 6 bytes
// each): they are parsed straight into one buffer with room for them all
// (capacity rows, allocated at the first member), each member into its
// own window (as many rows as it has lines), so that joining them
// (joinRows) moves rows only across the gaps. Should the estimate be
// short, the members beyond it get their own storage.
type rowWindows struct {
	capacity int
	all      []PredictionRow
	off      int
	overflow bool
}

// assign gives member m's rows their window in r.dst, or none (nil dst)
// once the buffer is short.
func (w *rowWindows) assign(m Member, r *predMember) {
	if w.all == nil {
		w.all = make([]PredictionRow, w.capacity)
	}
	n := lineCount(m.Data)
	if !w.overflow && n <= len(w.all)-w.off {
		r.dst, r.off = w.all[w.off:w.off+n:w.off+n], w.off
		w.off += n
	} else {
		w.overflow = true
	}
}

// joinRows joins the members' rows in file order into all (the buffer
// their windows are cut from), and their units; the first member's error
// stops it, with the rows joined so far. Once a member's rows are not in
// its window (the estimate was short), the rows joined so far move to a
// new array, which the remaining members are appended to, so that no
// window is written over before it is read.
func joinRows(all []PredictionRow, members []*predMember) (rows []PredictionRow, units []string, err error) {
	// w counts the rows joined; written bounds the windows' rows.
	w, written, moved := 0, 0, false
	total := 0
	for _, r := range members {
		if r.err != nil {
			break
		}
		total += len(r.rows)
	}
	for _, r := range members {
		if r.err != nil {
			err = r.err
			break
		}
		if r.unit != "" {
			units = append(units, r.unit)
		}
		if !moved && r.dst != nil && len(r.rows) <= len(r.dst) {
			// The window starts at or after w: copy moves rows left.
			written = max(written, r.off+len(r.rows))
			w += copy(all[w:], r.rows)
			continue
		}
		if !moved {
			// Room for every row at once: appending to a short array
			// would copy the rows over and over.
			all, moved = append(make([]PredictionRow, 0, total), all[:w]...), true
		}
		all = append(all, r.rows...)
		w = len(all)
	}
	if !moved && w < written {
		clear(all[w:written]) // rows moved left leave copies behind
	}
	return all[:w], units, err
}

// lineCount is the number of lines of text (a last line without its
// newline counts): no CSV record spans less than one.
func lineCount(b []byte) int {
	n := bytes.Count(b, []byte{'\n'})
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}

// parsePredictionMember parses the rows of unit member k into r. Our own
// encoder writes no quotes, so a member without a quote, a carriage
// return or a blank line is split at commas and newlines directly (what
// encoding/csv would read from it); any other member, which a user may
// have written, is read by encoding/csv.
func parsePredictionMember(header []string, k int, data []byte, r *predMember) {
	p := &memberParser{header: header, k: k, r: r, rows: r.dst[:0]}
	if p.rows == nil {
		p.rows = make([]PredictionRow, 0, lineCount(data)) // beyond the buffer
	}
	p.slab = scoreSlab{width: len(header) - len(PredictionColumns), left: lineCount(data), rows: 4}
	defer func() { r.rows = p.rows }()
	if plainCSV(data) {
		p.parsePlain(data)
		return
	}
	p.parseCSV(data)
}

// memberParser holds what the rows of one member share while they are
// parsed.
type memberParser struct {
	header []string
	k      int // the member's number, for messages
	r      *predMember
	rows   []PredictionRow
	labels labelShare
	slab   scoreSlab
	// same maps the text of a row's score fields to the vector parsed
	// from it (scores); hits and misses count its lookups.
	same         map[string][]float64
	hits, misses int
}

// parsePlain parses a member that plainCSV accepts, cutting its lines at
// commas. The fields are read in place: data is the member's
// decompressed text, not written to while it is parsed, and no field
// outlives the parse (labels and keys are copied by labels.share, numbers
// parsed, the score texts keyed in same dropped with the parser), so that
// the buffer can hold the next member's text.
func (p *memberParser) parsePlain(data []byte) {
	text := unsafe.String(unsafe.SliceData(data), len(data))
	f := make([]string, 0, len(p.header)+1)
	prevKey := ""
	for i := 0; len(text) > 0; i++ {
		n := strings.IndexByte(text, '\n')
		if n < 0 {
			n = len(text)
		}
		line := text[:n]
		text = text[min(n+1, len(text)):]
		var scoreText string
		f, scoreText = splitPlainLine(f[:0], line, prevKey, len(p.header))
		prevKey = f[0]
		if !p.add(i, f, scoreText) {
			return
		}
	}
}

// splitPlainLine appends line's fields to f and returns them with the
// text of the score fields (the line after its leading columns; "" when
// the line does not have width fields). A member's rows start with one
// key, the longest field: a line starting with the previous row's key
// and a comma is split after it.
func splitPlainLine(f []string, line, prevKey string, width int) ([]string, string) {
	start := 0
	if k := len(prevKey); k > 0 && len(line) > k && line[k] == ',' && line[:k] == prevKey {
		f, start = append(f, prevKey), k+1
	}
	scores := -1 // where the score fields start
	for j := start; j < len(line); j++ {
		if line[j] == ',' {
			if len(f) == len(PredictionColumns) {
				scores = start
			}
			f = append(f, line[start:j])
			start = j + 1
		}
	}
	if len(f) == len(PredictionColumns) {
		scores = start
	}
	f = append(f, line[start:])
	if len(f) == width && scores >= 0 {
		return f, line[scores:]
	}
	return f, ""
}

// parseCSV parses a member with encoding/csv (one with quotes, carriage
// returns or blank lines, which a user may have written).
func (p *memberParser) parseCSV(data []byte) {
	cr := csv.NewReader(bytes.NewReader(data))
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	for i := 0; ; i++ {
		f, err := cr.Read()
		if err == io.EOF {
			return
		}
		if err != nil {
			p.r.err = fmt.Errorf("results: %s member %d: %v", PredictionsFile, p.k, err)
			return
		}
		if !p.add(i, f, "") {
			return
		}
	}
}

// add parses record i of the member (its fields f; scoreText as
// splitPlainLine returns it) into a row, or records the member's error
// and returns false.
func (p *memberParser) add(i int, f []string, scoreText string) bool {
	p.slab.left--
	row, err := parseRowHead(p.header, f)
	if err == nil {
		row.Scores, err = p.scores(f, scoreText)
	}
	if err != nil {
		p.r.err = fmt.Errorf("results: %s member %d row %d: %v", PredictionsFile, p.k, i+1, err)
		return false
	}
	row.Key, row.YTrue, row.YPred = p.labels.share(row.Key), p.labels.share(row.YTrue), p.labels.share(row.YPred)
	if i == 0 {
		p.r.unit = row.Key
	} else if row.Key != p.r.unit {
		p.r.err = fmt.Errorf("results: %s member %d mixes units %s and %s", PredictionsFile, p.k, p.r.unit, row.Key)
		return false
	}
	p.rows = append(p.rows, row)
	return true
}

// scores parses the score fields of f. Most rows of a unit repeat a score
// vector of an earlier row (a tree's leaf, a rule's class): rows whose
// score fields read alike (scoreText) share one slice, parsed once. A
// member whose vectors hardly repeat (a fuzzy model's strengths) stops
// looking them up after 64 misses.
func (p *memberParser) scores(f []string, scoreText string) ([]float64, error) {
	if scoreText == "" || (p.misses >= 64 && p.hits < p.misses) {
		return parseRowScores(p.header, f, &p.slab)
	}
	if sc, ok := p.same[scoreText]; ok {
		p.hits++
		return sc, nil
	}
	sc, err := parseRowScores(p.header, f, &p.slab)
	if err != nil {
		return sc, err
	}
	if p.same == nil {
		p.same = map[string][]float64{}
	}
	p.same[scoreText] = sc
	p.misses++
	return sc, nil
}

// labelShare copies the strings a member's rows repeat (the unit's key,
// the class labels) once per member: a member's few distinct ones are
// found by a scan of those seen, a map beyond that.
type labelShare struct {
	seen   []string
	intern map[string]string
}

func (l *labelShare) share(s string) string {
	for _, v := range l.seen {
		if v == s {
			return v
		}
	}
	if v, ok := l.intern[s]; ok {
		return v
	}
	s = strings.Clone(s)
	if len(l.seen) < 16 {
		l.seen = append(l.seen, s)
	} else {
		if l.intern == nil {
			l.intern = map[string]string{}
		}
		l.intern[s] = s
	}
	return s
}

// scoreSlab cuts score rows from slabs instead of allocating them one by
// one; the slabs grow from a few rows (most rows share their scores) to
// 512, and never beyond the rows left.
type scoreSlab struct {
	width int // scores per row
	left  int // rows of the member not yet parsed
	rows  int // rows of the last slab
	slab  []float64
}

func (s *scoreSlab) next() []float64 {
	if len(s.slab) < s.width {
		s.rows = min(2*s.rows, 512)
		s.slab = make([]float64, max(1, min(s.left, s.rows))*s.width)
	}
	v := s.slab[:s.width:s.width]
	s.slab = s.slab[s.width:]
	return v
}

// plainCSV reports whether encoding/csv would read data as its lines cut
// at commas: no quote, no carriage return, no blank line (which it
// skips).
func plainCSV(data []byte) bool {
	return bytes.IndexByte(data, '"') < 0 && bytes.IndexByte(data, '\r') < 0 &&
		(len(data) == 0 || data[0] != '\n') && !bytes.Contains(data, []byte("\n\n"))
}

// readHeader reads the header member.
func (p *Predictions) readHeader(data []byte) error {
	head, err := readCSV(data)
	if err != nil || len(head) != 1 {
		return fmt.Errorf("results: %s: the first member is not the header line", PredictionsFile)
	}
	p.Header = head[0]
	if len(p.Header) < len(PredictionColumns) || strings.Join(p.Header[:len(PredictionColumns)], ",") != strings.Join(PredictionColumns, ",") {
		return fmt.Errorf("results: %s: unexpected header %q", PredictionsFile, strings.Join(p.Header, ","))
	}
	for _, h := range p.Header[len(PredictionColumns):] {
		c, ok := strings.CutPrefix(h, "score_")
		if !ok {
			return fmt.Errorf("results: %s: column %q is not a score column", PredictionsFile, h)
		}
		p.ScoreClasses = append(p.ScoreClasses, c)
	}
	return nil
}

func readCSV(b []byte) ([][]string, error) {
	cr := csv.NewReader(bytes.NewReader(b))
	cr.FieldsPerRecord = -1
	return cr.ReadAll()
}

// parseRowHead parses a record's leading columns (PredictionColumns).
func parseRowHead(header, f []string) (PredictionRow, error) {
	if len(f) != len(header) {
		return PredictionRow{}, fmt.Errorf("%d fields, header has %d", len(f), len(header))
	}
	r := PredictionRow{Key: f[0], YTrue: f[3], YPred: f[4]}
	var err error
	if r.ConfigIndex, err = strconv.Atoi(f[1]); err != nil {
		return r, fmt.Errorf("config_index: %v", err)
	}
	if r.Row, err = strconv.Atoi(f[2]); err != nil || r.Row < 0 {
		return r, fmt.Errorf("row %q is not a row index", f[2])
	}
	if r.Key == "" || r.YTrue == "" {
		return r, fmt.Errorf("empty key or y_true")
	}
	return r, nil
}

// parseRowScores parses a record's score columns (nil: all empty).
func parseRowScores(header, f []string, slab *scoreSlab) (scores []float64, err error) {
	for j, s := range f[len(PredictionColumns):] {
		if s == "" {
			continue
		}
		if scores == nil {
			scores = slab.next()
			for k := range scores {
				scores[k] = math.NaN()
			}
		}
		if scores[j], err = parseScore(s); err != nil {
			return scores, fmt.Errorf("%s: %v", header[len(PredictionColumns)+j], err)
		}
	}
	return scores, nil
}
