package datasets

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
	"unicode"
	"unsafe"

	"github.com/fgrtbench/fgrtbench/internal/safefile"
)

// LoadOptions configure LoadFile.
type LoadOptions struct {
	CSV CSVOptions
	// Progress, when set, is called after every block read with the bytes
	// read so far and the file's size (large files take seconds to read).
	Progress func(read, size int64)
	// Context, when set, stops the reading at the next block once it is
	// done (a first Ctrl-C or SIGTERM while a large file is read): the
	// load returns its error.
	Context context.Context
}

// stopped is the context's error once it is done (nil without a context).
func (o LoadOptions) stopped() error {
	if o.Context == nil {
		return nil
	}
	return o.Context.Err()
}

// LoadFile reads the data file at path as ReadFileWith does and sets the
// Dataset's Checksum to the file's NormalizedSHA256, in one pass over the
// file: the bytes parsed are the bytes hashed, and the file is never held
// in memory whole.
//
// A CSV file of numeric inputs is parsed by a streaming tokenizer that
// converts each cell where it lies in the read buffer (no string per
// cell) while another goroutine hashes the same blocks. Any file the
// tokenizer does not handle itself (quoted fields, text or declared
// nominal columns, rows of the wrong width, anything ReadCSVWith would
// refuse) is read again from the start by ReadCSVWith, so the Dataset and
// every error message are ReadCSVWith's.
func LoadFile(path string, o LoadOptions) (*Dataset, error) {
	if err := checkFormat(path, o.CSV); err != nil {
		return nil, err
	}
	f, err := safefile.Open(path, safefile.DataCap)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := int64(-1)
	if st, err := f.Stat(); err == nil {
		size = st.Size()
	}
	if strings.ToLower(filepath.Ext(path)) == ".csv" && len(o.CSV.Nominal) == 0 {
		d, err := readNumericCSV(f, path, size, o)
		if err != nil || d != nil {
			return d, err
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
	}
	h := newNormalizedHash()
	src := io.TeeReader(&progressReader{r: f, size: size, report: o.Progress, stopped: o.stopped}, h)
	d, err := readFormat(src, path, o.CSV)
	// A stop cuts the file short: whatever the reader made of its last,
	// partial line, the context's error is the one to report.
	if stop := o.stopped(); stop != nil {
		return nil, stop
	}
	if err != nil {
		return nil, err
	}
	// Hash what the reader did not need to read (nothing, for the three
	// readers, which read to the end; the checksum covers the whole file).
	if _, err := io.Copy(io.Discard, src); err != nil {
		return nil, err
	}
	d.Checksum = h.Sum()
	return d, nil
}

// progressReader reports the bytes read so far, and stops with the
// context's error once stopped returns one.
type progressReader struct {
	r       io.Reader
	read    int64
	size    int64
	report  func(read, size int64)
	stopped func() error
}

func (p *progressReader) Read(b []byte) (int, error) {
	if err := p.stopped(); err != nil {
		return 0, err
	}
	n, err := p.r.Read(b)
	p.read += int64(n)
	if p.report != nil && n > 0 {
		p.report(p.read, p.size)
	}
	return n, err
}

// loadBlock is the read size of the streaming CSV tokenizer.
const loadBlock = 4 << 20

// rowBlock is the number of rows whose values share one allocation: rows
// are appended without knowing the row count, and blocks avoid both a
// string per cell and the copy that growing one matrix would make.
const rowBlock = 8192

// readNumericCSV is the streaming fast path of LoadFile for CSV files. It
// returns (nil, nil) when the file needs ReadCSVWith (see LoadFile), and
// an error only when the file cannot be read.
func readNumericCSV(f io.Reader, path string, size int64, o LoadOptions) (*Dataset, error) {
	h := newNormalizedHash()
	bh := newBlockHasher(h)
	p := &numericCSV{path: path, o: o.CSV}
	var carry []byte // an incomplete last line of the previous block
	var read int64
	for {
		if err := o.stopped(); err != nil {
			bh.stop()
			return nil, err
		}
		buf := <-bh.free
		n, err := io.ReadFull(f, buf)
		read += int64(n)
		if n > 0 {
			bh.toHash <- buf[:n]
		} else {
			bh.free <- buf
		}
		if o.Progress != nil && n > 0 {
			o.Progress(read, size)
		}
		var ok bool
		if carry, ok = p.lines(carry, buf[:n]); !ok {
			bh.stop()
			return nil, nil
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			bh.stop()
			return nil, err
		}
	}
	bh.stop()
	if len(carry) > 0 && !p.line(carry) {
		return nil, nil
	}
	d := p.dataset()
	if d != nil {
		d.Checksum = h.Sum()
	}
	return d, nil
}

// blockHasher hashes blocks in a goroutine of its own while the tokenizer
// reads the next: blocks go to it after the tokenizer has taken them, and
// come back to free once hashed; the tokenizer only takes a free block
// after it is done with the previous one.
type blockHasher struct {
	free, toHash chan []byte
	hashed       chan struct{}
}

func newBlockHasher(h *normalizedHash) *blockHasher {
	bh := &blockHasher{free: make(chan []byte, 3), hashed: make(chan struct{})}
	for i := 0; i < cap(bh.free); i++ {
		bh.free <- make([]byte, loadBlock)
	}
	bh.toHash = make(chan []byte, cap(bh.free))
	go func() {
		defer close(bh.hashed)
		for b := range bh.toHash {
			h.Write(b)
			bh.free <- b[:cap(b)]
		}
	}()
	return bh
}

// stop waits until every block sent is hashed.
func (bh *blockHasher) stop() { close(bh.toHash); <-bh.hashed }

// lines tokenizes the complete lines of chunk, the first completing carry
// (an incomplete line of the previous block), and returns the new carry;
// ok is false once a line is refused.
func (p *numericCSV) lines(carry, chunk []byte) (next []byte, ok bool) {
	ok = true
	if len(carry) > 0 {
		nl := bytes.IndexByte(chunk, '\n')
		if nl < 0 {
			return append(carry, chunk...), true
		}
		carry = append(carry, chunk[:nl+1]...)
		ok = p.line(carry)
		carry = carry[:0]
		chunk = chunk[nl+1:]
	}
	for ok && len(chunk) > 0 {
		nl := bytes.IndexByte(chunk, '\n')
		if nl < 0 {
			carry = append(carry, chunk...)
			break
		}
		ok = p.line(chunk[:nl+1])
		chunk = chunk[nl+1:]
	}
	return carry, ok
}

// numericCSV is the state of the streaming tokenizer: the header, then the
// values of every row, the class labels in order of first appearance and,
// per input column, whether every cell so far was an integer literal.
type numericCSV struct {
	path    string
	o       CSVOptions
	attrs   []Attribute // header columns
	classK  int
	header  bool
	nIn     int
	labels  map[string]int32
	order   []string
	y       []int32 // first-appearance label of each row
	X       [][]float64
	block   []float64
	numbers []int
	notInt  []bool
	// line counts the lines taken so far; first is the first missing
	// input cell (Dataset.FirstMissing).
	lineNo int
	first  Cell
}

// line takes one line with its terminator; false means the file needs
// ReadCSVWith.
func (p *numericCSV) line(b []byte) bool {
	p.lineNo++
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
		if n := len(b); n > 0 && b[n-1] == '\r' {
			b = b[:n-1]
		}
	}
	// Quotes start quoted fields or are errors, and a CR inside a line is
	// data to encoding/csv: both are ReadCSVWith's.
	if bytes.IndexByte(b, '"') >= 0 || bytes.IndexByte(b, '\r') >= 0 {
		return false
	}
	if !p.header {
		return p.readHeader(b)
	}
	if len(b) == 0 { // encoding/csv skips empty lines
		return true
	}
	if len(p.block) == 0 {
		p.block = make([]float64, rowBlock*p.nIn)
	}
	row := p.block[:p.nIn:p.nIn]
	j := 0
	for k := 0; k < len(p.attrs); k++ {
		var cell string
		var ok bool
		if cell, b, ok = nextField(b, k == len(p.attrs)-1); !ok {
			return false // another number of fields than the header
		}
		if k == p.classK {
			if !p.label(cell) {
				return false
			}
			continue
		}
		if !p.value(row, j, k, cell) {
			return false
		}
		j++
	}
	p.X = append(p.X, row)
	p.block = p.block[p.nIn:]
	return true
}

// nextField splits the next comma-separated field off b, trimmed; the
// cell points into b's memory (the caller clones what it keeps). ok is
// false when the last field has a comma after it or another lacks one.
func nextField(b []byte, last bool) (cell string, rest []byte, ok bool) {
	end := bytes.IndexByte(b, ',')
	if (end < 0) != last {
		return "", b, false
	}
	if end < 0 {
		return strings.TrimSpace(unsafe.String(unsafe.SliceData(b), len(b))), b[len(b):], true
	}
	return strings.TrimSpace(unsafe.String(unsafe.SliceData(b), end)), b[end+1:], true
}

// label records a row's class label, numbering labels in order of first
// appearance; a missing label is refused.
func (p *numericCSV) label(cell string) bool {
	if isCSVMissing(cell) {
		return false
	}
	id, ok := p.labels[cell]
	if !ok {
		id = int32(len(p.order))
		cell = strings.Clone(cell) // cell points into the read buffer
		p.labels[cell] = id
		p.order = append(p.order, cell)
	}
	p.y = append(p.y, id)
	return true
}

// value stores cell, the k-th field and j-th input, into row: NaN for a
// missing value (the first one noted), else a number; text or an infinity
// is refused (a nominal column or an error, for ReadCSVWith to say).
func (p *numericCSV) value(row []float64, j, k int, cell string) bool {
	if isCSVMissing(cell) {
		row[j] = math.NaN()
		if p.first.Line == 0 {
			p.first = Cell{Line: p.lineNo, Column: k + 1, Name: p.attrs[k].Name}
		}
		return true
	}
	isNum, isInt := numberLiteral(cell)
	if !isNum {
		return false
	}
	v, err := parseNumber(cell)
	if err != nil {
		return false
	}
	row[j] = v
	p.numbers[j]++
	if !isInt {
		p.notInt[j] = true
	}
	return true
}

func (p *numericCSV) readHeader(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	fields := strings.Split(string(b), ",")
	if len(fields) < 2 {
		return false
	}
	for k := range fields {
		fields[k] = strings.TrimLeftFunc(fields[k], unicode.IsSpace)
	}
	fail := func(int, string, ...any) error { return fmt.Errorf("refused") }
	attrs, declared, classK, err := csvHeader(fields, p.o, fail)
	if err != nil {
		return false
	}
	for _, d := range declared {
		if d {
			return false
		}
	}
	p.attrs, p.classK, p.header = attrs, classK, true
	p.nIn = len(attrs) - 1
	p.labels = map[string]int32{}
	p.numbers = make([]int, p.nIn)
	p.notInt = make([]bool, p.nIn)
	return true
}

// dataset builds the Dataset ReadCSVWith builds from the same file, or nil
// when there is no data row (ReadCSVWith's error).
func (p *numericCSV) dataset() *Dataset {
	if !p.header || len(p.X) == 0 {
		return nil
	}
	d := &Dataset{Name: nameFromPath(p.path), Path: p.path, X: p.X, Inputs: make([]Attribute, 0, p.nIn), FirstMissing: p.first}
	j := 0
	for k, a := range p.attrs {
		if k == p.classK {
			continue
		}
		a.Type = "real"
		if p.numbers[j] > 0 && !p.notInt[j] {
			a.Type = "integer"
		}
		a.Min, a.Max = newNaNRange()
		a.IntegerLiterals = !p.notInt[j]
		d.Inputs = append(d.Inputs, a)
		j++
	}
	labels := labelSet{order: p.order}
	classes := labels.csvClasses()
	index := make(map[string]int, len(classes))
	for i, c := range classes {
		index[c] = i
	}
	remap := make([]int, len(p.order))
	for i, l := range p.order {
		remap[i] = index[l]
	}
	d.Y = make([]int, len(p.y))
	for i, id := range p.y {
		d.Y[i] = remap[id]
	}
	d.Output = Attribute{Name: p.attrs[p.classK].Name, Type: "nominal", Domain: append([]string(nil), classes...), IntegerLiterals: allIntegerLiterals(classes)}
	d.Output.Min, d.Output.Max = newNaNRange()
	d.Classes = classes
	canonicalNumericClasses(d)
	return d
}
