//go:build !unix

package safefile

import (
	"io/fs"
	"os"
)

// Without O_NOFOLLOW the lstat check before the open (CheckRegular) and the
// check of the open descriptor stand alone.
const (
	nofollow = 0
	nonblock = 0
)

func openNoFollow(path string, flag int, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(path, flag, perm)
}

func isLoop(error) bool { return false }

func clearNonblock(*os.File) error { return nil }
