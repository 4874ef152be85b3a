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

	"github.com/fgrtbench/fgrtbench/bench/outdir"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/results"
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
	release, err := outdir.Lock(out) // the other run
	if err != nil {
		t.Fatal(err)
	}
	r := &Runner{Load: testLoader, OutDir: out, Jobs: 2}
	sum, err := r.Run(context.Background(), testStudy())
	var busy *outdir.Busy
	if !errors.As(err, &busy) || !strings.Contains(err.Error(), fmt.Sprintf("pid %d on ", os.Getpid())) {
		t.Fatalf("got %v, want a refusal naming the run that holds %s", err, out)
	}
	if strings.Contains(err.Error(), "\n") || sum.Ran != 0 {
		t.Fatalf("error %q, summary %+v: want one line and no unit run", err, sum)
	}
	if _, err := os.Stat(filepath.Join(out, results.FileName)); !os.IsNotExist(err) {
		t.Fatalf("results.csv written by the refused run (%v)", err)
	}
	release()
	if sum, err := r.Run(context.Background(), testStudy()); err != nil || sum.Ran == 0 {
		t.Fatalf("after the other run ended: %+v, %v", sum, err)
	}
}

// TestShardDirectoryKeepsItsShardCount: a shard's directory resumed with
// another shard count (a job array resubmitted with another --shard-count)
// is refused before a unit runs; the same count, or the whole study,
// resumes it.
func TestShardDirectoryKeepsItsShardCount(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	run := func(s study.Shard) (Summary, error) {
		r := &Runner{Load: testLoader, OutDir: out, Jobs: 2, Shard: s}
		return r.Run(context.Background(), testStudy())
	}
	if _, err := run(study.Shard{Index: 1, Count: 3}); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(filepath.Join(out, results.FileName))
	if err != nil {
		t.Fatal(err)
	}
	sum, err := run(study.Shard{Index: 1, Count: 4})
	if err == nil || !strings.Contains(err.Error(), "holds shard 1/3 of this study; this run is shard 1/4") || sum.Ran != 0 {
		t.Fatalf("got %+v, %v; want a refusal naming both shard counts", sum, err)
	}
	if after, _ := os.ReadFile(filepath.Join(out, results.FileName)); string(after) != string(before) {
		t.Fatal("the refused run changed results.csv")
	}
	for _, s := range []study.Shard{{Index: 1, Count: 3}, {Index: 2, Count: 3}, {}} {
		if _, err := run(s); err != nil {
			t.Fatalf("shard %s: %v", s, err)
		}
	}
}
