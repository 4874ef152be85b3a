//go:build unix

package owned

import (
	"os"
	"syscall"
)

// lockDir waits for an exclusive flock on the directory itself (no lock
// file appears among the user's files) and returns its release. Where the
// file system has no locks (some network mounts), the update goes on
// unlocked: the re-read before the rename still narrows the window.
func lockDir(dir string) func() {
	fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
	if err != nil {
		return func() {}
	}
	f := os.NewFile(uintptr(fd), dir)
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	return func() { f.Close() }
}
