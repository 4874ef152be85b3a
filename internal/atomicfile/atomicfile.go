// Package atomicfile writes files so that a reader, or a run killed at any
// moment, never sees a half-written one: data goes to a synced temporary
// file in the destination's directory, which is then renamed over the
// destination.
package atomicfile

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// Write creates path with the content fn writes, atomically, mode 0644.
// On any error the destination is untouched and no temporary file remains.
// It replaces only a regular file: a device node, directory, pipe, socket
// or symbolic link at path is an error, checked before and again just
// before the rename, so that e.g. /dev/full is never replaced by a file
// even when running as root. A symbolic link is refused rather than
// replaced (the rename would silently turn the link into a file, leaving
// its target stale) or written through (outputs written beside path, such
// as a manifest, would then not sit beside the file they describe); the
// message names the link's target to write to instead. Symbolic links
// among path's directories are followed as usual.
func Write(path string, fn func(w io.Writer) error) error {
	if err := replaceable(path); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	bw := bufio.NewWriter(tmp)
	// Every step runs (the file must be closed), but only the first failure
	// is reported: the later ones are its echoes (a full disk fails the
	// write, then the flush, with the same message), and errors are one line.
	err = cmp.Or(
		fn(bw),
		bw.Flush(),
		tmp.Chmod(0o644), // CreateTemp makes files 0600; outputs are meant to be shared
		tmp.Sync(),
		tmp.Close(),
	)
	if err == nil {
		err = replaceable(path)
	}
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

// replaceable reports an existing path that is not a regular file.
func replaceable(path string) error {
	st, err := os.Lstat(path)
	if err != nil || st.Mode().IsRegular() {
		return nil
	}
	kind := "not a regular file"
	switch {
	case st.Mode()&os.ModeSymlink != 0:
		target, _ := os.Readlink(path)
		return fmt.Errorf("%s is a symbolic link to %s; refusing to replace the link or write through it (give the target's path, or a new path)", path, target)
	case st.IsDir():
		kind = "a directory"
	case st.Mode()&os.ModeDevice != 0:
		kind = "a device"
	case st.Mode()&os.ModeNamedPipe != 0:
		kind = "a named pipe"
	}
	return fmt.Errorf("%s is %s; refusing to replace it (write to a regular file or a new path)", path, kind)
}

// Create is Write for a path that must not exist: the temporary file is
// hard-linked to path, which fails when anything (a file, a link, a
// directory) appeared there meanwhile, so a file another program put in
// the way is never replaced. The error then wraps fs.ErrExist. On a file
// system without hard links the temporary file is renamed instead, after
// checking again that path is still absent.
func Create(path string, fn func(w io.Writer) error) error {
	if _, err := os.Lstat(path); err == nil {
		return &os.PathError{Op: "create", Path: path, Err: fs.ErrExist}
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	defer os.Remove(name) // after the link, only the temporary name goes
	bw := bufio.NewWriter(tmp)
	err = cmp.Or(fn(bw), bw.Flush(), tmp.Chmod(0o644), tmp.Sync(), tmp.Close())
	if err != nil {
		return err
	}
	err = os.Link(name, path)
	var le *os.LinkError
	if err != nil && errors.As(err, &le) && !errors.Is(err, fs.ErrExist) && (errors.Is(le.Err, syscall.EPERM) || errors.Is(le.Err, syscall.ENOTSUP) || errors.Is(le.Err, syscall.EXDEV)) {
		// No hard links here (some network and FUSE file systems).
		if _, lerr := os.Lstat(path); lerr == nil {
			return &os.PathError{Op: "create", Path: path, Err: fs.ErrExist}
		}
		return os.Rename(name, path)
	}
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return &os.PathError{Op: "create", Path: path, Err: fs.ErrExist}
		}
		return err
	}
	return nil
}
