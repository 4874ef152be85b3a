package runner

import (
	"cmp"
	"slices"

	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/bench/study"
)

// Dispatch order: the largest units first. The workers take units in the
// order they are handed out, so the last units to start decide how long
// the study's tail is, when fewer units remain than threads. In canonical
// order (protocol, dataset, method, fold) the paper study ends with the
// clean protocol's spambase units, the longest of all (FuzzyCART's take
// 1.5-1.6 s each at -j 1 on the development machine, against 3.4 ms for
// the median unit); on the 16-core machine that tail held the study's
// efficiency at -j 16 to 69 %. Handing out the units with the most
// training cells first (longest-processing-time first, with the training
// cells standing for a unit's time) leaves the small units for the tail:
// replaying the 1,450 units' measured -j 1 times on 16 simulated workers
// (FGRTBENCH_UNIT_TIMES, scripts/replay-schedule.sh) gives 3.83 s in
// canonical order, 2.94 s largest first, and 2.86 s for the ideal
// 45.8 s / 16 (docs/performance.md#on-16-cores).
//
// Only the order in which units start changes: each unit computes the
// same rows whenever it runs, and results.csv and the artifacts are
// written in canonical order whatever the order units finish in, as at
// any -j.

// foldIndex is unit u's fold in its plan's Folds: its repeat's folds come
// after those of the repeats before it.
func foldIndex(u study.Unit, nFolds int) int { return u.Repeat*nFolds + u.Fold }

// trainingCells is the number of cells of fold fi's training rows (rows ×
// inputs), what the thread demand and the dispatch order measure a unit
// by; 0 for a fold the plan does not have.
func trainingCells(plan *protocol.Plan, fi int) int64 {
	if fi < 0 || fi >= len(plan.Folds) {
		return 0
	}
	return int64(plan.Folds[fi].NTrain()) * int64(len(plan.Schema.Features))
}

// ordered is a pending unit with its canonical position and its training
// cells, in the order units are handed out.
type ordered struct {
	study.Unit
	canonical int
	cells     int64
}

// largestFirst returns units ordered by cells, largest first; units of
// equal cells keep their order (canonical, as units come).
func largestFirst(units []study.Unit, cells func(study.Unit) int64) []ordered {
	all := make([]ordered, len(units))
	for i, u := range units {
		all[i] = ordered{Unit: u, canonical: i, cells: cells(u)}
	}
	slices.SortStableFunc(all, func(a, b ordered) int { return cmp.Compare(b.cells, a.cells) })
	return all
}
