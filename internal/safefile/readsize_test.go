package safefile

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestReadFileAllocatesOnce checks that a file is read into one buffer of
// its size: a growing buffer allocated about twice the file (the garbage a
// report of large artifacts held), and that the bytes and the cap hold.
func TestReadFileAllocatesOnce(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name  string
		size  int
		limit int64
		err   bool
	}{
		{"empty", 0, 1 << 20, false},
		{"small", 100, 1 << 20, false},
		{"large", 8 << 20, 16 << 20, false},
		{"over the cap", 8 << 20, 4 << 20, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			want := bytes.Repeat([]byte("0123456789abcdef"), c.size/16)
			path := filepath.Join(dir, c.name)
			if err := os.WriteFile(path, want, 0o644); err != nil {
				t.Fatal(err)
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			got, err := ReadFileNoFollow(path, c.limit)
			runtime.ReadMemStats(&after)
			if c.err {
				if err == nil {
					t.Fatalf("read %d bytes over a cap of %d", len(got), c.limit)
				}
				return
			}
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("read %d bytes (err %v), want the file's %d", len(got), err, len(want))
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(len(want))+64<<10 {
				t.Errorf("reading %d bytes allocated %d", len(want), alloc)
			}
		})
	}
}
