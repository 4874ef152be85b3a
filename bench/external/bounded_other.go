//go:build !unix

package external

import "os"

// openRegular opens a file for reading after checking, without following
// a symbolic link, that it is a regular file (no O_NOFOLLOW here: the
// check and the open are two steps).
func openRegular(path string) (*os.File, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, errNotRegular{notRegular(st.Mode())}
	}
	return os.Open(path)
}
