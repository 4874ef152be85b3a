package runner

import "github.com/fgrtbench/fgrtbench/bench/protocol"

// Thread demand: how a study of a few large units keeps its peak memory
// where -j 2 would, whatever -j. A unit costs a fold's rows and a fit's
// working memory; a thread lent to a running fit costs almost nothing
// (the learners' parallel loops share their fit's data). So the runner
// starts another unit only while the units running leave threads their
// fits cannot use: each unit asks for the threads its fits can keep busy,
// one per cellsPerThread cells of its training rows (rows × inputs), at
// most half of the CPUs it may run on, as a share of -j (threadDemand),
// and units start while the running ones ask for no more than -j threads
// in all. A study of small units (every unit of the
// paper's study asks for one thread) runs -j units at once, as before; a
// study of large units runs two at a time at any -j, each fit spreading
// over half the threads. Demand only decides when a unit starts, never
// what it computes: results are identical at any -j.

// cellsPerThread is the training cells per thread a unit asks for. The
// learners spread a fit from about 2^19 cells (CART's minSpeculativeFit;
// FGRT's and J48's thresholds are of the same order), and a unit below
// 2^20 asks for one thread: every unit of the paper's study (spambase's
// folds, the largest, hold 3,677 × 57 ≈ 2^18 cells). A variable only so
// that tests can make every unit large.
var cellsPerThread int64 = 1 << 20

// threadDemand is the thread demand of unit fi of plan on a budget of
// threads, on a runtime that runs procs goroutines at once
// (runtime.GOMAXPROCS): 1 for a method whose fits run on one thread (not
// learn.Threaded) and for a unit below cellsPerThread. A larger unit's fits
// keep busy one thread per cellsPerThread training cells, at most half of
// the threads that can run at once, min(threads, procs) (so that two large
// units run at once: one unit's fits leave threads idle in their serial
// stretches, which the other fills), and it asks for that share of the
// CPUs in threads of the budget. With procs >= threads that is the threads
// its fits keep busy, and never more than half of -j; with -j above the CPUs (-j 64 on two cores) it is
// more, since For lends no more helpers than the runtime runs
// (internal/par): asking for only the threads its fits could keep busy on
// 64 CPUs, four 10⁶-row units ran at once on two cores, each with its
// fold's rows, for no speed.
func threadDemand(plan *protocol.Plan, fi int, threaded bool, threads, procs int) int {
	if !threaded {
		return 1
	}
	cells := trainingCells(plan, fi)
	want := (cells + cellsPerThread - 1) / cellsPerThread
	if want <= 1 {
		return 1
	}
	cpus := int64(max(1, min(threads, procs)))
	busy := max(1, min(want, cpus/2))
	return int(max(1, min(busy*int64(threads)/cpus, int64(threads/2))))
}

// demand is fp's thread demand, at least 1.
func (fp footprint) demand() int { return max(1, fp.threads) }
