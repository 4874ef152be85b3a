//go:build unix

package outdir

import (
	"errors"
	"os"
	"syscall"
)

// tryLock takes an exclusive flock on f without waiting: false when
// another process holds it, an error when the file system has no locks.
func tryLock(f *os.File) (bool, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}

// heldElsewhere reports whether another process holds the lock of the
// lock file at path (false when there is no such file), with what the
// holder wrote into it. It takes no lock and creates nothing.
func heldElsewhere(path string) (held bool, note string) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return false, ""
	}
	f := os.NewFile(uintptr(fd), path)
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return false, ""
	}
	err = syscall.Flock(fd, syscall.LOCK_SH|syscall.LOCK_NB)
	if !errors.Is(err, syscall.EWOULDBLOCK) {
		return false, "" // free (the shared lock goes with the close), or no locks here
	}
	b := make([]byte, 200)
	n, _ := f.Read(b)
	return true, string(b[:n])
}
