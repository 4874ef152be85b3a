package runner

import "github.com/fgrtbench/fgrtbench/bench/protocol"

// Thread demand: how a study of a few large units keeps its peak memory
// where -j 2 would, whatever -j. A unit costs a fold's rows and a fit's
// working memory; a thread lent to a running fit costs almost nothing
// (the learners' parallel loops share their fit's data). So the runner
// starts another unit only while the units running leave threads their
// fits cannot use: each unit asks for the threads its fits can keep busy,
// one per cellsPerThread cells of its training rows (rows × inputs), at
// most half of -j, and units start while the running ones ask for no more
// than -j threads in all. A study of small units (every unit of the
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
// threads: 1 for a method whose fits run on one thread (not
// learn.Threaded) and for a unit below cellsPerThread, else one thread per
// cellsPerThread training cells, at most threads/2 (so that two large
// units run at once: one unit's fits leave threads idle in their serial
// stretches, which the other fills).
func threadDemand(plan *protocol.Plan, fi int, threaded bool, threads int) int {
	if !threaded || fi < 0 || fi >= len(plan.Folds) {
		return 1
	}
	cells := int64(plan.Folds[fi].NTrain()) * int64(len(plan.Schema.Features))
	want := (cells + cellsPerThread - 1) / cellsPerThread
	return int(max(1, min(want, int64(threads/2))))
}

// demand is fp's thread demand, at least 1.
func (fp footprint) demand() int { return max(1, fp.threads) }
