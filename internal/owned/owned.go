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
	names   map[string]bool
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
	data, err := safefile.ReadFileNoFollow(d.marker, safefile.SmallCap)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		d.names = map[string]bool{}
		return d, nil
	case err != nil:
		return nil, err
	}
	d.names = map[string]bool{}
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if line == "" {
			continue
		}
		// Only names this directory's writer may use: a marker edited to
		// name ../x cannot make a write replace a file elsewhere.
		if !d.validName(line) {
			return nil, fmt.Errorf("%s:%d: %q is not a file name fgrtbench writes there; remove the marker only if the directory holds no file of yours", d.marker, i+1, line)
		}
		d.names[line] = true
	}
	return d, nil
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
			return &Foreign{Path: path, Marker: d.marker}
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
	grown := false
	for _, n := range names {
		if !d.names[n] {
			d.names[n] = true
			grown = true
		}
	}
	if !grown {
		return nil
	}
	return d.writeMarker()
}

// Keep rewrites the marker to list only names (those this write made;
// the files of earlier writes it no longer produces are removed first with
// Remove).
func (d *Dir) Keep(names []string) error {
	d.names = map[string]bool{}
	for _, n := range names {
		d.names[n] = true
	}
	return d.writeMarker()
}

func (d *Dir) writeMarker() error {
	var b strings.Builder
	for _, n := range d.Names() {
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
// lists otherwise.
func (d *Dir) Write(name string, fn func(w io.Writer) error) error {
	if err := d.Claim(name); err != nil {
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
	if !d.names[name] {
		return nil
	}
	if sub, _, nested := strings.Cut(name, "/"); nested {
		if st, err := os.Lstat(filepath.Join(d.path, sub)); err != nil || !st.IsDir() {
			return nil
		}
	}
	path := filepath.Join(d.path, name)
	st, err := os.Lstat(path)
	if err != nil || !st.Mode().IsRegular() {
		return nil // gone already, or replaced by something not ours
	}
	return os.Remove(path)
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
