//go:build unix

package outdir

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestMoveAsideRefusesABusyDirectory: --fresh does not move a directory
// that a run is writing (it would finish into the moved copy and write its
// manifest into the new directory).
func TestMoveAsideRefusesABusyDirectory(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	release, err := Lock(out)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	var busy *Busy
	if _, err := MoveAside(out, now); !errors.As(err, &busy) {
		t.Fatalf("got %v, want a refusal: a run holds %s", err, out)
	}
	if _, err := os.Stat(out); err != nil {
		t.Fatalf("the busy directory was moved: %v", err)
	}
	release()
	if dst, err := MoveAside(out, now); err != nil || dst != out+".replaced-20260102T030405Z" {
		t.Fatalf("after the run ended: %q, %v", dst, err)
	}
}
