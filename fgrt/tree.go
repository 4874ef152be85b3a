package fgrt

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/fgrtbench/fgrtbench/fuzzy"
	"github.com/fgrtbench/fgrtbench/internal/npsum"
	"github.com/fgrtbench/fgrtbench/internal/par"
	"github.com/fgrtbench/fgrtbench/learn"
)

// GrowConfig holds the tree-growth settings (docs/fidelity.md#fgrt-growth).
type GrowConfig struct {
	// MaxRules stops growth once the tree has this many leaves (>= 1).
	MaxRules int `param:"max_rules"`
	// CoverageThreshold filters candidates whose coverage (membership mass /
	// training rows) is below it, and ends growth when no leaf can reach it.
	CoverageThreshold float64 `param:"coverage_threshold"`
	// MinImprovement is the reference's soft stop: an iteration whose best
	// gain is <= MinImprovement is a "bad cut"; the Patience-th bad cut
	// (cumulative) ends growth before splitting.
	MinImprovement float64 `param:"min_improvement"`
	Patience       int     `param:"patience"`
	// FixQ1 splits the node that actually holds the best candidate instead
	// of its depth-1 ancestor (the reference behaviour, quirk Q1).
	FixQ1 bool `param:"fix_q1"`
	// FixQ2 gives the root its majority class at inference even when growth
	// ended by a break (the reference predicts -1 there, quirk Q2).
	FixQ2 bool `param:"fix_q2"`
	// EarlyStopThreshold > 0 reproduces the reference's early_stop_threshold
	// (used only in its runtime study): a node's scan of candidates stops at
	// the first one that sets a new best with gain >= the threshold.
	EarlyStopThreshold float64 `param:"early_stop_threshold"`
}

// Validate reports invalid settings: values outside the bounds the
// parameters of Spec declare.
func (o GrowConfig) Validate() error {
	err := learn.CheckBounds(params,
		learn.Number{Name: "max_rules", Value: float64(o.MaxRules)},
		learn.Number{Name: "patience", Value: float64(o.Patience)},
		learn.Number{Name: "coverage_threshold", Value: o.CoverageThreshold},
		learn.Number{Name: "min_improvement", Value: o.MinImprovement},
		learn.Number{Name: "early_stop_threshold", Value: o.EarlyStopThreshold})
	if err != nil {
		return fmt.Errorf("fgrt: %v", err)
	}
	return nil
}

// node is one rule of the growing tree. Its firing strengths m and its
// candidate bookkeeping live only during growth.
type node struct {
	parent   int
	cond     int    // candidate index (feature, term) of the condition; -1 at the root
	path     string // the conditions from the root, the key of nodeSums
	depth    int
	children []int
	m        []float64    // firing strength per training row (class-grouped order); nil when encoded
	mc       packedColumn // m encoded, with the encoded membership store (read through grower.mOf)
	allowed  []bool       // per candidate: still usable below this node (father_path)
	used     []bool       // per candidate: already used for a child of this node
	pred     int
	coverage float64
	gain     float64 // gain of the candidate that created this node
	weights  []float64

	// Cached evaluation: the gain and the class of every candidate child
	// (-Inf where illegal or filtered). A node's firing strengths and legal
	// set never change, so after one of its candidates is used only the
	// choice among the others has to be redone (pick), not the sums.
	evaluated bool
	gains     []float64
	classes   []int32
	// Current best candidate among the unused ones.
	bestK    int
	bestGain float64
	bestCls  int

	// Cached "best possible coverage of this leaf reaches the threshold":
	// 0 unknown, 1 yes, 2 no.
	covReach int8
}

// grower holds the precomputed training data of one fit.
type grower struct {
	opt      GrowConfig
	n        int
	nClasses int
	// Rows are reordered so each class is contiguous: class k occupies
	// [start[k], start[k+1]). All per-row slices use this order.
	start []int
	// cands lists every (feature, term); mu holds their memberships.
	cands []cand
	mu    *memberships
	sums  map[string]*nodeSums // by node path, shared by the growths of one grower
	parts []fuzzy.Partition
	nodes []*node
	// slow disables the candidate cache (every node is re-evaluated each
	// iteration, as the reference does); used by tests to check the cache.
	slow bool
	// evaluations counts bestCandidate calls (for tests).
	evaluations int
	// With the encoded store, nodes keep their firing strengths encoded
	// too (most are 0 below the root: on 10^6 rows they were a fifth of a
	// fit's memory) and mOf decodes them into one of two buffers; a
	// node's strengths are read node by node, so each is decoded about
	// once per use.
	mcache [2]decodeSlot
	mnext  int
	// sup is the support of the node last evaluated (support.go).
	sup support
	// threads is the fit's CPU budget (nil: serial); supMu holds the
	// scratch memberships of the support of candidates evaluated at once.
	threads *par.Budget
	supMu   *par.Pool[[]float64]
}

// decodeSlot is a buffer of decoded firing strengths and the node whose
// strengths it holds (nil: none).
type decodeSlot struct {
	nd  *node
	buf []float64
}

// mOf returns the node's firing strengths: its own slice, or, encoded,
// a decoded buffer that stays valid until mOf decodes two other nodes.
func (g *grower) mOf(nd *node) []float64 {
	if nd.m != nil || !g.mu.encoded {
		return nd.m
	}
	for i := range g.mcache {
		if g.mcache[i].nd == nd {
			return g.mcache[i].buf
		}
	}
	slot := g.claimSlot(nil)
	nd.mc.decodeInto(slot.buf)
	slot.nd = nd
	return slot.buf
}

// claimSlot takes a decoding buffer not holding keep's strengths.
func (g *grower) claimSlot(keep *node) *decodeSlot {
	if keep != nil && g.mcache[g.mnext].nd == keep {
		g.mnext ^= 1
	}
	slot := &g.mcache[g.mnext]
	g.mnext ^= 1
	if slot.buf == nil {
		slot.buf = make([]float64, g.n)
	}
	slot.nd = nil
	return slot
}

// setM gives the node the firing strengths m (fresh, or a decoding
// buffer just claimed), encoding them with the encoded store.
func (g *grower) setM(nd *node, m []float64, slot *decodeSlot) {
	if !g.mu.encoded {
		nd.m = m
		return
	}
	nd.mc = g.encodeStrengths(m)
	slot.nd = nd
}

type cand struct{ feature, term int }

// errNoPartitions is the input error of a fit with no feature to split
// on: no partitions given and none to fit.
var errNoPartitions = errors.New("fgrt: no partitions")

// partitionFitter fits feature j's partition on the feature's training
// values, given in no particular order (it must not keep or change them),
// with scratch (as long as col) to work in.
type partitionFitter func(j int, col, scratch []float64) (fuzzy.Partition, error)

// newGrower validates inputs and precomputes memberships. With parts nil,
// fit supplies the d partitions, fitted on the columns the memberships are
// computed from, so that the training matrix is read once per feature.
// The features are gathered, fitted and evaluated on the free threads of
// threads (nil: serially) when the data is large (spreads).
func newGrower(X [][]float64, y []int, nClasses int, parts []fuzzy.Partition, d int, fit partitionFitter, opt GrowConfig, threads *par.Budget) (*grower, error) {
	terms, err := checkGrowInputs(X, y, nClasses, parts, &d, opt)
	if err != nil {
		return nil, err
	}
	n := len(X)
	g := &grower{opt: opt, n: n, nClasses: nClasses, sums: map[string]*nodeSums{}, threads: threads}
	g.start = classStarts(y, nClasses)
	if parts == nil {
		parts = make([]fuzzy.Partition, d)
	} else {
		fit = nil
	}
	g.parts = parts
	g.mu = newMemberships(n, g.start, terms*n*8 > denseLimit)
	if err := g.addFeatures(X, classPositions(y, g.start), fit); err != nil {
		return nil, err
	}
	return g, nil
}

// checkGrowInputs validates the inputs of newGrower and returns the number
// of candidates to size the store by; with parts given, d becomes their
// number.
func checkGrowInputs(X [][]float64, y []int, nClasses int, parts []fuzzy.Partition, d *int, opt GrowConfig) (int, error) {
	if err := opt.Validate(); err != nil {
		return 0, err
	}
	n := len(X)
	if n == 0 {
		return 0, errors.New("fgrt: no training rows")
	}
	if len(y) != n {
		return 0, fmt.Errorf("fgrt: %d rows but %d labels", n, len(y))
	}
	terms := 3 * *d // the usual number; only the storage choice depends on it
	if parts != nil {
		*d, terms = len(parts), 0
		for _, p := range parts {
			terms += len(p.Terms)
		}
	}
	if *d == 0 {
		return 0, errNoPartitions
	}
	if nClasses < 1 {
		return 0, errors.New("fgrt: need at least one class")
	}
	for i, row := range X {
		if len(row) != *d {
			return 0, fmt.Errorf("fgrt: row %d has %d columns, partitions cover %d", i, len(row), *d)
		}
		if y[i] < 0 || y[i] >= nClasses {
			return 0, fmt.Errorf("fgrt: row %d has class %d, want 0..%d", i, y[i], nClasses-1)
		}
	}
	for j, p := range parts {
		if len(p.Terms) == 0 {
			return 0, fmt.Errorf("fgrt: partition of column %d has no terms", j)
		}
	}
	return terms, nil
}

// classStarts is the stable counting sort of the rows by class: class k
// occupies [start[k], start[k+1]).
func classStarts(y []int, nClasses int) []int {
	start := make([]int, nClasses+1)
	for _, k := range y {
		start[k+1]++
	}
	for k := 0; k < nClasses; k++ {
		start[k+1] += start[k]
	}
	return start
}

// classPositions returns pos[i], row i's place in class order: the
// columns are gathered in row order and scattered by it (reading X in
// order is the cheaper side on large data). int32 halves this index.
func classPositions(y []int, start []int) []int32 {
	pos := make([]int32, len(y))
	next := append([]int(nil), start[:len(start)-1]...)
	for i, k := range y {
		pos[i] = int32(next[k])
		next[k]++
	}
	return pos
}

// featureBuffers is the working space of one feature's evaluation.
type featureBuffers struct{ col, scratch []float64 }

// featureResult is what one feature adds to the grower.
type featureResult struct {
	cands []candMemberships
	safe  bool
	err   error
}

// addFeatures gathers every feature's column in class order, fits its
// partition (fit non-nil) and adds its candidates, feature by feature or
// on several threads; the results are combined in feature order, so the
// candidates, and the error returned (the first feature's), are the
// serial ones.
func (g *grower) addFeatures(X [][]float64, pos []int32, fit partitionFitter) error {
	res := make([]featureResult, len(g.parts))
	// A column and a scratch column per thread at work; the first scratch
	// is the store's (its decoding buffer, idle until growth). Dense
	// memberships of given partitions need no scratch.
	scratch := func() []float64 {
		if !g.mu.encoded && fit == nil {
			return nil
		}
		return make([]float64, g.n+1)
	}
	cols := par.NewPool(func() featureBuffers { return featureBuffers{make([]float64, g.n), scratch()} })
	first := featureBuffers{col: make([]float64, g.n)}
	if g.mu.encoded || fit != nil {
		first.scratch = g.mu.scratchColumn()
	}
	cols.Put(first)
	g.spread(len(g.parts), func(f int) {
		b := cols.Get()
		defer cols.Put(b)
		res[f] = g.feature(X, pos, f, fit, b.col, b.scratch)
	})
	for f, r := range res {
		if r.err != nil {
			return r.err
		}
		for t := range r.cands {
			g.cands = append(g.cands, cand{f, t})
		}
		g.mu.cands = append(g.mu.cands, r.cands...)
		g.mu.sparseOK = g.mu.sparseOK && r.safe
	}
	return nil
}

// feature gathers feature f's column into col, fits its partition with
// fit (when non-nil) and evaluates the candidates of its terms.
func (g *grower) feature(X [][]float64, pos []int32, f int, fit partitionFitter, col, scratch []float64) featureResult {
	for i, row := range X {
		v := row[f]
		if v != v {
			return featureResult{err: firstMissing(X)}
		}
		col[pos[i]] = v
	}
	if fit != nil {
		p, err := fit(f, col, scratch[:g.n])
		if err != nil {
			return featureResult{err: err}
		}
		if len(p.Terms) == 0 {
			return featureResult{err: fmt.Errorf("fgrt: partition of column %d has no terms", f)}
		}
		g.parts[f] = p
	}
	var r featureResult
	r.cands, r.safe = g.mu.featureCandidates(col, g.parts[f], scratch)
	return r
}

// errMissing marks the error of a missing training value.
var errMissing = errors.New("training rows must be complete")

// firstMissing reports the first missing value (NaN) of X in row order.
func firstMissing(X [][]float64) error {
	for i, row := range X {
		for j, v := range row {
			if math.IsNaN(v) {
				return fmt.Errorf("fgrt: row %d column %d is missing (NaN); %w", i, j, errMissing)
			}
		}
	}
	return nil
}

// muOf returns candidate k's memberships, valid until the next call.
func (g *grower) muOf(k int) []float64 { return g.mu.of(k) }

// classSums fills w with the per-class sums of a, or with cand >= 0 of a
// times that candidate's memberships, and returns their total.
func (g *grower) classSums(a []float64, cand int, w []float64) float64 {
	total := 0.0
	for k := 0; k < g.nClasses; k++ {
		if cand < 0 {
			w[k] = npsum.Sum(a[g.start[k]:g.start[k+1]])
		} else {
			w[k] = g.mu.dot(cand, a, k)
		}
		total += w[k]
	}
	return total
}

// gini is the fuzzy Gini index of class weights w with the given total
// (+Inf for an empty set): 1 - sum_k (w_k/total)^2.
func gini(w []float64, total float64) float64 {
	if total == 0 {
		return math.Inf(1)
	}
	s := 0.0
	for _, v := range w {
		p := v / total
		s += float64(p * p)
	}
	return 1.0 - s
}

// argmaxFirst returns the index of the largest value, the first on ties.
func argmaxFirst(w []float64) int {
	best := 0
	for k := 1; k < len(w); k++ {
		if w[k] > w[best] {
			best = k
		}
	}
	return best
}

// evaluate computes the gain of every candidate child of the node
// (docs/fidelity.md#best-candidate-of-a-node) and picks the best.
func (g *grower) evaluate(nd *node) {
	g.evaluations++
	nd.evaluated = true
	nc := len(g.cands)
	if nd.gains == nil {
		nd.gains = make([]float64, nc)
		nd.classes = make([]int32, nc)
	}
	thr := g.opt.CoverageThreshold
	nf := float64(g.n)
	e := g.sumsOf(nd)
	father := math.Inf(1)
	if e.total != 0 && !(e.total/nf < thr) {
		father = gini(e.w, e.total)
	}
	// With father = +Inf (coverage below the threshold or no mass) every
	// child is filtered or has gain -Inf or NaN: none can win.
	usable := func(k int) bool { return !math.IsInf(father, 1) && nd.allowed[k] && !nd.used[k] }
	g.fillChildSums(nd, e, usable)
	for k := range g.cands {
		nd.gains[k], nd.classes[k] = math.Inf(-1), -1
		if !usable(k) {
			continue
		}
		ct, wk := g.childSums(nd, e, k)
		if ct/nf < thr {
			continue
		}
		if gain := father - gini(wk, ct); gain > math.Inf(-1) {
			nd.gains[k], nd.classes[k] = gain, classPending
		}
	}
	g.pick(nd)
}

// fillChildSums computes the class sums of the usable candidates whose
// sums are not cached yet on the free threads of the fit's budget, one
// candidate per loop index, when the data is large (spread); serially,
// evaluate computes them in its own loop. A candidate's sums are the same
// function of the node's strengths and its memberships either way.
func (g *grower) fillChildSums(nd *node, e *nodeSums, usable func(k int) bool) {
	if g.threads == nil || g.n < parallelRows {
		return
	}
	var todo []int
	for k := range g.cands {
		if usable(k) && !e.have[k] {
			todo = append(todo, k)
		}
	}
	if len(todo) < 2 {
		return
	}
	// The node's strengths and support are settled before the loop:
	// decoding and building them touch the grower's shared buffers.
	sp := g.supportOf(nd)
	var m []float64
	if sp == nil {
		m = g.mOf(nd)
	} else if g.supMu == nil {
		g.supMu = par.NewPool(func() []float64 { return make([]float64, 0, cap(g.sup.mu)) })
	}
	c := g.nClasses
	g.spread(len(todo), func(i int) {
		k := todo[i]
		wk := e.wk[k*c : (k+1)*c]
		if sp == nil {
			e.ct[k] = g.classSums(m, k, wk)
		} else {
			// Each candidate gathers its memberships into scratch of
			// its own; the support's rows and strengths are shared.
			own := *sp
			own.mu = g.supMu.Get()[:len(sp.rows)]
			e.ct[k] = g.mu.dotSupport(k, &own, wk)
			g.supMu.Put(own.mu[:0])
		}
		e.have[k] = true
	})
}

// nodeSums caches the class sums of a node's firing strengths and of each
// candidate child's. They depend only on the node's path (its firing
// strengths are the product of the path's memberships, in path order), so
// the growths of one FitGroup, which differ in the coverage threshold and
// so in their trees, share them wherever their paths agree.
type nodeSums struct {
	total float64
	w     []float64 // per class
	have  []bool    // per candidate
	ct    []float64 // per candidate: child total
	wk    []float64 // per candidate and class
}

func (g *grower) sumsOf(nd *node) *nodeSums {
	e := g.sums[nd.path]
	if e == nil || g.slow {
		nc, c := len(g.cands), g.nClasses
		e = &nodeSums{w: make([]float64, c), have: make([]bool, nc), ct: make([]float64, nc), wk: make([]float64, nc*c)}
		e.total = g.classSums(g.mOf(nd), -1, e.w)
		g.sums[nd.path] = e
	}
	return e
}

// childSums returns candidate k's child total and class sums at the node.
func (g *grower) childSums(nd *node, e *nodeSums, k int) (float64, []float64) {
	c := g.nClasses
	wk := e.wk[k*c : (k+1)*c]
	if !e.have[k] {
		if sp := g.supportOf(nd); sp != nil {
			e.ct[k] = g.mu.dotSupport(k, sp, wk)
		} else {
			e.ct[k] = g.classSums(g.mOf(nd), k, wk)
		}
		e.have[k] = true
	}
	return e.ct[k], wk
}

// supportOf returns the node's support when its class sums are to be
// taken over it, or nil for the dense dot (a store that is not sparseOK,
// or a node with too few zero strengths).
func (g *grower) supportOf(nd *node) *support {
	if !g.mu.sparseOK {
		return nil
	}
	if g.sup.nd != nd {
		g.sup.nd = nd
		g.sup.ok = g.sup.build(g.mOf(nd), g.start)
	}
	if !g.sup.ok {
		return nil
	}
	return &g.sup
}

// classPending marks a candidate whose class has not been computed yet.
const classPending = -2

// childClass is the reference's _majority_class of a prospective child:
// np.bincount with weights, i.e. per-class sums accumulated sequentially
// in row order (not numpy's pairwise sum), then the first maximum. The
// summation order matters when two classes have equal weight in exact
// arithmetic, as happens on discrete data.
func (g *grower) childClass(m, mu []float64) int {
	best, bestW := 0, math.Inf(-1)
	for k := 0; k < g.nClasses; k++ {
		s := 0.0
		for i := g.start[k]; i < g.start[k+1]; i++ {
			s += float64(m[i] * mu[i])
		}
		if s > bestW {
			best, bestW = k, s
		}
	}
	return best
}

// pick selects the node's best unused candidate from its cached gains:
// the first in (feature, term) order with the largest gain (strict >), or,
// with an early-stop threshold, the first new best that reaches it.
func (g *grower) pick(nd *node) {
	nd.bestK, nd.bestGain, nd.bestCls = -1, math.Inf(-1), -1
	early := g.opt.EarlyStopThreshold
	for k, gain := range nd.gains {
		if !nd.used[k] && gain > nd.bestGain {
			nd.bestK, nd.bestGain = k, gain
			if early > 0 && gain >= early {
				break
			}
		}
	}
	if k := nd.bestK; k >= 0 {
		if nd.classes[k] == classPending {
			nd.classes[k] = int32(g.childClassOf(nd, k))
		}
		nd.bestCls = int(nd.classes[k])
	}
}

// search is the reference's global best-first search
// (docs/fidelity.md#choosing-the-node-to-split).
func (g *grower) search(id int) (float64, int) {
	nd := g.nodes[id]
	if g.slow || !nd.evaluated {
		g.evaluate(nd)
	}
	bestG, bestN := nd.bestGain, id
	for _, ch := range nd.children {
		cg, cn := g.search(ch)
		if cg > bestG {
			bestG = cg
			if g.opt.FixQ1 {
				bestN = cn
			} else {
				bestN = ch
			}
		}
	}
	return bestG, bestN
}

// split adds the node's cached candidate as a new child
// (docs/fidelity.md#executing-a-split).
func (g *grower) split(id int, leaves *int) {
	p := g.nodes[id]
	k := p.bestK
	p.used[k] = true
	if len(p.children) > 0 {
		*leaves++
	}
	n := g.n
	ch := &node{parent: id, cond: k, depth: p.depth + 1, pred: p.bestCls, gain: p.bestGain,
		path: p.path + string(binary.AppendUvarint(nil, uint64(k)))}
	pm := g.mOf(p)
	var slot *decodeSlot
	var m []float64
	if g.mu.encoded {
		slot = g.claimSlot(p)
		m = slot.buf
	} else {
		m = make([]float64, n)
	}
	g.childStrengths(m, pm, k)
	g.setM(ch, m, slot)
	ch.allowed = append([]bool(nil), p.allowed...)
	ch.allowed[k] = false
	ch.used = make([]bool, len(g.cands))
	ch.weights = make([]float64, g.nClasses)
	ch.coverage = g.classSums(m, -1, ch.weights) / float64(n)
	p.children = append(p.children, len(g.nodes))
	g.pick(p) // its used set changed; its gains did not
	g.nodes = append(g.nodes, ch)
}

// leafReaches reports whether the leaf's "best possible coverage" is at
// least the threshold: over the rows where the leaf's path product exceeds
// 1e-10, the mean membership of some term of some feature
// (docs/fidelity.md#main-loop-and-stopping-rules).
func (g *grower) leafReaches(nd *node) bool {
	if nd.covReach != 0 {
		return nd.covReach == 1
	}
	thr := g.opt.CoverageThreshold
	nd.covReach = 2
	for k := range g.cands {
		s, rows := g.mu.sumWhere(k, g.mOf(nd), 1e-10)
		if rows == 0 {
			return false
		}
		if s/float64(rows) >= thr {
			nd.covReach = 1
			return true
		}
	}
	return false
}

// bestCoverageReaches reports whether bestPossibleCoverage() >= threshold.
func (g *grower) bestCoverageReaches() bool {
	if g.opt.CoverageThreshold <= 0 {
		return true // the maximum is >= 0 always
	}
	for _, nd := range g.nodes {
		if len(nd.children) == 0 && g.leafReaches(nd) {
			return true
		}
	}
	return false
}

// stopRule is one configuration's stopping rule on a shared growth: the
// settings that decide only when growth ends, never which split comes next
// (max_rules, min_improvement, patience), its patience count, and where it
// stopped.
type stopRule struct {
	maxRules int
	minImp   float64
	patience int

	bad  int
	done bool
	brk  bool     // stopped by a break (patience exhausted or no candidate)
	snap snapshot // the tree when it stopped
}

// snapshot is the tree grown so far: its first nodes and, per node, how
// many children it had (nodes only ever gain children, at the end).
type snapshot struct {
	children []int
}

func (g *grower) snapshot() snapshot {
	s := snapshot{children: make([]int, len(g.nodes))}
	for i, nd := range g.nodes {
		s.children[i] = len(nd.children)
	}
	return s
}

// grow runs the main loop (docs/fidelity.md#main-loop-and-stopping-rules) once for several stopping rules:
// the growth is the same for all of them (every choice depends on the
// coverage threshold, Q1 and early stop, which they share), so each rule
// takes the tree as it stands at the iteration where its own loop would
// have ended, with the reference's end condition: max_rules leaves or no
// leaf reaching the coverage threshold (not a break), the patience-th
// low-gain iteration or no candidate (a break).
func (g *grower) grow(rules []*stopRule) {
	g.nodes = []*node{g.root()}
	active := len(rules)
	stop := func(r *stopRule, brk bool) {
		r.done, r.brk, r.snap = true, brk, g.snapshot()
		active--
	}
	if g.singleClass() {
		// Deviation (package doc): one leaf, not the reference's patience-1
		// zero-gain children of that class and (Q2) a root predicting -1.
		for _, r := range rules {
			stop(r, false)
		}
		return
	}
	leaves := 1
	covOK := true
	for {
		for _, r := range rules {
			if !r.done && !(leaves < r.maxRules && covOK) {
				stop(r, false)
			}
		}
		if active == 0 {
			return
		}
		gain, id := g.search(0)
		for _, r := range rules {
			if !r.done && gain <= r.minImp {
				if r.bad++; r.bad >= r.patience {
					stop(r, true)
				}
			}
		}
		if active > 0 && g.nodes[id].bestK < 0 {
			for _, r := range rules {
				if !r.done {
					stop(r, true)
				}
			}
		}
		if active == 0 {
			return
		}
		g.split(id, &leaves)
		covOK = g.bestCoverageReaches()
	}
}

// root returns the tree's root: firing strength 1 on every row, every
// candidate allowed.
func (g *grower) root() *node {
	nc := len(g.cands)
	root := &node{parent: -1, cond: -1, pred: -1, coverage: 1, gain: math.NaN()}
	var slot *decodeSlot
	var m []float64
	if g.mu.encoded {
		slot = g.claimSlot(nil)
		m = slot.buf
	} else {
		m = make([]float64, g.n)
	}
	for i := range m {
		m[i] = 1
	}
	g.setM(root, m, slot)
	root.allowed = make([]bool, nc)
	for k := range root.allowed {
		root.allowed[k] = true
	}
	root.used = make([]bool, nc)
	root.weights = make([]float64, g.nClasses)
	g.classSums(m, -1, root.weights)
	return root
}

// singleClass reports whether all training rows have the same class.
func (g *grower) singleClass() bool {
	for k := 0; k < g.nClasses; k++ {
		if g.start[k+1]-g.start[k] == g.n {
			return true
		}
	}
	return false
}
