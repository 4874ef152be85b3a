// Package safefile opens the files fgrtbench writes and the files it reads
// from outside (specs, data, adapters' outputs, merge inputs, baselines) so
// that a planted link, a device, a named pipe or an endless file cannot make
// it write somewhere else, block or run out of memory.
//
// Writing: a file fgrtbench writes in place (the run lock, results.csv while
// units finish) is opened without following a symbolic link in its last
// component, and the open descriptor is checked to be a regular file, so a
// link, device, FIFO or directory planted where the file belongs is refused
// in one line instead of being written through. Files replaced whole go
// through internal/atomicfile, which never writes through a link either.
//
// Reading: a file is checked to be a regular file before it is opened (so a
// FIFO cannot block the open), opened non-blocking, checked again on the
// descriptor, and read with a size cap: at most cap+1 bytes are read and
// more than cap is refused. Links are followed when reading a file a user
// named (a data file may well be a link into a shared mirror) but not
// when reading a file another program left in a directory fgrtbench made
// (NoFollow).
package safefile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Caps for the files fgrtbench reads. They are far above what a legitimate
// file holds and far below what would exhaust memory.
const (
	KiB = 1 << 10
	MiB = 1 << 20
	GiB = 1 << 30

	// SpecCap bounds a study spec (YAML or JSON).
	SpecCap = 4 * MiB
	// DataCap bounds a data file (CSV, KEEL, ARFF).
	DataCap = 4 * GiB
	// ResultsCap bounds a results.csv, a baseline or a runtime CSV.
	ResultsCap = 2 * GiB
	// ManifestCap bounds a manifest.json.
	ManifestCap = 256 * MiB
	// SmallCap bounds a small record another program writes (an
	// adapter's result.json).
	SmallCap = 1 * MiB
)

// TooLarge is a file over its cap.
type TooLarge struct {
	Path string
	Cap  int64
}

func (e *TooLarge) Error() string {
	return fmt.Sprintf("%s is larger than %s, more than such a file can legitimately hold; refusing to read it", e.Path, human(e.Cap))
}

// NotRegular is a path that is not a regular file where one is expected.
type NotRegular struct {
	Path string
	Kind string // "a symbolic link to T", "a directory", "a device", "a named pipe", ...
	Verb string // "read" or "write"
}

func (e *NotRegular) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file; refusing to %s it", e.Path, e.Kind, e.Verb)
}

// IsUnsafe reports whether err is a refusal of this package (a link,
// device, pipe or directory where a regular file belongs, or a file over
// its cap).
func IsUnsafe(err error) bool {
	var nr *NotRegular
	var tl *TooLarge
	return errors.As(err, &nr) || errors.As(err, &tl)
}

// kind names what a non-regular mode is, for messages.
func kind(path string, m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		if t, err := os.Readlink(path); err == nil {
			return "a symbolic link to " + t
		}
		return "a symbolic link"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeCharDevice != 0, m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "not a regular file"
}

// CheckRegular refuses a path that exists and is not a regular file; a
// symbolic link is refused, not followed. A missing path is no error.
func CheckRegular(path, verb string) error {
	st, err := os.Lstat(path)
	if err != nil || st.Mode().IsRegular() {
		return nil
	}
	return &NotRegular{Path: path, Kind: kind(path, st.Mode()), Verb: verb}
}

// OpenAppend opens path for appending, creating it (mode perm) when
// missing, without following a link and only when it is a regular file.
func OpenAppend(path string, perm fs.FileMode) (*os.File, error) {
	return OpenWrite(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, perm)
}

// OpenWrite opens path for writing with flag (os.O_* flags; O_NOFOLLOW is
// added), then checks on the open descriptor that it is a regular file.
// O_TRUNC is applied only after that check, so a refused file is never cut.
func OpenWrite(path string, flag int, perm fs.FileMode) (*os.File, error) {
	if err := CheckRegular(path, "write"); err != nil {
		return nil, err
	}
	trunc := flag&os.O_TRUNC != 0
	f, err := openNoFollow(path, flag&^os.O_TRUNC|nonblock, perm)
	if err != nil {
		if isLoop(err) {
			return nil, &NotRegular{Path: path, Kind: "a symbolic link", Verb: "write"}
		}
		return nil, err
	}
	if err := regularFile(f, path, "write"); err != nil {
		f.Close()
		return nil, err
	}
	if err := clearNonblock(f); err != nil {
		f.Close()
		return nil, err
	}
	if trunc {
		if err := f.Truncate(0); err != nil {
			f.Close()
			return nil, err
		}
	}
	return f, nil
}

// CreateExclusive creates path, which must not exist (not even as a
// dangling link), for writing.
func CreateExclusive(path string, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|nofollow, perm)
}

// Open opens path for reading: it must be a regular file (after following
// links) of at most limit bytes. The check comes before the open and again
// on the descriptor, and the open does not block, so a named pipe is refused
// rather than waited on.
func Open(path string, limit int64) (*os.File, error) {
	return open(path, limit, false)
}

// OpenNoFollow is Open for a file another program left in a directory
// fgrtbench made: a symbolic link is refused, not followed.
func OpenNoFollow(path string, limit int64) (*os.File, error) {
	return open(path, limit, true)
}

func open(path string, limit int64, noFollow bool) (*os.File, error) {
	stat := os.Stat
	if noFollow {
		stat = os.Lstat
	}
	st, err := stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &NotRegular{Path: path, Kind: kind(path, st.Mode()), Verb: "read"}
	}
	flag := os.O_RDONLY | nonblock
	if noFollow {
		flag |= nofollow
	}
	f, err := os.OpenFile(path, flag, 0)
	if err != nil {
		if noFollow && isLoop(err) {
			return nil, &NotRegular{Path: path, Kind: "a symbolic link", Verb: "read"}
		}
		return nil, err
	}
	if err := regularFile(f, path, "read"); err != nil {
		f.Close()
		return nil, err
	}
	if err := clearNonblock(f); err != nil {
		f.Close()
		return nil, err
	}
	if fst, err := f.Stat(); err == nil && limit > 0 && fst.Size() > limit {
		f.Close()
		return nil, &TooLarge{Path: path, Cap: limit}
	}
	return f, nil
}

// ReadFile reads a whole regular file of at most limit bytes (see Open).
func ReadFile(path string, limit int64) ([]byte, error) {
	return readFile(path, limit, false)
}

// ReadFileNoFollow is ReadFile refusing a symbolic link (see OpenNoFollow).
func ReadFileNoFollow(path string, limit int64) ([]byte, error) {
	return readFile(path, limit, true)
}

func readFile(path string, limit int64, noFollow bool) ([]byte, error) {
	f, err := open(path, limit, noFollow)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The buffer is sized once from the file's size (within the cap): read
	// into a growing buffer, a study's artifacts (tens of MB) left as
	// much again in the smaller buffers it went through.
	var size int64
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		size = min(max(st.Size(), 0), limit)
	}
	return readAll(f, path, limit, size)
}

// ReadAll reads r to its end, at most limit bytes: it reads limit+1 and
// refuses the file when that many arrive (a file that grew while read).
func ReadAll(r io.Reader, path string, limit int64) ([]byte, error) {
	return readAll(r, path, limit, 0)
}

// readAll is ReadAll into a buffer with room for size bytes (and the read
// that finds the end), grown only when more arrive.
func readAll(r io.Reader, path string, limit, size int64) ([]byte, error) {
	buf := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
	_, err := buf.ReadFrom(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	data := buf.Bytes()
	if int64(len(data)) > limit {
		return nil, &TooLarge{Path: path, Cap: limit}
	}
	return data, nil
}

// regularFile checks the open descriptor.
func regularFile(f *os.File, path, verb string) error {
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return &NotRegular{Path: path, Kind: kind(path, st.Mode()), Verb: verb}
	}
	return nil
}

func human(n int64) string {
	switch {
	case n >= GiB && n%GiB == 0:
		return fmt.Sprintf("%d GiB", n/GiB)
	case n >= MiB && n%MiB == 0:
		return fmt.Sprintf("%d MiB", n/MiB)
	case n >= KiB && n%KiB == 0:
		return fmt.Sprintf("%d KiB", n/KiB)
	}
	return fmt.Sprintf("%d bytes", n)
}
