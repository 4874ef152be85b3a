package artifacts

import (
	"bytes"
	"compress/gzip"
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
// artifacts, members of tens of MB whose buffers grow as they are
// decompressed) the collector runs near it instead of letting the garbage
// reach several times the data: there, a limit of the process's memory
// plus 80 times the input let a report's resident memory reach 1.5 GB
// with half of it garbage.
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
	k   int
	mem Member
	out *R
	buf *bytes.Buffer
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
func parseJobs[R any](jobs <-chan memberJob[R], free chan<- *bytes.Buffer, stop *firstFailure,
	parse func(k int, m Member, r *R), failed func(r *R) bool) {
	for j := range jobs {
		if int64(j.k) <= stop.n.Load() {
			parse(j.k, j.mem, j.out)
			if failed(j.out) {
				stop.lower(int64(j.k))
			}
		}
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
// sequential reader stops at its first error. At most about 2 × workers
// members' text is held at once, in buffers used over again: neither
// first nor parse may keep m.Data (or anything sharing its memory) after
// it returns.
func parseMembers[R any](data []byte, workers int, first func(k int, m Member, r *R) bool,
	parse func(k int, m Member, r *R), failed func(r *R) bool) (out []*R, torn bool, end int64, err error) {
	jobs := make(chan memberJob[R], workers)
	// The text buffers circulate: a study's members decompress to some
	// 250 MB, which allocated afresh would make the collector run again
	// and again over the rows already read.
	free := make(chan *bytes.Buffer, 2*workers+2)
	var stop firstFailure
	stop.n.Store(1<<62 - 1)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			parseJobs(jobs, free, &stop, parse, failed)
		}()
	}
	k := -1
	torn, err = eachMemberBuffered(data, free, func(m Member, buf *bytes.Buffer) {
		k++
		end = m.End
		r := new(R)
		out = append(out, r)
		if int64(k) > stop.n.Load() || (first != nil && !first(k, m, r)) {
			select {
			case free <- buf:
			default:
			}
			return
		}
		jobs <- memberJob[R]{k, m, r, buf}
	})
	close(jobs)
	wg.Wait()
	return out, torn, end, err
}

// eachMemberBuffered is EachMember decompressing each member into a
// buffer taken from free (a new one when none is free, or free is nil),
// which fn owns.
func eachMemberBuffered(data []byte, free chan *bytes.Buffer, fn func(m Member, buf *bytes.Buffer)) (torn bool, err error) {
	br := bytes.NewReader(data)
	var zr *gzip.Reader
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
		var buf *bytes.Buffer
		select {
		case buf = <-free:
			buf.Reset()
		default:
			buf = new(bytes.Buffer)
		}
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
