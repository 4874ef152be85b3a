package runner

import (
	"context"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/datasets"
)

// heapSampler records the largest heap (live and not yet swept objects)
// seen every millisecond.
type heapSampler struct {
	peak atomic.Int64
	stop chan struct{}
	done chan struct{}
}

func sampleHeap() *heapSampler {
	s := &heapSampler{stop: make(chan struct{}), done: make(chan struct{})}
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	go func() {
		defer close(s.done)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(sample)
			if v := int64(sample[0].Value.Uint64()); v > s.peak.Load() {
				s.peak.Store(v)
			}
			select {
			case <-s.stop:
				return
			case <-tick.C:
			}
		}
	}()
	return s
}

func (s *heapSampler) end() int64 { close(s.stop); <-s.done; return s.peak.Load() }

// startHeap records the heap when the runner starts its units (Progress
// Start comes after the datasets and plans are built).
type startHeap struct {
	base    int64
	sampler *heapSampler
}

func (p *startHeap) Start(int, int64) {
	p.base = heapInUse()
	p.sampler = sampleHeap()
}
func (p *startHeap) Done(study.Unit, int64, error) {}
func (p *startHeap) Finish()                       {}

// measureUnit runs one unit (fold 0) of method on n rows × d inputs under
// the clean protocol at the large-study collector setting, and returns
// the peak heap above what was held when units started, and the unit's
// estimated footprint.
func measureUnit(t *testing.T, method string, n, d, jobs int) (peak int64, est footprint) {
	t.Helper()
	data := largeDataset(n, d)
	s := study.Study{Protocols: []string{"clean"}, Datasets: []string{"large"}, Methods: []study.MethodSpec{{Name: method}}, Options: protocol.DefaultOptions()}
	load := func(context.Context, string) (*datasets.Dataset, error) { return data, nil }
	old := debug.SetGCPercent(largeGCPercent)
	defer debug.SetGCPercent(old)
	p := &startHeap{}
	r := &Runner{Load: load, OutDir: t.TempDir(), Jobs: jobs, Shard: study.Shard{Index: 0, Count: 5}, Progress: p, NoArtifacts: true}
	if _, err := r.Run(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	peak = p.sampler.end() - p.base
	ms, err := s.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	plan, err := r.planCache(s.Options).get(context.Background(), "clean", "large")
	if err != nil {
		t.Fatal(err)
	}
	runtime.KeepAlive(data)
	// As admitUnit: the fit's threads are -j or GOMAXPROCS if fewer.
	return peak, estimateFootprint(plan, ms[0], 0, max(1, min(jobs, runtime.GOMAXPROCS(0))))
}

// TestFootprintCovers holds the footprint model to measurements: one unit
// of CART and of FGRT (its grid chosen by inner cross-validation) on a
// clean fold peaks below its estimate. FGRT_FOOTPRINT_ROWS sets the rows
// (the figures in docs/performance.md are from 200000 rows × 20 inputs);
// the test runs a small size otherwise, and not in -short.
func TestFootprintCovers(t *testing.T) {
	if testing.Short() {
		t.Skip("fits thousands of rows: not in -short")
	}
	n := 20000
	if v := os.Getenv("FGRT_FOOTPRINT_ROWS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil {
			t.Fatal(err)
		}
	}
	const d = 20
	for _, c := range []struct {
		method string
		jobs   int
	}{{"cart", 1}, {"fgrt", 1}, {"cart", 2}, {"fgrt", 2}, {"cart", 8}, {"fgrt", 8}, {"cart", 16}, {"fgrt", 16}} {
		method := c.method
		// On more than one thread the unit is made large (demand.go), as
		// the units the budget is about are: a small unit's inner folds
		// run on the threads other units' workers would hold, with the
		// memory those units would have held (inner.go), which its own
		// estimate does not count.
		old := cellsPerThread
		if c.jobs > 1 {
			cellsPerThread = 1 << 10
		}
		// GOMAXPROCS -j, so that For lends a fit every thread of -j and
		// the per-thread buffers are measured on this machine too.
		prev := runtime.GOMAXPROCS(max(c.jobs, runtime.GOMAXPROCS(0)))
		peak, est := measureUnit(t, method, n, d, c.jobs)
		runtime.GOMAXPROCS(prev)
		cellsPerThread = old
		cells := float64(n) * 0.8 * d
		t.Logf("%s at -j %d on %d × %d: peak %.1f MB above the loaded data (%.2f bytes per training cell), estimate %.1f MB (shared %.1f, own %.1f)",
			method, c.jobs, n, d, float64(peak)/1e6, float64(peak)/cells, float64(est.total())/1e6, float64(est.shared)/1e6, float64(est.own)/1e6)
		if peak > est.total() {
			t.Errorf("%s at -j %d on %d × %d: peak %d bytes above its estimate %d", method, c.jobs, n, d, peak, est.total())
		}
	}
}
