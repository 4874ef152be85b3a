// Package atomicfile writes files so that a reader, or a run killed at any
// moment, never sees a half-written one: data goes to a synced temporary
// file in the destination's directory, which is then renamed over the
// destination.
package atomicfile

import (
	"bufio"
	"errors"
	"io"
	"os"
	"path/filepath"
)

// Write creates path with the content fn writes, atomically, mode 0644.
// On any error the destination is untouched and no temporary file remains.
func Write(path string, fn func(w io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	bw := bufio.NewWriter(tmp)
	err = errors.Join(
		fn(bw),
		bw.Flush(),
		tmp.Chmod(0o644), // CreateTemp makes files 0600; outputs are meant to be shared
		tmp.Sync(),
		tmp.Close(),
	)
	if err == nil {
		err = os.Rename(name, path)
	}
	if err != nil {
		os.Remove(name)
		return err
	}
	return nil
}

// WriteFile writes data to path atomically, mode 0644.
func WriteFile(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
