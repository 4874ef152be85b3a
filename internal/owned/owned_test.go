//go:build unix

package owned

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestWriteRefusesWhatItDidNotWrite plants each kind of thing fgrtbench
// must not replace where a file belongs: the write is refused with the
// kind named, and the thing planted (and what a link points at) is left
// byte-identical.
func TestWriteRefusesWhatItDidNotWrite(t *testing.T) {
	for _, c := range []struct {
		name  string
		plant func(t *testing.T, path, victim string)
		msg   string
	}{
		{"foreign file", func(t *testing.T, p, _ string) { write(t, p, "a user's figure\n") }, "was not written by fgrtbench"},
		{"link to a file", func(t *testing.T, p, v string) { must(t, os.Symlink(v, p)) }, "symbolic link"},
		{"dangling link", func(t *testing.T, p, v string) { must(t, os.Symlink(v+".none", p)) }, "symbolic link"},
		{"directory", func(t *testing.T, p, _ string) { must(t, os.Mkdir(p, 0o755)) }, "directory"},
		{"fifo", func(t *testing.T, p, _ string) { must(t, syscall.Mkfifo(p, 0o644)) }, "named pipe"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tmp := t.TempDir()
			victim := filepath.Join(tmp, "victim")
			write(t, victim, "another user's file\n")
			dir := filepath.Join(tmp, "out")
			must(t, os.Mkdir(dir, 0o755))
			path := filepath.Join(dir, "fig.png")
			c.plant(t, path, victim)
			before, _ := os.Lstat(path)
			err := WriteFiles(dir, []string{"a.svg", "fig.png"}, [][]byte{[]byte("svg"), []byte("png")})
			if err == nil || !strings.Contains(err.Error(), c.msg) || !strings.Contains(err.Error(), path) || !IsRefusal(err) {
				t.Fatalf("err = %v, want a refusal naming %s and saying %q", err, path, c.msg)
			}
			after, _ := os.Lstat(path)
			if before.Mode() != after.Mode() || before.Size() != after.Size() {
				t.Errorf("the planted %s changed", c.name)
			}
			if b, _ := os.ReadFile(victim); string(b) != "another user's file\n" {
				t.Errorf("the link's target changed: %q", b)
			}
			// Checked before anything was written: not even the other name.
			if _, err := os.Lstat(filepath.Join(dir, "a.svg")); err == nil {
				t.Errorf("a.svg was written although fig.png was refused")
			}
			if _, err := os.Lstat(filepath.Join(dir, Marker)); err == nil {
				t.Errorf("the marker was written although the write was refused")
			}
		})
	}
}

// TestWriteReplacesOnlyListedFiles: a first write creates and lists its
// files; a second replaces them; a file the marker does not list is never
// replaced, even beside listed ones; Remove removes listed files only.
func TestWriteReplacesOnlyListedFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if err := WriteFiles(dir, []string{"a.csv"}, [][]byte{[]byte("one")}); err != nil {
		t.Fatal(err)
	}
	if err := WriteFiles(dir, []string{"a.csv"}, [][]byte{[]byte("two")}); err != nil {
		t.Fatalf("replacing a listed file: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.csv")); string(b) != "two" {
		t.Errorf("a.csv = %q, want two", b)
	}
	write(t, filepath.Join(dir, "notes.md"), "mine")
	d, err := Open(dir)
	must(t, err)
	if err := d.WriteFile("notes.md", []byte("x")); err == nil {
		t.Errorf("replaced notes.md, which the marker does not list")
	}
	must(t, d.Remove("notes.md"))
	if b, _ := os.ReadFile(filepath.Join(dir, "notes.md")); string(b) != "mine" {
		t.Errorf("notes.md = %q after Remove, want it kept", b)
	}
	must(t, d.Remove("a.csv"))
	if _, err := os.Lstat(filepath.Join(dir, "a.csv")); err == nil {
		t.Errorf("Remove left a.csv, which the marker lists")
	}
	if m, _ := os.ReadFile(filepath.Join(dir, Marker)); string(m) != "a.csv\n" {
		t.Errorf("marker = %q", m)
	}
}

// TestAFileThatAppearsMeanwhileIsNotReplaced: a name absent when checked
// is created exclusively, so a file put there between the check and the
// write (another program, a copy in progress) survives.
func TestAFileThatAppearsMeanwhileIsNotReplaced(t *testing.T) {
	dir := t.TempDir()
	d, err := Open(dir)
	must(t, err)
	path := filepath.Join(dir, "x.csv")
	err = d.Write("x.csv", func(w io.Writer) error {
		write(t, path, "arrived meanwhile")
		_, err := w.Write([]byte("ours"))
		return err
	})
	var f *Foreign
	if !errors.As(err, &f) {
		t.Fatalf("err = %v, want *Foreign", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "arrived meanwhile" {
		t.Errorf("x.csv = %q", b)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".x.csv.tmp-*")); len(m) != 0 {
		t.Errorf("temporary files left: %q", m)
	}
}

// TestMarkersAndDirectoriesThatPointElsewhere: a marker edited to name a
// path outside its directory, and an output directory that is a link or a
// file, are refused.
func TestMarkersAndDirectoriesThatPointElsewhere(t *testing.T) {
	tmp := t.TempDir()
	for _, line := range []string{"../victim", "/etc/passwd", "sub/x", Marker} {
		dir := filepath.Join(tmp, "m"+strings.NewReplacer("/", "_", ".", "_").Replace(line))
		must(t, os.MkdirAll(dir, 0o755))
		write(t, filepath.Join(dir, Marker), line+"\n")
		if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), Marker+":1:") {
			t.Errorf("marker line %q: err = %v, want it refused with its line", line, err)
		}
	}
	real := filepath.Join(tmp, "real")
	must(t, os.Mkdir(real, 0o755))
	link := filepath.Join(tmp, "link")
	must(t, os.Symlink(real, link))
	file := filepath.Join(tmp, "file")
	write(t, file, "x")
	for _, dir := range []string{link, file} {
		if err := WriteFiles(dir, []string{"a"}, [][]byte{nil}); err == nil || !IsRefusal(err) || !strings.Contains(err.Error(), "not a directory") {
			t.Errorf("%s: err = %v, want refused", dir, err)
		}
	}
	if entries, _ := os.ReadDir(real); len(entries) != 0 {
		t.Errorf("wrote through the directory link: %v", entries)
	}
	// Subdirectories are allowed only where the writer names them.
	d, err := OpenMarked(filepath.Join(tmp, "rep"), ".m", map[string]bool{"sweeps": true})
	must(t, err)
	must(t, d.WriteFile("sweeps/t.md", []byte("t")))
	if err := d.WriteFile("other/t.md", nil); err == nil {
		t.Errorf("wrote other/t.md outside the allowed subdirectories")
	}
}

func write(t *testing.T, path, s string) {
	t.Helper()
	must(t, os.WriteFile(path, []byte(s), 0o644))
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
