package paperruntime

import (
	goruntime "runtime"
	"testing"
)

// TestFGRTFitMemory: the study's FGRT fit on 10^5 rows of the runtime data
// allocates at most twice its training matrix (the issue-16 bound; at 10^6
// rows BenchmarkFitFGRT reports the same ratio), so large fits stay within
// memory. Allocation counts are deterministic, unlike timings.
func TestFGRTFitMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("fits 80,000 rows")
	}
	d := trainingPart(100_000)
	tr := studyTrainer(t, "fgrt")
	if _, err := tr.Fit(d.X, d.y, d.s); err != nil { // warm-up: lazy package state
		t.Fatal(err)
	}
	var before, after goruntime.MemStats
	goruntime.ReadMemStats(&before)
	if _, err := tr.Fit(d.X, d.y, d.s); err != nil {
		t.Fatal(err)
	}
	goruntime.ReadMemStats(&after)
	input := uint64(len(d.X) * len(d.X[0]) * 8)
	if got := after.TotalAlloc - before.TotalAlloc; got > 2*input {
		t.Errorf("FGRT fit on %d x %d allocated %d bytes, more than twice the %d-byte matrix", len(d.X), len(d.X[0]), got, input)
	} else {
		t.Logf("FGRT fit on %d x %d allocated %.2f× the matrix", len(d.X), len(d.X[0]), float64(got)/float64(input))
	}
}
