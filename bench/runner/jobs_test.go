package runner

import (
	"context"
	"os"
	"runtime/metrics"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/study"
)

// goroutinesCreated is the number of goroutines the process has started.
func goroutinesCreated() uint64 {
	s := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestWorkersAtMostPendingUnits (issue 30, bounded resources): -j at its
// ceiling on a three-unit shard starts three workers, not 4096; above the
// ceiling the run is refused before anything is written.
func TestWorkersAtMostPendingUnits(t *testing.T) {
	dir := t.TempDir()
	before := goroutinesCreated()
	r := &Runner{Load: testLoader, OutDir: dir, Jobs: MaxJobs, Shard: study.Shard{Index: 0, Count: 20}}
	sum, err := r.Run(context.Background(), testStudy())
	if err != nil {
		t.Fatal(err)
	}
	if sum.Ran != 3 {
		t.Fatalf("ran %d units, want the shard's 3", sum.Ran)
	}
	// Three workers and the runner's own few goroutines (loading, the
	// artifacts' writers); one worker per -j would be thousands.
	if created := goroutinesCreated() - before; created > 200 {
		t.Errorf("a 3-unit run at -j %d created %d goroutines; workers must not outnumber pending units", MaxJobs, created)
	}

	empty := t.TempDir()
	r = &Runner{Load: testLoader, OutDir: empty + "/out", Jobs: MaxJobs + 1}
	if _, err := r.Run(context.Background(), testStudy()); err == nil || !strings.Contains(err.Error(), "above the ceiling of 4096") {
		t.Errorf("-j %d: err %v, want the ceiling named", MaxJobs+1, err)
	}
	if entries, _ := os.ReadDir(empty); len(entries) != 0 {
		t.Errorf("a run refused for its -j wrote %v", entries)
	}
}
