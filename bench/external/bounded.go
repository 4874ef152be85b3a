package external

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
)

// Caps on what the harness reads of an adapter's answers: its output
// files are read only when they are regular files (not a named pipe that
// would block the read, a device, or a symbolic link to either), and never
// beyond a size that a valid answer cannot exceed.
const (
	// maxResultBytes bounds result.json (its rules text included).
	maxResultBytes = 16 << 20
	// maxAnswerLine bounds one line of a worker's standard output.
	maxAnswerLine = 64 << 10
)

// readBounded reads a regular file of at most limit bytes; an absent file
// is fs.ErrNotExist, a larger one tooLarge with its first limit bytes. Errors name the file by its base name (the adapter's
// author knows which directory).
func readBounded(path string, limit int64) ([]byte, error) {
	f, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		// The first limit bytes come with the refusal: what they hold
		// can say why the file is too large (an unknown label, padding).
		return data[:limit], tooLarge{limit}
	}
	return data, nil
}

// tooLarge is a file beyond readBounded's limit.
type tooLarge struct{ limit int64 }

func (e tooLarge) Error() string { return fmt.Sprintf("is larger than %d bytes", e.limit) }

// fileError words a failed read of an output file on one line:
// "predictions.txt is a named pipe, not a regular file".
func fileError(name string, err error) error {
	var big tooLarge
	var odd errNotRegular
	if errors.As(err, &big) || errors.As(err, &odd) {
		return fmt.Errorf("external: %s %v", name, err)
	}
	return fmt.Errorf("external: %s: %v", name, err)
}

// notRegular describes a file that is not a regular one.
func notRegular(m fs.FileMode) error {
	kind := "not a regular file"
	switch {
	case m&fs.ModeNamedPipe != 0:
		kind = "a named pipe, not a regular file"
	case m&fs.ModeSymlink != 0:
		kind = "a symbolic link, not a regular file"
	case m.IsDir():
		kind = "a directory, not a regular file"
	case m&fs.ModeDevice != 0:
		kind = "a device, not a regular file"
	case m&fs.ModeSocket != 0:
		kind = "a socket, not a regular file"
	}
	return fmt.Errorf("is %s", kind)
}

// errNotRegular is returned by openRegular with notRegular's text.
type errNotRegular struct{ error }
