package artifacts

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// bomb is one gzip member of n zero bytes, compressed as hard as gzip can
// (a few thousandths of its size).
func bomb(t *testing.T, n int) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	if err != nil {
		t.Fatal(err)
	}
	zero := make([]byte, 1<<20)
	for ; n > 0; n -= len(zero) {
		if _, err := zw.Write(zero[:min(n, len(zero))]); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestGzipBombRefused: an artifact file whose members decompress to far
// more than fgrtbench's own ever do (a gzip bomb planted in a results
// directory from elsewhere) is refused with an *InflatedError by every
// reader and by every writer that reads before it writes, which leave the
// file as it was (a resume does not cut it as a torn tail); the bound is
// on the text decompressed, so the refusal costs at most that.
func TestGzipBombRefused(t *testing.T) {
	const size = 128 << 20 // decompressed; the bound for its ~130 KB is ~77 MB
	models := bomb(t, size)
	predictions := append(gz(t, testHeader), models...)
	if limit := int64(maxInflation)*int64(len(predictions)) + inflationSlack; limit >= size {
		t.Fatalf("the bomb (%d bytes) is within the bound (%d bytes) of its file", size, limit)
	}
	inflated := func(what string, err error) {
		t.Helper()
		var ie *InflatedError
		if !errors.As(err, &ie) {
			t.Errorf("%s: error %v, want an *InflatedError", what, err)
		}
	}
	for _, allowTorn := range []bool{false, true} {
		_, _, err := ReadPredictions(predictions, allowTorn)
		inflated("ReadPredictions", err)
		_, _, err = ReadModels(models, allowTorn)
		inflated("ReadModels", err)
	}
	_, _, err := WholeMembers(predictions)
	inflated("WholeMembers", err)

	plant := func(t *testing.T) (dir string, before map[string][]byte) {
		dir = t.TempDir()
		before = map[string][]byte{PredictionsFile: predictions, ModelsFile: models}
		for name, data := range before {
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir, before
	}
	unchanged := func(t *testing.T, dir string, before map[string][]byte) {
		t.Helper()
		for name, data := range before {
			if got := mustRead(t, filepath.Join(dir, name)); !bytes.Equal(got, data) {
				t.Errorf("%s changed (%d bytes, was %d)", name, len(got), len(data))
			}
		}
	}
	cases := []struct {
		name string
		call func(dir string) error
	}{
		{"Read", func(dir string) error { _, _, _, err := Read(dir, nil); return err }},
		{"Open (resume)", func(dir string) error {
			a, _, err := Open(dir, []string{"a", "b"})
			if err == nil {
				a.Close()
			}
			return err
		}},
		{"RetainUnits", func(dir string) error { _, err := RetainUnits(dir, func(string) bool { return true }); return err }},
		{"Sort", Sort},
		{"Merge", func(dir string) error {
			_, err := Merge(t.TempDir(), []string{dir}, nil)
			return err
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir, before := plant(t)
			inflated(c.name, c.call(dir))
			unchanged(t, dir, before)
		})
	}
}
