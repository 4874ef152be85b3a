// Package owned is the one way fgrtbench puts files into a directory it
// shares with the user (--out of folds, plot, runtime; a report
// directory): it never replaces or removes a file it cannot prove it
// wrote.
//
// Every such directory holds a marker file listing, one name per line, the
// files fgrtbench wrote there. A name is written only when nothing is
// there (created exclusively: a file that appears meanwhile is not
// replaced) or when the marker lists it and it is a regular file. A file
// in the way that the marker does not list (a user's notes, a figure of
// their own) is refused in one line; so are a symbolic link, a directory,
// a device or a named pipe where a file belongs, and a directory that is
// itself a link. The marker lists a name before its file is written, so a
// write cut short still knows every file it may replace.
//
// Several fgrtbench processes may write into one directory at once (a
// shared --out on a cluster's file system): every update of the marker
// holds an exclusive lock on the directory and re-reads the marker before
// it renames the new one into place, so no process drops a name another
// one listed meanwhile.
//
// Results directories (results.csv, manifest.json, the artifacts) prove
// ownership by their content instead (package bench/outdir checks it);
// their files still go through internal/safefile and internal/atomicfile,
// which refuse links and non-regular files.
package owned

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fgrtbench/fgrtbench/internal/atomicfile"
	"github.com/fgrtbench/fgrtbench/internal/safefile"
)

// Marker is the marker file of an output directory.
const Marker = ".fgrtbench-files"

// Foreign is a file in the way that fgrtbench did not write.
type Foreign struct {
	Path   string
	Marker string // the marker's path
}

func (e *Foreign) Error() string {
	return fmt.Sprintf("%s is in the way and was not written by fgrtbench (%s does not list it); refusing to replace it: move it, or write into another directory", e.Path, e.Marker)
}

// IsRefusal reports whether err is a refusal of this package or of
// internal/safefile (a foreign file, a link, a directory or device in the
// way): a caller that goes on after a failed optional write must stop on
// these.
func IsRefusal(err error) bool {
	var f *Foreign
	var nd *NotDir
	return errors.As(err, &f) || errors.As(err, &nd) || safefile.IsUnsafe(err)
}

// NotDir is an output directory that is a link or not a directory.
type NotDir struct {
	Path, Kind string
}

func (e *NotDir) Error() string {
	return fmt.Sprintf("%s is %s, not a directory; refusing to write through it (remove it or write into another directory)", e.Path, e.Kind)
}

// Dir is an output directory opened for writing.
type Dir struct {
	path   string
	marker string
	// subdirs are the subdirectories names may lie in (SUB/NAME);
	// nil allows plain names only.
	subdirs map[string]bool
	// names are the names listed as this Dir last read or wrote the
	// marker; opened, those listed when it was opened: the earlier writes'
	// files that Keep may drop (a name another process listed since is
	// never this Dir's to drop).
	names, opened map[string]bool
}

// Open makes dir (and its parents) when missing and reads its marker. dir
// must not be a symbolic link or anything but a directory.
func Open(dir string) (*Dir, error) { return OpenMarked(dir, Marker, nil) }

// OpenMarked is Open with the marker's file name and the subdirectories
// whose files the marker may list as SUB/NAME (a report keeps tables in
// sweeps/ and rules/ under one marker, .fgrtbench-report).
func OpenMarked(dir, marker string, subdirs map[string]bool) (*Dir, error) {
	if err := CheckDir(dir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	d := &Dir{path: dir, marker: filepath.Join(dir, marker), subdirs: subdirs}
	names, err := d.read()
	if err != nil {
		return nil, err
	}
	d.names, d.opened = names, maps.Clone(names)
	return d, nil
}

// read reads the names the marker lists now (none when it is missing).
func (d *Dir) read() (map[string]bool, error) {
	names := map[string]bool{}
	data, err := safefile.ReadFileNoFollow(d.marker, safefile.SmallCap)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return names, nil
	case err != nil:
		return nil, err
	}
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if line == "" {
			continue
		}
		// Only names this directory's writer may use: a marker edited to
		// name ../x cannot make a write replace a file elsewhere.
		if !d.validName(line) {
			return nil, fmt.Errorf("%s:%d: %q is not a file name fgrtbench writes there; remove the marker only if the directory holds no file of yours", d.marker, i+1, line)
		}
		names[line] = true
	}
	return names, nil
}

// refresh adds to d.names what the marker lists now (another process may
// have listed files since this Dir read it) and returns the marker's
// names.
func (d *Dir) refresh() (map[string]bool, error) {
	now, err := d.read()
	if err != nil {
		return nil, err
	}
	for n := range now {
		d.names[n] = true
	}
	return now, nil
}

// CheckDir refuses a directory path that exists and is a symbolic link or
// not a directory; a missing one is no error.
func CheckDir(dir string) error {
	st, err := os.Lstat(dir)
	if err != nil || st.IsDir() {
		return nil
	}
	kind := "a file"
	switch m := st.Mode(); {
	case m&fs.ModeSymlink != 0:
		kind = "a symbolic link"
		if t, err := os.Readlink(dir); err == nil {
			kind += " to " + t
		}
	case !m.IsRegular():
		kind = "not a directory"
	}
	return &NotDir{Path: dir, Kind: kind}
}

// Names returns the names the marker lists, sorted.
func (d *Dir) Names() []string { return slices.Sorted(maps.Keys(d.names)) }

func (d *Dir) validName(n string) bool {
	sub, base, nested := strings.Cut(n, "/")
	if nested && !d.subdirs[sub] {
		return false
	}
	if !nested {
		base = n
	}
	return base != "" && base != "." && base != ".." && !strings.ContainsAny(base, "/\\\x00") && base != filepath.Base(d.marker)
}

// Check refuses, before anything is written, any of names that is in the
// way: a file the marker does not list, or anything but a regular file.
func (d *Dir) Check(names ...string) error {
	refreshed := false
	for _, n := range names {
		if !d.validName(n) {
			return fmt.Errorf("%s is not a name fgrtbench writes in %s", n, d.path)
		}
		if sub, _, nested := strings.Cut(n, "/"); nested {
			if err := CheckDir(filepath.Join(d.path, sub)); err != nil {
				return err
			}
		}
		path := filepath.Join(d.path, n)
		if err := safefile.CheckRegular(path, "replace"); err != nil {
			return err
		}
		if _, err := os.Lstat(path); err == nil && !d.names[n] {
			// Another fgrtbench process may have written it since this
			// Dir read the marker: ask the marker again before refusing.
			if !refreshed {
				if _, err := d.refresh(); err != nil {
					return err
				}
				refreshed = true
			}
			if !d.names[n] {
				return &Foreign{Path: path, Marker: d.marker}
			}
		}
	}
	return nil
}

// Claim checks names (see Check) and adds them to the marker, which is
// written before any of their files.
func (d *Dir) Claim(names ...string) error {
	if err := d.Check(names...); err != nil {
		return err
	}
	unlock := lockDir(d.path)
	defer unlock()
	return d.claimLocked(names)
}

// claimLocked is Claim for a caller that holds the directory's lock.
func (d *Dir) claimLocked(names []string) error {
	listed, err := d.refresh()
	if err != nil {
		return err
	}
	for _, n := range names {
		d.names[n] = true
	}
	if maps.Equal(listed, d.names) {
		return nil
	}
	return d.writeMarker(d.names)
}

// Keep rewrites the marker to list names (those this write made) and no
// longer the names listed when d was opened that names lacks and whose
// files are gone (the files of earlier writes it no longer produces,
// removed first with Remove). What another process listed since, or wrote
// again after the Remove, stays listed.
func (d *Dir) Keep(names []string) error {
	unlock := lockDir(d.path)
	defer unlock()
	listed, err := d.read()
	if err != nil {
		return err
	}
	for n := range d.opened {
		if slices.Contains(names, n) {
			continue
		}
		if d.regular(n) {
			continue
		}
		delete(listed, n)
	}
	for _, n := range names {
		listed[n] = true
	}
	d.names = listed
	d.opened = map[string]bool{}
	for _, n := range names {
		d.opened[n] = true
	}
	return d.writeMarker(listed)
}

// regular reports whether name is a regular file in d (not reached
// through a subdirectory turned into a link).
func (d *Dir) regular(name string) bool {
	if sub, _, nested := strings.Cut(name, "/"); nested {
		if st, err := os.Lstat(filepath.Join(d.path, sub)); err != nil || !st.IsDir() {
			return false
		}
	}
	st, err := os.Lstat(filepath.Join(d.path, name))
	return err == nil && st.Mode().IsRegular()
}

// writeMarker replaces the marker with names; the caller holds the
// directory's lock and has just read the marker.
func (d *Dir) writeMarker(names map[string]bool) error {
	var b strings.Builder
	for _, n := range slices.Sorted(maps.Keys(names)) {
		b.WriteString(n + "\n")
	}
	return atomicfile.WriteFile(d.marker, []byte(b.String()))
}

// WriteFile writes name with data (see Write).
func (d *Dir) WriteFile(name string, data []byte) error {
	return d.Write(name, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Write claims name and writes it through a temporary file: created
// exclusively when nothing is there, renamed over the file the marker
// lists otherwise. It holds the directory's lock throughout, so that a
// file another fgrtbench process writes under the same name meanwhile is
// listed by the time this one looks (and replaced, not refused).
func (d *Dir) Write(name string, fn func(w io.Writer) error) error {
	unlock := lockDir(d.path)
	defer unlock()
	if err := d.Check(name); err != nil {
		return err
	}
	if err := d.claimLocked([]string{name}); err != nil {
		return err
	}
	if sub, _, nested := strings.Cut(name, "/"); nested {
		if err := os.MkdirAll(filepath.Join(d.path, sub), 0o755); err != nil {
			return err
		}
	}
	path := filepath.Join(d.path, name)
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		err := atomicfile.Create(path, fn)
		if errors.Is(err, fs.ErrExist) {
			return &Foreign{Path: path, Marker: d.marker}
		}
		return err
	}
	return atomicfile.Write(path, fn)
}

// Remove removes name when the marker lists it and it is a regular file
// (never through a subdirectory turned into a link); anything else is left
// alone.
func (d *Dir) Remove(name string) error {
	if !d.names[name] || !d.regular(name) {
		return nil // gone already, or replaced by something not ours
	}
	return os.Remove(filepath.Join(d.path, name))
}

// WriteFiles writes several files into dir after checking every name, so
// that a file in the way of the last one leaves the first unwritten too.
func WriteFiles(dir string, names []string, data [][]byte) error {
	d, err := Open(dir)
	if err != nil {
		return err
	}
	if err := d.Claim(names...); err != nil {
		return err
	}
	for i, n := range names {
		if err := d.WriteFile(n, data[i]); err != nil {
			return err
		}
	}
	return nil
}
