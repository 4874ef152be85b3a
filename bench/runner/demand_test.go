package runner

import (
	"fmt"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/learn"
)

// planOf is a plan with one fold of ntrain training rows of p inputs
// (only what threadDemand reads).
func planOf(ntrain, p int) *protocol.Plan {
	f := protocol.Fold{YTrain: make([]int, ntrain)}
	return &protocol.Plan{Schema: learn.Schema{Features: make([]learn.Feature, p)}, Folds: []protocol.Fold{f}}
}

// TestThreadDemand pins the demand of the units that matter: every unit of
// the paper's study asks for one thread at any -j (so it runs -j units at
// once, as before the demand), the 10⁶ × 20 study's units (800,000
// training rows) ask for half of -j, and a serial method always asks
// for one.
func TestThreadDemand(t *testing.T) {
	cases := []struct {
		name           string
		ntrain, p      int
		threaded       bool
		threads, procs int // -j, GOMAXPROCS
		demand         int
	}{
		{"spambase fold, the paper's largest", 3678, 57, true, 16, 16, 1},
		{"ring fold", 4736, 20, true, 64, 64, 1},
		{"just one thread's cells", 1 << 15, 32, true, 16, 16, 1},
		{"one cell more", 1<<15 + 1, 32, true, 16, 16, 2},
		{"10⁶ study at -j 16", 800000, 20, true, 16, 16, 8},
		{"10⁶ study at -j 4", 800000, 20, true, 4, 4, 2},
		{"10⁶ study at -j 3", 800000, 20, true, 3, 3, 1},
		{"10⁶ study at -j 2", 800000, 20, true, 2, 2, 1},
		{"10⁶ study at -j 1", 800000, 20, true, 1, 1, 1},
		{"10⁶ study at -j 64", 800000, 20, true, 64, 64, 16},
		{"serial method", 800000, 20, false, 16, 16, 1},
		// -j above the CPUs: a large unit asks for half the CPUs' share
		// of -j, so two run at once, not four at -j 64 on two cores.
		{"10⁶ study at -j 64 on 2 CPUs", 800000, 20, true, 64, 2, 32},
		{"10⁶ study at -j 64 on 16 CPUs", 800000, 20, true, 64, 16, 32},
		{"10⁶ study at -j 16 on 2 CPUs", 800000, 20, true, 16, 2, 8},
		{"10⁶ study at -j 3 on 2 CPUs", 800000, 20, true, 3, 2, 1},
		{"10⁶ study at -j 2 on 1 CPU", 800000, 20, true, 2, 1, 1},
		{"two threads' cells at -j 64 on 2 CPUs", 1<<15 + 1, 32, true, 64, 2, 32},
		{"ring fold at -j 64 on 2 CPUs", 4736, 20, true, 64, 2, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := threadDemand(planOf(c.ntrain, c.p), 0, c.threaded, c.threads, c.procs); got != c.demand {
				t.Errorf("threadDemand(%d × %d, threaded %v, -j %d, GOMAXPROCS %d) = %d, want %d", c.ntrain, c.p, c.threaded, c.threads, c.procs, got, c.demand)
			}
		})
	}
	if got := threadDemand(planOf(800000, 20), 3, true, 16, 16); got != 1 {
		t.Errorf("a fold index outside the plan asks for %d threads, want 1", got)
	}
}

// TestAdmissionWithinThreads: on a budget of threads, the units running at
// once never ask for more than it, yet as many run as it allows: two large
// units at a time at -j 16, sixteen small ones, and a mix fills the
// threads two large units leave.
func TestAdmissionWithinThreads(t *testing.T) {
	units := func(n, demand int) []footprint {
		fps := make([]footprint, n)
		for i := range fps {
			fps[i] = footprint{own: 10, threads: demand}
		}
		return fps
	}
	cases := []struct {
		threads  int
		fps      []footprint
		wantMost int // 0: not checked
	}{
		{16, units(10, 8), 2},
		{16, units(20, 1), 16},
		{2, units(6, 1), 2},
		{1, units(3, 1), 1},
		{16, append(units(2, 4), units(8, 1)...), 10},
		{16, append(units(2, 8), units(3, 1)...), 0}, // the small ones start as each large one ends
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("j%d_%dunits_first%d", c.threads, len(c.fps), c.fps[0].threads), func(t *testing.T) {
			tr, _ := runAdmitted(t, 1<<40, c.threads, c.fps, c.wantMost)
			if c.wantMost > 0 && tr.most != c.wantMost {
				t.Errorf("at most %d units ran at once, want %d (events %v)", tr.most, c.wantMost, tr.events)
			}
			if tr.mostAsked > c.threads {
				t.Errorf("running units asked for %d threads of %d", tr.mostAsked, c.threads)
			}
		})
	}
}
