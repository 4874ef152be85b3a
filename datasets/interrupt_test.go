package datasets

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadStopsWhenCancelled: a context cancelled while a data file is
// read (a first Ctrl-C or SIGTERM) stops the read at the next block, for
// every reader: the load returns the context's error, and the file is not
// read to its end.
func TestLoadStopsWhenCancelled(t *testing.T) {
	dir := t.TempDir()
	var csv, dat strings.Builder
	csv.WriteString("a,b,class\n")
	dat.WriteString("@relation r\n@attribute a real [0, 99999]\n@attribute b real [0, 99999]\n@attribute class {x, y}\n@inputs a, b\n@outputs class\n@data\n")
	for i := 0; csv.Len() < 9<<20; i++ {
		row := fmt.Sprintf("%d,%d,%c\n", i%99999, (i*7)%99999, "xy"[i%2])
		csv.WriteString(row)
		dat.WriteString(row)
	}
	for _, c := range []struct{ name, text string }{
		{"big.csv", csv.String()},
		{"big.dat", dat.String()},
		{"big.arff", strings.Replace(strings.Replace(dat.String(), " [0, 99999]", "", 2), "@inputs a, b\n@outputs class\n", "", 1)},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, c.name)
			if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			var last int64
			_, err := LoadFile(path, LoadOptions{Context: ctx, Progress: func(read, size int64) {
				last = read
				cancel()
			}})
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v, want the context's error", err)
			}
			if last >= int64(len(c.text)) {
				t.Errorf("read %d of %d bytes after the cancel", last, len(c.text))
			}
			// Without the cancel the same file loads.
			if _, err := LoadFile(path, LoadOptions{Context: context.Background()}); err != nil {
				t.Errorf("uncancelled: %v", err)
			}
		})
	}
}
