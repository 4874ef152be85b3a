//go:build unix

package safefile

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

const (
	nofollow = syscall.O_NOFOLLOW
	nonblock = syscall.O_NONBLOCK
)

func openNoFollow(path string, flag int, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(path, flag|nofollow, perm)
}

// isLoop reports the error O_NOFOLLOW gives for a link (ELOOP).
func isLoop(err error) bool { return errors.Is(err, syscall.ELOOP) }

// clearNonblock makes reads and writes of a checked regular file block as
// usual again (O_NONBLOCK served only to keep the open of a pipe from
// waiting).
func clearNonblock(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = syscall.SetNonblock(int(fd), false) }); err != nil {
		return err
	}
	return serr
}
