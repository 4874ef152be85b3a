package c45

import (
	"github.com/fgrtbench/fgrtbench/internal/par"
	"github.com/fgrtbench/fgrtbench/learn"
)

// A fit spreads over the free threads of its budget in two ways. A node's
// children (when no row goes down two branches, so that no two subtrees
// share a row) grow as one task each: J48 draws nothing at random and a
// subtree depends only on its rows, so subtrees can grow in any order and
// at the same time. A large node also evaluates its attributes one task
// each, writing attribute j's candidate to slot j, and J48's rule then
// reads the slots in attribute order as before. Small nodes do neither.
//
// Starting a task costs a goroutine and the wake-up of an idle thread,
// some 20-50 µs (cart's BenchmarkNodeWork, whose column scans have this
// shape: spreading one node's columns over 2 threads loses up to 2,000
// rows × 10 and wins from 5,000), hence minSpreadSearch (rows ×
// attributes). A subtree holds its root's work again at every level below
// it and pays from far smaller nodes: minSpreadChildren. A paper-size fit
// (ring, 5,920 × 20: BenchmarkFitSmall) spreads only its top levels.
// (Variables only so that tests can spread every node.)
var (
	minSpreadSearch   = 1 << 16
	minSpreadChildren = 1 << 14
)

// WithThreads returns a trainer with t's configuration whose fits spread
// large nodes and subtrees over the free threads of b (learn.Threaded).
// The models are those of t.
func (t *Trainer) WithThreads(b *par.Budget) learn.Trainer {
	u := *t
	u.threads = b
	return &u
}

var _ learn.Threaded = (*Trainer)(nil)

// useThreads sets the fit's budget and the pool of scratches sized to it.
func (b *builder) useThreads(threads *par.Budget) {
	b.threads = threads
	b.scratches = par.NewPool(func() *scratch { return b.newScratch() })
}

// spreads reports whether work of rows × tasks (tasks > 1) reaches the
// size min and the budget has more than one thread.
func (b *builder) spreads(rows, tasks, min int) bool {
	return b.threads.Threads() > 1 && tasks > 1 && rows*b.d >= min
}

// forColumns calls body(k) for k in [0, n), on the budget's free threads
// when rows × attributes reaches minSpreadSearch.
func (b *builder) forColumns(rows, n int, body func(k int)) {
	if !b.spreads(rows, n, minSpreadSearch) {
		for k := 0; k < n; k++ {
			body(k)
		}
		return
	}
	b.threads.For(n, body)
}

// scratch is the working memory of one node's search and partition, or of
// one attribute's evaluation in a spread search: the known values, weights
// and classes of a column in sorted order, class weights and counts either
// side of a cut, the best cut's bags, one distribution per nominal
// attribute, the attributes' candidates, and the right-hand rows of an
// in-place partition. The buffers sized by the node grow on demand.
type scratch struct {
	sv, sw      []float64
	sc          []int32
	tmp         []int32
	left, right []float64
	counts      []int
	numDist     *distribution
	nomDist     []*distribution
	cand        []candidate
	// unitWeights is set per node when every row has weight 1.
	unitWeights bool
}

func (b *builder) newScratch() *scratch {
	s := &scratch{
		left: make([]float64, b.nc), right: make([]float64, b.nc), counts: make([]int, 2*b.nc),
		numDist: newDistribution(2, b.nc), nomDist: make([]*distribution, b.d), cand: make([]candidate, b.d),
	}
	for j, nominal := range b.nominal {
		if nominal {
			s.nomDist[j] = newDistribution(b.numValues[j], b.nc)
		}
	}
	return s
}
