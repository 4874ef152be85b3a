package paperruntime

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/datasets"
)

// TestWriteLargeCSV: the generator's file is fixed by its shape (golden
// head and hash), and reads back as rows × cols numeric inputs and three
// classes through the loader the study uses.
func TestWriteLargeCSV(t *testing.T) {
	var a, b bytes.Buffer
	if err := WriteLargeCSV(&a, 500, 4); err != nil {
		t.Fatal(err)
	}
	if err := WriteLargeCSV(&b, 500, 4); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("two generations differ")
	}
	head := string(bytes.SplitN(a.Bytes(), []byte("\n"), 3)[0])
	if head != "x0,x1,x2,x3,class" {
		t.Errorf("header %q", head)
	}
	if got, want := fmt.Sprintf("%x", sha256.Sum256(a.Bytes()))[:16], largeGolden; got != want {
		t.Errorf("500×4 file hashes to %s, want %s (the generator changed: the benchmark's data would too)", got, want)
	}
	path := filepath.Join(t.TempDir(), "large.csv")
	if err := WriteLargeCSVFile(path, 500, 4); err != nil {
		t.Fatal(err)
	}
	d, err := datasets.LoadFile(path, datasets.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Rows() != 500 || len(d.Inputs) != 4 || len(d.Classes) != 3 || d.Inputs[0].Type != "real" {
		t.Errorf("read back %d rows, %d inputs, classes %v, type %s", d.Rows(), len(d.Inputs), d.Classes, d.Inputs[0].Type)
	}
	if d.Checksum != datasets.NormalizedSHA256(a.Bytes()) {
		t.Error("checksum differs from the written bytes'")
	}
}

const largeGolden = "a8dc607ffa5fa698"

// TestWriteLargeCSVFileRefusesALink: the generated file goes through the
// module's one atomic write, which refuses to replace a symbolic link (the
// rename would turn the link into a file and leave its target stale).
func TestWriteLargeCSVFileRefusesALink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.csv")
	if err := os.WriteFile(target, []byte("kept\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "large.csv")
	if err := os.Symlink(target, path); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	err := WriteLargeCSVFile(path, 10, 2)
	if err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("WriteLargeCSVFile over a link: error %v, want a refusal naming the link", err)
	}
	if st, err := os.Lstat(path); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced (%v)", err)
	}
	if b, _ := os.ReadFile(target); string(b) != "kept\n" {
		t.Errorf("the link's target was written: %q", b)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".*")); len(m) != 0 {
		t.Errorf("temporary files left behind: %v", m)
	}
}
