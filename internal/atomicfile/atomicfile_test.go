package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestWriteFileReplacesAtomically(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.csv")
	if err := WriteFile(path, []byte("one")); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("two")); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	st, _ := os.Stat(path)
	if string(got) != "two" || st.Mode().Perm() != 0o644 {
		t.Fatalf("content %q mode %v", got, st.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("temporary files left: %v", entries)
	}
}

func TestFailedWriteLeavesDestinationAndNoTemp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.csv")
	WriteFile(path, []byte("keep"))
	boom := errors.New("boom")
	err := Write(path, func(w io.Writer) error {
		w.Write([]byte("partial"))
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("error %v", err)
	}
	got, _ := os.ReadFile(path)
	entries, _ := os.ReadDir(dir)
	if string(got) != "keep" || len(entries) != 1 {
		t.Fatalf("content %q, %d entries", got, len(entries))
	}
	if err := WriteFile(filepath.Join(dir, "missing", "x"), nil); err == nil {
		t.Fatal("write into a missing directory succeeded")
	}
}

func TestRefusesToReplaceNonRegularFiles(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	// A symbolic link to a regular file: replacing it would leave the
	// target stale, writing through it would put the file away from its
	// siblings.
	target := filepath.Join(dir, "target.csv")
	os.WriteFile(target, []byte("old"), 0o644)
	link := filepath.Join(dir, "link.csv")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{sub: "a directory", fifo: "a named pipe", link: "a symbolic link to " + target}
	// A device node like /dev/full (char 1:7), made here rather than
	// risking the real one; only root can make it.
	full := filepath.Join(dir, "full")
	if err := syscall.Mknod(full, syscall.S_IFCHR|0o666, 1<<8|7); err == nil {
		cases[full] = "a device"
	} else {
		t.Logf("device case skipped: mknod: %v (needs root)", err)
	}
	for path, want := range cases {
		err := WriteFile(path, []byte("x"))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want an error saying %q", path, err, want)
		}
		if st, err := os.Lstat(path); err != nil || st.Mode().IsRegular() {
			t.Errorf("%s was replaced by a regular file", path)
		}
	}
	if data, _ := os.ReadFile(target); string(data) != "old" {
		t.Errorf("the link's target was written: %q", data)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != len(cases)+1 {
		t.Fatalf("temporary files left: %v", entries)
	}
}

// TestCreateNeverReplaces: Create writes a new file whole (mode 0644, no
// temporary file left), and refuses, with fs.ErrExist, anything already at
// the path (a file, a dangling link, a directory), which stays as it was;
// so does a file that appears while the content is written.
func TestCreateNeverReplaces(t *testing.T) {
	write := func(s string) func(w io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "new.csv")
	if err := Create(path, write("ours")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "ours" {
		t.Fatalf("content %q", got)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o644 {
		t.Fatalf("mode %v", st.Mode().Perm())
	}
	for _, c := range []struct {
		name  string
		plant func(p string) error
	}{
		{"file", func(p string) error { return os.WriteFile(p, []byte("theirs"), 0o600) }},
		{"dangling link", func(p string) error { return os.Symlink(filepath.Join(dir, "nowhere"), p) }},
		{"directory", func(p string) error { return os.Mkdir(p, 0o755) }},
	} {
		p := filepath.Join(dir, c.name)
		if err := c.plant(p); err != nil {
			t.Fatal(err)
		}
		before, _ := os.Lstat(p)
		if err := Create(p, write("ours")); !errors.Is(err, fs.ErrExist) {
			t.Errorf("%s: err = %v, want fs.ErrExist", c.name, err)
		}
		if after, _ := os.Lstat(p); after.Mode() != before.Mode() || after.Size() != before.Size() {
			t.Errorf("%s: changed", c.name)
		}
	}
	late := filepath.Join(dir, "late")
	err := Create(late, func(w io.Writer) error {
		if err := os.WriteFile(late, []byte("theirs"), 0o600); err != nil {
			return err
		}
		return write("ours")(w)
	})
	if got, _ := os.ReadFile(late); !errors.Is(err, fs.ErrExist) || string(got) != "theirs" {
		t.Errorf("a file that appeared meanwhile: err %v, content %q", err, got)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".*.tmp-*")); len(m) != 0 {
		t.Errorf("temporary files left: %v", m)
	}
}
