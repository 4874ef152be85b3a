package artifacts

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
)

// The artifact files (predictions.csv.gz, models.jsonl.gz) are sequences
// of gzip members, one per work unit (plus a header member heading the
// predictions). A gzip reader (Python's gzip, pandas, zcat) reads the
// concatenation as one stream, and an append is one write of whole
// members, so a crash can only leave a torn last member, which
// WholeMembers finds and Open and RetainUnits remove.

// compressionLevel trades size for time. Compression is most of what the
// artifacts cost a run (BenchmarkUnitEncoder); on a full reproduction
// (both protocols, every method, ten datasets) level 1 writes 24 MB where
// level 3 wrote 20.6 MB and the default level (6) 16.1 MB, in well under
// half level 3's compression time.
const compressionLevel = 1

// gzipMember compresses b into one gzip member. The header carries no
// name and no time, so equal contents give equal bytes.
func gzipMember(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, compressionLevel)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(b); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Member is one whole gzip member of an artifact file: where it starts and
// ends in the file, and its decompressed content.
type Member struct {
	Start, End int64
	Data       []byte
}

// Decompressing is bounded: a file's members may decompress to at most
// maxInflation times the file's size, plus inflationSlack, in all. The
// files fgrtbench writes (gzip level 1) decompress to about 10 times their
// size and files compressed harder by other tools to a few times more; a
// gzip bomb (a few MB that decompress to tens of GB) in a directory from
// elsewhere is refused instead of taking the machine's memory.
const (
	maxInflation   = 100
	inflationSlack = 64 << 20
)

// InflatedError is the refusal of a file whose members decompress beyond
// the bound.
type InflatedError struct {
	// Start is the offset of the member that crossed the bound.
	Start int64
	// Limit is the bound, in bytes of decompressed text.
	Limit int64
}

func (e *InflatedError) Error() string {
	return fmt.Sprintf("the gzip member at byte %d takes the file past %d MiB of text (%d times its size and %d MiB): not artifacts fgrtbench wrote (a gzip bomb?)",
		e.Start, e.Limit>>20, maxInflation, inflationSlack>>20)
}

// WholeMembers splits data into its whole gzip members. It stops at the
// first member that does not decode to its end (a torn tail, or garbage):
// the members before it are returned with torn = true. Callers that must
// refuse damage in the middle of a file compare the last End with the
// file's size (a torn tail is only acceptable at the end of a file being
// resumed). A file that decompresses beyond the bound is an
// *InflatedError.
func WholeMembers(data []byte) (members []Member, torn bool, err error) {
	torn, err = EachMember(data, func(m Member) { members = append(members, m) })
	return members, torn, err
}

// EachMember calls fn with each whole gzip member of data in turn, as
// WholeMembers splits them, without holding more than one member's
// content at a time unless fn keeps it. It reports whether the data ends
// in a torn member (fn has then seen the whole members before it), or
// fails with an *InflatedError.
func EachMember(data []byte, fn func(m Member)) (torn bool, err error) {
	// Every member gets a buffer of its own, which fn may keep.
	fresh := func(hint int) *bytes.Buffer { return bytes.NewBuffer(make([]byte, 0, hint+bytes.MinRead)) }
	return eachMemberBuffered(data, fresh, func(m Member, _ *bytes.Buffer) { fn(m) })
}

// appendMember appends one member to f in one write; on a failed write it
// cuts the file back to its previous size, so the file holds whole members
// only.
func appendMember(f *os.File, member []byte) error {
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if _, err := f.WriteAt(member, st.Size()); err != nil {
		if terr := f.Truncate(st.Size()); terr != nil {
			return fmt.Errorf("%w (and cutting back failed: %v)", err, terr)
		}
		return err
	}
	return nil
}
