//go:build unix

package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fixture makes a directory with one of each kind of file a planted path
// can be: a regular file, a link to it, a dangling link, a FIFO, a
// directory and a link to a device.
func fixture(t *testing.T) (dir, target string) {
	t.Helper()
	dir = t.TempDir()
	target = filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	must(t, os.Symlink(target, filepath.Join(dir, "link")))
	must(t, os.Symlink(filepath.Join(dir, "nowhere"), filepath.Join(dir, "dangling")))
	must(t, syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644))
	must(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	must(t, os.Symlink("/dev/zero", filepath.Join(dir, "zero")))
	return dir, target
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// done fails the test when fn does not return within a second: a FIFO
// must be refused, never waited on.
func done(t *testing.T, fn func()) {
	t.Helper()
	ch := make(chan struct{})
	go func() { fn(); close(ch) }()
	select {
	case <-ch:
	case <-time.After(5 * time.Second):
		t.Fatal("blocked (a named pipe was opened instead of refused)")
	}
}

func TestOpenWriteRefusesWhatIsNotARegularFile(t *testing.T) {
	dir, target := fixture(t)
	cases := []struct{ name, want string }{
		{"link", "symbolic link"},
		{"dangling", "symbolic link"},
		{"fifo", "named pipe"},
		{"sub", "directory"},
		{"zero", "symbolic link"},
	}
	for _, c := range cases {
		for _, flag := range []int{os.O_WRONLY | os.O_APPEND | os.O_CREATE, os.O_RDWR | os.O_CREATE | os.O_TRUNC} {
			var err error
			done(t, func() {
				var f *os.File
				f, err = OpenWrite(filepath.Join(dir, c.name), flag, 0o644)
				if f != nil {
					f.Close()
				}
			})
			if err == nil || !strings.Contains(err.Error(), c.want) || !IsUnsafe(err) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%s flag %#x: %v, want one line naming %q", c.name, flag, err, c.want)
			}
		}
	}
	if b, _ := os.ReadFile(target); string(b) != "precious\n" {
		t.Fatalf("the link's target changed: %q", b)
	}
	if _, err := os.Lstat(filepath.Join(dir, "nowhere")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("writing a dangling link created its target")
	}
	// A regular file, new or existing, opens; O_TRUNC cuts it.
	f, err := OpenWrite(target, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	must(t, err)
	f.WriteString("x")
	f.Close()
	if b, _ := os.ReadFile(target); string(b) != "x" {
		t.Fatalf("truncating open: %q", b)
	}
	f, err = OpenAppend(filepath.Join(dir, "new"), 0o644)
	must(t, err)
	f.Close()
}

func TestCreateExclusive(t *testing.T) {
	dir, target := fixture(t)
	for _, name := range []string{"target", "link", "dangling"} {
		if f, err := CreateExclusive(filepath.Join(dir, name), 0o644); err == nil {
			f.Close()
			t.Errorf("%s: created over an existing name", name)
		}
	}
	if b, _ := os.ReadFile(target); string(b) != "precious\n" {
		t.Fatalf("target changed: %q", b)
	}
	f, err := CreateExclusive(filepath.Join(dir, "fresh"), 0o644)
	must(t, err)
	f.Close()
}

func TestReadRefusesPipesDevicesAndOversizedFiles(t *testing.T) {
	dir, _ := fixture(t)
	cases := []struct {
		name     string
		noFollow bool
		want     string // "" reads fine
	}{
		{"target", false, ""},
		{"link", false, ""}, // a user's link to a regular file is followed
		{"link", true, "symbolic link"},
		{"fifo", false, "named pipe"},
		{"fifo", true, "named pipe"},
		{"sub", false, "directory"},
		{"zero", false, "device"},
		{"zero", true, "symbolic link"},
	}
	for _, c := range cases {
		var data []byte
		var err error
		done(t, func() {
			if c.noFollow {
				data, err = ReadFileNoFollow(filepath.Join(dir, c.name), 100)
			} else {
				data, err = ReadFile(filepath.Join(dir, c.name), 100)
			}
		})
		switch {
		case c.want == "" && (err != nil || string(data) != "precious\n"):
			t.Errorf("%s: %q, %v", c.name, data, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !IsUnsafe(err)):
			t.Errorf("%s (nofollow %v): %v, want %q", c.name, c.noFollow, err, c.want)
		}
	}
	// The cap is inclusive: 9 bytes read with a cap of 9, refused with 8.
	if _, err := ReadFile(filepath.Join(dir, "target"), 9); err != nil {
		t.Errorf("at the cap: %v", err)
	}
	_, err := ReadFile(filepath.Join(dir, "target"), 8)
	var tl *TooLarge
	if !errors.As(err, &tl) || !strings.Contains(err.Error(), "larger than 8 bytes") {
		t.Errorf("over the cap: %v", err)
	}
	// ReadAll reads at most cap+1 of an endless stream.
	z, err := os.Open("/dev/zero")
	must(t, err)
	defer z.Close()
	if _, err := ReadAll(z, "/dev/zero", 1*MiB); !errors.As(err, &tl) {
		t.Errorf("endless stream: %v", err)
	}
	if _, err := ReadFile(filepath.Join(dir, "missing"), 10); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}
