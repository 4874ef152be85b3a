//go:build unix

package external

import (
	"errors"
	"os"
	"syscall"
)

// openRegular opens a file for reading without following a final symbolic
// link and without blocking on a named pipe (O_NONBLOCK), then refuses
// anything that is not a regular file: the check and the read are of the
// same file, whatever the adapter does meanwhile.
func openRegular(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if errors.Is(err, syscall.ELOOP) {
		return nil, errNotRegular{notRegular(os.ModeSymlink)}
	}
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, errNotRegular{notRegular(st.Mode())}
	}
	return f, nil
}
