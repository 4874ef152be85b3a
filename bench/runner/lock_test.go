//go:build unix

package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBusyDirectoryRefused: a run into a directory that another run is
// writing (two shards given one --out at once) is refused before it
// touches results.csv; once the other run ends, the same run goes ahead.
// Before the lock, both runs exited 0 and results.csv kept 21 of 30 rows.
func TestBusyDirectoryRefused(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	release, err := lockDir(out) // the other run
	if err != nil {
		t.Fatal(err)
	}
	r := &Runner{Load: testLoader, OutDir: out, Jobs: 2}
	sum, err := r.Run(context.Background(), testStudy())
	var busy *Busy
	if !errors.As(err, &busy) || !strings.Contains(err.Error(), fmt.Sprintf("pid %d on ", os.Getpid())) {
		t.Fatalf("got %v, want a refusal naming the run that holds %s", err, out)
	}
	if strings.Contains(err.Error(), "\n") || sum.Ran != 0 {
		t.Fatalf("error %q, summary %+v: want one line and no unit run", err, sum)
	}
	if _, err := os.Stat(filepath.Join(out, ResultsFile)); !os.IsNotExist(err) {
		t.Fatalf("results.csv written by the refused run (%v)", err)
	}
	release()
	if sum, err := r.Run(context.Background(), testStudy()); err != nil || sum.Ran == 0 {
		t.Fatalf("after the other run ended: %+v, %v", sum, err)
	}
}

// TestMoveAsideRefusesABusyDirectory: --fresh does not move a directory
// that a run is writing (it would finish into the moved copy and write its
// manifest into the new directory).
func TestMoveAsideRefusesABusyDirectory(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	release, err := lockDir(out)
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
