package artifacts

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"io"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// The artifact readers decompress a file's gzip members in order (their
// boundaries are only known once the one before is decoded) and parse
// them on a few workers: a full reproduction's artifacts are about
// 250 MB of text in some 1,400 members per file, and parsing, not
// decompressing, is most of the time. Results are joined in file order,
// so what a reader returns, and which error it reports first, do not
// depend on the number of workers or on their timing.

// The readers build a study's rows (88 bytes each, millions of them) in
// one buffer taken at the start. A collection while they run
// finds little garbage (the members' text is held in buffers used over
// again) but scans that buffer before the rows are written into it, which
// maps its pages to the zero page: every first write is then a
// copy-on-write fault that flushes the other cores' TLBs. On a full
// reproduction that doubled the readers' time (1.1 s of 2.3 s of CPU in
// the kernel). So the collector is off while they run, unless the user
// chose GOGC; a memory limit (if the user set none) makes it collect
// anyway beyond what the readers could keep, should a file of user-made
// members (read by encoding/csv and encoding/json, which make garbage)
// grow the heap further.
var gcPause struct {
	sync.Mutex
	n            int
	percent      int
	limit, valve int64
}

// pauseGC turns the collector off for a reader of input compressed
// bytes and returns the function that restores it (readers may nest and
// overlap: the last one restores).
func pauseGC(input int) (resume func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	gcPause.Lock()
	defer gcPause.Unlock()
	if gcPause.n == 0 {
		// Collect first, so that what the pause keeps is live memory only:
		// garbage left before it (an earlier reader's, or a study's run in
		// the same process) would otherwise stay through the read, and the
		// limit below, which counts the heap, would let it.
		runtime.GC()
		gcPause.percent = debug.SetGCPercent(-1)
		gcPause.limit = debug.SetMemoryLimit(-1)
		gcPause.valve = -1
		if gcPause.limit == math.MaxInt64 {
			gcPause.valve = pauseLimit(input)
			debug.SetMemoryLimit(gcPause.valve)
		}
	}
	gcPause.n++
	return func() {
		gcPause.Lock()
		defer gcPause.Unlock()
		if gcPause.n--; gcPause.n == 0 {
			debug.SetGCPercent(gcPause.percent)
			if gcPause.valve >= 0 {
				debug.SetMemoryLimit(gcPause.limit)
			}
		}
	}
}

// pauseLimit is the memory limit while the collector is paused: the live
// heap, what the artifacts of input compressed bytes hold once read (a
// full reproduction's rows, scores and rules take 8 to 11 times their
// compressed size, a large-data study's deep trees' rules a little more),
// and room for the members being decompressed. A reproduction's report
// stays under it and never collects; on large data (tens of MB of
// artifacts, members of tens of MB) the collector runs near it instead of letting the garbage
// reach several times the data: there, a limit of the process's memory
// plus 80 times the input let a report's resident memory reach 1.5 GB
// with half of it garbage. (The members' buffers are now sized once and
// few at a time, textInFlight; the 10^6 study's read still reaches this
// limit once, and 12 times the input made it collect again and again.)
func pauseLimit(input int) int64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc) + 64<<20 + 16*int64(input)
}

// readWorkers bounds the workers parsing one file's members (a reader
// reads two files at once).
func readWorkers() int {
	return max(1, min(runtime.GOMAXPROCS(0), 8))
}

// memberJob is one member handed to a worker, the slot its result goes
// to, and the buffer holding its text (back to the free list once
// parsed).
type memberJob[R any] struct {
	k       int
	mem     Member
	out     *R
	buf     *bytes.Buffer
	counted int // the bytes textGate counts for it
}

// firstFailure is the lowest member index whose parse failed (+∞ while
// none): a worker skips members beyond it, which cannot be reported.
type firstFailure struct{ n atomic.Int64 }

// lower makes k the first failure if it comes before the current one.
func (f *firstFailure) lower(k int64) {
	for {
		s := f.n.Load()
		if k >= s || f.n.CompareAndSwap(s, k) {
			return
		}
	}
}

// parseJobs is one worker of parseMembers: it parses the jobs up to the
// first failure and hands each job's buffer back to free.
func parseJobs[R any](jobs <-chan memberJob[R], free chan<- *bytes.Buffer, held *textGate, stop *firstFailure,
	parse func(k int, m Member, r *R), failed func(r *R) bool) {
	for j := range jobs {
		if int64(j.k) <= stop.n.Load() {
			parse(j.k, j.mem, j.out)
			if failed(j.out) {
				stop.lower(int64(j.k))
			}
		}
		held.add(-j.counted)
		select {
		case free <- j.buf:
		default:
		}
	}
}

// parseMembers calls parse for every whole member of data, the members
// decompressed one after the other (EachMember) and parsed by up to
// workers goroutines into its result slot, and returns the slots in
// member order with the torn flag and the end of the last whole member
// (or an *InflatedError, the members parsed so far to be dropped).
// first (optional) is called on the decompressing goroutine with each
// member and its slot before the member is handed out (it may fill in
// what parse needs); it returns false to have the member not parsed, as
// for the header member the caller reads itself. failed reports
// whether a result is an error: members after the first failed
// one in file order are then not parsed (their results stay zero), as a
// sequential reader stops at its first error. The text held at once is
// bounded (textInFlight), in buffers used over again: neither first nor
// parse may keep m.Data (or anything sharing its memory) after it
// returns.
func parseMembers[R any](data []byte, workers int, first func(k int, m Member, r *R) bool,
	parse func(k int, m Member, r *R), failed func(r *R) bool) (out []*R, torn bool, end int64, err error) {
	jobs := make(chan memberJob[R], workers)
	// The text buffers circulate: a study's members decompress to some
	// 250 MB, which allocated afresh would make the collector run again
	// and again over the rows already read.
	free := make(chan *bytes.Buffer, 2*workers+2)
	held := newTextGate(textInFlight)
	var stop firstFailure
	stop.n.Store(1<<62 - 1)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			parseJobs(jobs, free, held, &stop, parse, failed)
		}()
	}
	counted := 0 // the bytes counted for the member being decompressed
	take := func(hint int) *bytes.Buffer {
		held.enter(hint)
		counted = hint
		var buf *bytes.Buffer
		select {
		case buf = <-free:
			buf.Reset()
		default:
		}
		if buf == nil || buf.Cap() < hint+bytes.MinRead {
			// Sized once: growing by doubling left up to half of a
			// large member's buffer unused, and the smaller buffers it
			// went through as garbage the paused collector kept. The
			// sixteenth more lets the next member of about the same size
			// (the units of one method) use it again.
			buf = bytes.NewBuffer(make([]byte, 0, hint+hint/16+bytes.MinRead))
		}
		return buf
	}
	k := -1
	torn, err = eachMemberBuffered(data, take, func(m Member, buf *bytes.Buffer) {
		k++
		end = m.End
		r := new(R)
		out = append(out, r)
		held.add(len(m.Data) - counted)
		counted = len(m.Data)
		if int64(k) > stop.n.Load() || (first != nil && !first(k, m, r)) {
			held.add(-counted)
			select {
			case free <- buf:
			default:
			}
			return
		}
		jobs <- memberJob[R]{k, m, r, buf, counted}
	})
	close(jobs)
	wg.Wait()
	return out, torn, end, err
}

// textInFlight bounds the decompressed text parseMembers holds at once
// (members waiting for a worker, being parsed, and the one being
// decompressed), beyond one member: a study on 10^6 rows writes members
// of 85 MB of deep trees' rules and of 18 MB of predictions, and up to
// five of each in flight, each in a buffer grown by doubling, were a
// third of its report's peak memory. At 32 MB such members are parsed
// one at a time per file (the two files are read at once); a
// reproduction's members (tens to hundreds of KB) never reach it.
var textInFlight = 32 << 20 // a variable for the tests

// textGate counts the bytes of text handed out and not yet parsed, and
// holds the decompressing goroutine back while the next member would take
// them past the bound (one member is always let through, however large).
type textGate struct {
	mu    sync.Mutex
	freed *sync.Cond
	bound int
	held  int
}

func newTextGate(bound int) *textGate {
	g := &textGate{bound: bound}
	g.freed = sync.NewCond(&g.mu)
	return g
}

// enter waits until a member of about size bytes may be decompressed,
// and counts it.
func (g *textGate) enter(size int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for g.held > 0 && g.held+size > g.bound {
		g.freed.Wait()
	}
	g.held += size
}

// add counts delta more bytes (a member that decompressed to more or
// fewer than was expected when it entered), or fewer once parsed.
func (g *textGate) add(delta int) {
	g.mu.Lock()
	g.held += delta
	g.mu.Unlock()
	if delta < 0 {
		g.freed.Broadcast()
	}
}

// eachMemberBuffered is EachMember decompressing each member into the
// buffer take returns (it may wait) for a member expected to decompress
// to hint bytes, which fn owns.
func eachMemberBuffered(data []byte, take func(hint int) *bytes.Buffer, fn func(m Member, buf *bytes.Buffer)) (torn bool, err error) {
	br := bytes.NewReader(data)
	var zr *gzip.Reader
	var sizes memberSizes
	limit := int64(maxInflation)*int64(len(data)) + inflationSlack
	budget := limit
	for br.Len() > 0 {
		start := int64(len(data) - br.Len())
		var err error
		if zr == nil {
			zr, err = gzip.NewReader(br)
		} else {
			err = zr.Reset(br)
		}
		if err != nil {
			return true, nil
		}
		zr.Multistream(false)
		buf := take(int(min(sizes.hint(data, int(start)), budget)))
		n, err := buf.ReadFrom(io.LimitReader(zr, budget+1))
		if n > budget {
			return false, &InflatedError{Start: start, Limit: limit}
		}
		if err != nil {
			return true, nil
		}
		budget -= n
		// bytes.Reader is an io.ByteReader, so gzip read no further than
		// the member's trailer: the position is the member's end.
		fn(Member{Start: start, End: int64(len(data) - br.Len()), Data: buf.Bytes()}, buf)
	}
	return false, nil
}

// memberSizes guesses the decompressed size of a member before it is
// decompressed, so that its buffer is allocated once: gzip's trailer
// ends a member with its size (mod 2^32), and a member ends where the
// next begins, which in the files fgrtbench writes starts with the same
// ten header bytes (no name, no time). A guess is only a capacity: a
// wrong one (a file written by another tool, a coincidence inside
// compressed bytes, a torn tail) costs a buffer grown or too large, never
// a wrong result, and it is bounded by deflate's largest ratio and by the
// caller's decompression budget.
type memberSizes struct {
	// missFrom is where a search for missHeader found nothing: a file
	// whose members' headers differ is not searched to its end for each.
	missHeader []byte
	missFrom   int
}

// maxDeflateRatio is the most a deflate stream can expand (258 bytes
// from a quarter of a byte and a bit).
const maxDeflateRatio = 1032

// hint returns the guessed size of the member at start (0: no guess).
func (s *memberSizes) hint(data []byte, start int) int64 {
	const headerLen, trailerLen = 10, 8
	if len(data)-start < headerLen+trailerLen {
		return 0
	}
	header := data[start : start+headerLen]
	end := len(data)
	if !(start >= s.missFrom && bytes.Equal(header, s.missHeader)) {
		if i := bytes.Index(data[start+headerLen:], header); i >= 0 {
			end = start + headerLen + i
		} else {
			s.missHeader, s.missFrom = header, start
		}
	}
	if end-start < headerLen+trailerLen {
		return 0
	}
	size := int64(binary.LittleEndian.Uint32(data[end-4 : end]))
	return min(size, maxDeflateRatio*int64(end-start))
}
