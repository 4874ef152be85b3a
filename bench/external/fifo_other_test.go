//go:build !unix

package external

import "errors"

func mkfifo(string) error { return errors.New("not on this platform") }
