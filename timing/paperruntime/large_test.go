package paperruntime

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"path/filepath"
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
