package spec

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// largeSpec is a spec of about size bytes in format ("json" or "yaml"):
// a dataset list, one name a line, then folds given twice on its last
// line, so that the strict reader walks the whole text and refuses it
// with the last line's position. It returns the spec and that line.
func largeSpec(format string, size int) (string, int) {
	var b strings.Builder
	line := 1
	if format == "json" {
		b.WriteString("{\"protocols\": [\"clean\"], \"methods\": [{\"name\": \"cart\"}],\n\"datasets\": [\n")
		line += 2
		for i := 0; b.Len() < size; i++ {
			fmt.Fprintf(&b, "  \"d%07d.csv\",\n", i)
			line++
		}
		b.WriteString("  \"last.csv\"],\n\"folds\": 3, \"folds\": 4}\n")
		return b.String(), line + 1
	}
	b.WriteString("protocols: [clean]\nmethods:\n  - name: cart\ndatasets:\n")
	line += 4
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "  - d%07d.csv\n", i)
		line++
	}
	b.WriteString("folds: 3\nfolds: 4\n")
	return b.String(), line + 1
}

// TestLargeSpecRefusedInLinearTime: a 4 MiB spec (safefile.SpecCap) is
// refused within seconds, naming the line of the repeated key. The JSON
// reader once counted newlines from the start of the file for every
// token: 300 KB took 15–25 s, 4 MiB about an hour.
func TestLargeSpecRefusedInLinearTime(t *testing.T) {
	for _, format := range []string{"json", "yaml"} {
		t.Run(format, func(t *testing.T) {
			data, line := largeSpec(format, 4<<20)
			done := make(chan error, 1)
			go func() {
				_, err := Parse([]byte(data), format)
				done <- err
			}()
			var err error
			// Linear takes well under a second here; the budget leaves
			// room for a loaded machine, not for a quadratic reader.
			select {
			case err = <-done:
			case <-time.After(20 * time.Second):
				t.Fatalf("a 4 MiB %s spec is not refused after 20 s", format)
			}
			want := fmt.Sprintf("line %d, column", line)
			if err == nil || !strings.Contains(err.Error(), "given twice") || !strings.Contains(err.Error(), want) {
				t.Fatalf("err = %v, want folds given twice at %s", err, want)
			}
		})
	}
}

// BenchmarkLargeSpec reads (and refuses) a 4 MiB spec.
func BenchmarkLargeSpec(b *testing.B) {
	for _, format := range []string{"json", "yaml"} {
		data, _ := largeSpec(format, 4<<20)
		b.Run(format, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := Parse([]byte(data), format); err == nil {
					b.Fatal("accepted")
				}
			}
		})
	}
}

// TestLoadStopsWhenCancelled: a spec read after a first SIGINT or SIGTERM
// (its context cancelled) is not turned into a study; the context's error
// comes back unwrapped by the file's name, for the caller to word.
func TestLoadStopsWhenCancelled(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.yaml")
	if err := os.WriteFile(path, []byte("protocols: [clean]\ndatasets: [appendicitis]\nmethods:\n  - name: cart\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadContext(context.Background(), path); err != nil {
		t.Fatalf("uncancelled: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := LoadContext(ctx, path); err != context.Canceled {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}
