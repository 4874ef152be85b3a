package outdir

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"

	"github.com/fgrtbench/fgrtbench/internal/safefile"
	"github.com/fgrtbench/fgrtbench/results"
)

// AppendFile is what the runner needs of results.csv while units finish.
// *os.File satisfies it; tests inject one that fails like a full disk.
type AppendFile interface {
	Write(p []byte) (int, error)
	Sync() error
	Truncate(size int64) error
	Close() error
}

// OpenResultsFile opens results.csv for appending, never through a link
// and only when it is a regular file.
func OpenResultsFile(path string) (AppendFile, error) {
	return safefile.OpenAppend(path, 0o644)
}

// Appender grows results.csv by whole units only. Each unit's rows go out
// in one write followed by a sync; when either fails (a full disk, a quota,
// an I/O error) the file is cut back to its size before the write, so it
// never ends in a torn row. Should the cut fail too, what remains is a
// prefix of one unit that resume discards (an incomplete unit, or a final
// line without its newline).
type Appender struct {
	f    AppendFile
	path string
	size int64 // bytes of whole units (and the header) on disk
}

// OpenAppender opens path through open and writes the header to an empty
// file.
func OpenAppender(path string, open func(string) (AppendFile, error)) (*Appender, error) {
	f, err := open(path)
	if safefile.IsUnsafe(err) {
		return nil, err // a planted link or pipe: nothing to resume or free
	}
	if err != nil {
		return nil, &WriteError{Path: path, Err: err}
	}
	a := &Appender{f: f, path: path}
	if st, err := os.Stat(path); err == nil {
		a.size = st.Size()
	}
	if a.size == 0 {
		var b bytes.Buffer
		if err := results.Write(&b, nil); err != nil {
			f.Close()
			return nil, err
		}
		if err := a.write(b.Bytes()); err != nil {
			f.Close()
			return nil, err
		}
	}
	return a, nil
}

// AppendUnit writes the rows of one unit.
func (a *Appender) AppendUnit(rows []results.Record) error {
	var b bytes.Buffer
	if err := results.Write(&b, rows); err != nil {
		return err
	}
	data := b.Bytes()
	return a.write(data[bytes.IndexByte(data, '\n')+1:]) // without the header Write adds
}

func (a *Appender) write(data []byte) error {
	n, err := a.f.Write(data)
	if err == nil && n < len(data) {
		err = fmt.Errorf("short write (%d of %d bytes)", n, len(data))
	}
	if err == nil {
		err = a.f.Sync()
	}
	if err != nil {
		if pe, ok := err.(*os.PathError); ok && pe.Path == a.path {
			err = pe.Err // WriteError names the path
		}
		if terr := a.f.Truncate(a.size); terr != nil {
			err = fmt.Errorf("%w (cutting back the partial unit failed too: %v; the next run drops it)", err, terr)
		}
		return &WriteError{Path: a.path, Err: err}
	}
	a.size += int64(len(data))
	return nil
}

// Close closes results.csv.
func (a *Appender) Close() error {
	if err := a.f.Close(); err != nil {
		return &WriteError{Path: a.path, Err: err}
	}
	return nil
}

// WriteError is a failure to write an output file (a full disk, a quota, an
// I/O error). The run stops at the first one, reports it once, and renders
// no report; results.csv then holds whole units only, and running the same
// command again resumes from them.
type WriteError struct {
	Path string
	Err  error
}

func (e *WriteError) Error() string {
	cause := e.Err
	if pe, ok := cause.(*os.PathError); ok && pe.Path == e.Path {
		cause = pe.Err // the path is said once
	}
	return fmt.Sprintf("cannot write %s: %v; the run stopped (finished units are kept whole): %s, then run the same command again to resume", e.Path, cause, writeAdvice(e.Err))
}

// writeAdvice says what to fix for a write error: space for a full disk or
// quota, permissions for a denied or read-only destination, otherwise the
// cause itself.
func writeAdvice(err error) string {
	switch {
	case errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT):
		return "free space (or raise the quota)"
	case errors.Is(err, syscall.EROFS):
		return "make the output's file system writable (it is read-only)"
	case errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.EPERM):
		return "fix the permissions of the output directory and its files"
	}
	return "fix that cause"
}

func (e *WriteError) Unwrap() error { return e.Err }

// IsWriteError reports whether err is (or wraps) a WriteError.
func IsWriteError(err error) bool {
	var we *WriteError
	return errors.As(err, &we)
}
