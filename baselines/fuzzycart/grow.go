package fuzzycart

import (
	"math"
	"math/bits"
	"strconv"

	"github.com/fgrtbench/fgrtbench/fuzzy"
	"github.com/fgrtbench/fgrtbench/internal/nprand"
	"github.com/fgrtbench/fgrtbench/internal/npsum"
	"github.com/fgrtbench/fgrtbench/internal/par"
)

// cand is one (feature, term) split of the reference's loops, which run
// over features, then terms, in index order.
type cand struct{ f, t int }

// node is one node of the reference's tree dictionary.
type node struct {
	name     string // "root", then "_F<feature>_L<term>" per condition
	depth    int
	parent   int
	cand     int       // the condition that created it; -1 at the root
	m        []float64 // existing_membership over the training rows
	father   []bool    // father_path: candidates still usable below
	splits   []bool    // child_splits: candidates not yet used here
	pred     int       // -1 at the root until fit ends
	children []int     // in creation order
	coverage float64
	quality  float64 // split criterion of the split that created it
	removed  bool    // pruned away

	// aux_purity_cache of the last split search.
	auxK     int
	auxCrit  float64
	auxChild int

	// stats caches what a node's split search computes per candidate that
	// does not change while the tree grows (its memberships and legal set
	// only shrink); nil until the first search without sampling.
	stats []candStats
}

// candStats is one candidate child's evaluation on the whole training set.
type candStats struct {
	legal    bool
	coverage float64 // np.sum(child) / n
	purity   float64 // compute_fuzzy_purity(child, y, coverage_threshold)
	class    int     // _majority_class(y, child)
	// For the cci path: the rows whose child membership exceeds 0.01 (the
	// rows a split relabels) as a bitset, and how many of them have the
	// child's class.
	sig    []uint64
	sigHit int
}

// groups lists the classes present in a label vector (np.unique order) and
// its positions grouped by class, stable: the order of y[y == cls].
type groups struct {
	classes []int
	pos     []int32
	start   []int
}

func newGroups(y []int, nClasses int) groups {
	count := make([]int, nClasses+1)
	for _, k := range y {
		count[k+1]++
	}
	var g groups
	for k := 0; k < nClasses; k++ {
		if count[k+1] > 0 {
			g.classes = append(g.classes, k)
		}
	}
	for k := 0; k < nClasses; k++ {
		count[k+1] += count[k]
	}
	g.pos = make([]int32, len(y))
	next := append([]int(nil), count[:nClasses]...)
	for i, k := range y {
		g.pos[next[k]] = int32(i)
		next[k]++
	}
	for _, k := range g.classes {
		g.start = append(g.start, count[k])
	}
	g.start = append(g.start, len(y))
	return g
}

// grower holds one fit.
type grower struct {
	cfg      Config
	n        int
	y        []int
	nClasses int
	parts    []fuzzy.Partition
	cands    []cand
	mu       [][]float64 // per candidate, over the training rows
	all      groups      // classes of the whole training set (classes_)
	nodes    []*node
	rules    int // tree_rules: the leaf count
	rng      *nprand.RandomState
	sampling bool

	// cache is the reference's _cached_all_nodes: the prediction list built
	// by the first prediction after a split, nil once a split invalidates
	// it. Its node classes are copies taken when it was built.
	cache []cacheEntry

	// scratch
	buf, prod, cs, sq []float64

	// threads is the fit's CPU budget (nil: serial); workers holds copies
	// of the grower with scratch of their own for spread loops.
	threads *par.Budget
	workers *par.Pool[*grower]
}

// cacheEntry is one node of _cached_all_nodes.
type cacheEntry struct {
	node int
	pred int
}

func grow(X [][]float64, y []int, nClasses int, parts []fuzzy.Partition, cfg Config, seed uint32, threads *par.Budget) *Model {
	n := len(X)
	g := &grower{cfg: cfg, n: n, y: y, nClasses: nClasses, parts: parts, threads: threads}
	for f, p := range parts {
		for t := range p.Terms {
			g.cands = append(g.cands, cand{f, t})
		}
	}
	g.mu = make([][]float64, len(g.cands))
	g.spreadRows(n, len(g.cands), func(k int) {
		c := g.cands[k]
		g.mu[k] = make([]float64, n)
		membershipsInto(g.mu[k], X, c.f, parts[c.f].Terms[c.t])
	})
	g.all = newGroups(y, nClasses)
	switch cfg.SampleForSplits {
	case SampleOn:
		g.sampling = true
	case SampleAuto:
		g.sampling = n > autoSampleRows
	}
	g.sampling = g.sampling && n > cfg.SampleSize
	if g.sampling {
		g.rng = nprand.New(seed)
	}
	g.buf = make([]float64, n)
	g.prod = make([]float64, n)
	g.cs = make([]float64, nClasses)
	g.sq = make([]float64, nClasses)
	brk := g.build()
	if cfg.ApplyCCPAlpha {
		g.prune(cfg.CCPAlpha)
	}
	return g.model(brk)
}

// build is _build_tree; it reports whether growth ended by a break.
func (g *grower) build() bool {
	ones := make([]float64, g.n)
	for i := range ones {
		ones[i] = 1
	}
	nc := len(g.cands)
	root := &node{name: "root", parent: -1, cand: -1, m: ones, pred: -1, coverage: 1,
		father: trues(nc), splits: trues(nc), quality: math.NaN()}
	g.nodes = []*node{root}
	g.rules = 1
	// best_coverage_achievable starts at 1.0 and is only ever compared
	// with the threshold.
	coverageOK := 1.0 >= g.cfg.CoverageThreshold
	bad := 0
	brk := false
	for g.rules < g.cfg.MaxRules && coverageOK {
		// predict_with_path(X) at the start of every iteration after a
		// split builds the all-nodes cache (with the root's class -1).
		if g.cache == nil {
			g.cache = g.allNodes()
		}
		var best float64
		var id int
		if g.cfg.Metric == Purity {
			best, id = g.searchPurity(0)
		} else {
			best, id, _ = g.searchCCI(0, g.predictTraining())
		}
		if best <= g.cfg.MinImprovement {
			bad++
			if bad >= g.cfg.Patience {
				brk = true
				break
			}
		}
		if g.nodes[id].auxK < 0 {
			brk = true
			break
		}
		g.split(id)
		coverageOK = g.bestCoverageReaches()
		g.cache = nil
	}
	// The root's class becomes the (unweighted) training majority; a
	// cache built before (a break) keeps the old -1 (FGRT's Q2).
	g.nodes[0].pred = g.majority(g.nodes[0].m, g.all)
	return brk
}

func trues(n int) []bool {
	b := make([]bool, n)
	for i := range b {
		b[i] = true
	}
	return b
}

// legal reports whether candidate k may split node nd: father_path and
// child_splits both allow it (and, with fix_max_depth, nd is above
// max_depth).
func (g *grower) legal(nd *node, k int) bool {
	if g.cfg.FixMaxDepth && nd.depth >= g.cfg.MaxDepth {
		return false
	}
	return nd.father[k] && nd.splits[k]
}

// view is the rows one split search sees: all training rows, or a sample.
type view struct {
	idx []int // sample positions into the training rows; nil = all rows
	y   []int
	m   []float64 // the node's existing membership on these rows
	grp groups
}

func (g *grower) viewOf(nd *node) view {
	if !g.sampling {
		return view{y: g.y, m: nd.m, grp: g.all}
	}
	idx := g.rng.Choice(g.n, g.cfg.SampleSize)
	v := view{idx: idx, y: make([]int, len(idx)), m: make([]float64, len(idx))}
	for j, i := range idx {
		v.y[j] = g.y[i]
		v.m[j] = nd.m[i]
	}
	v.grp = newGroups(v.y, g.nClasses)
	return v
}

// child writes the candidate child's membership (memberships *
// existing_membership) on the view's rows into g.prod and returns it.
func (g *grower) child(v view, k int) []float64 {
	p := g.prod[:len(v.m)]
	mu := g.mu[k]
	if v.idx == nil {
		for i, m := range v.m {
			p[i] = mu[i] * m
		}
		return p
	}
	for j, i := range v.idx {
		p[j] = mu[i] * v.m[j]
	}
	return p
}

// classSums fills g.cs[c] with np.sum(w[y == classes[c]]) for the view's
// classes present (pairwise sums over each class's rows in row order).
func (g *grower) classSums(w []float64, grp groups) []float64 {
	b := g.buf[:len(w)]
	for j, i := range grp.pos {
		b[j] = w[i]
	}
	cs := g.cs[:len(grp.classes)]
	for c := range cs {
		cs[c] = npsum.Sum(b[grp.start[c]:grp.start[c+1]])
	}
	return cs
}

// purity is compute_fuzzy_purity(w, y, threshold): +Inf for no mass or a
// coverage below the threshold, else 1 - np.sum((class mass / mass)**2).
func (g *grower) purity(w []float64, grp groups, threshold float64) float64 {
	return g.purityOf(npsum.Sum(w), g.classSums(w, grp), len(w), threshold)
}

// purityOf is purity from the mass, its class sums and the row count.
func (g *grower) purityOf(total float64, cs []float64, n int, threshold float64) float64 {
	if n == 0 || total == 0 {
		return math.Inf(1)
	}
	sq := g.sq[:len(cs)]
	for c, s := range cs {
		p := s / total
		sq[c] = p * p
	}
	gini := 1.0 - npsum.Sum(sq)
	if total/float64(n) < threshold {
		return math.Inf(1)
	}
	return gini
}

// majority is _majority_class(y, w): the present class with the largest
// normalised membership mass, the first on ties.
func (g *grower) majority(w []float64, grp groups) int {
	return majorityOf(g.classSums(w, grp), grp)
}

// majorityOf is majority from the class sums, which it normalises in place.
func majorityOf(cs []float64, grp groups) int {
	if s := npsum.Sum(cs); s != 0 {
		for c := range cs {
			cs[c] /= s
		}
	}
	best := 0
	for c := 1; c < len(cs); c++ {
		if cs[c] > cs[best] {
			best = c
		}
	}
	return grp.classes[best]
}

// stats evaluates every legal candidate child of a node on all training
// rows once (the values never change; which candidates are legal does).
func (g *grower) statsOf(nd *node, v view) []candStats {
	if v.idx == nil && nd.stats != nil {
		return nd.stats
	}
	st := make([]candStats, len(g.cands))
	g.spread(len(v.y), len(g.cands), func(w *grower, k int) {
		if g.legal(nd, k) {
			st[k] = w.candidateStats(v, k)
		}
	})
	if v.idx == nil {
		nd.stats = st
	}
	return st
}

// candidateStats is candidate k's child statistics on the view, computed
// in g's scratch.
func (g *grower) candidateStats(v view, k int) candStats {
	p := g.child(v, k)
	// compute_fuzzy_purity and _majority_class each sum the child's mass
	// and its classes; those sums are taken once here, and the class sums
	// are read by purityOf before majorityOf normalises them.
	total := npsum.Sum(p)
	cs := g.classSums(p, v.grp)
	purity := g.purityOf(total, cs, len(p), g.cfg.CoverageThreshold)
	st := candStats{legal: true, coverage: total / float64(len(v.y)), purity: purity, class: majorityOf(cs, v.grp)}
	if g.cfg.Metric == CCI && v.idx == nil {
		sig := make([]uint64, (len(p)+63)/64)
		hit := 0
		for i, w := range p {
			if w > 0.01 {
				sig[i>>6] |= 1 << (i & 63)
				if v.y[i] == st.class {
					hit++
				}
			}
		}
		st.sig, st.sigHit = sig, hit
	}
	return st
}

// checkPurity is _node_purity_checks: the largest drop of fuzzy Gini from
// the node to one candidate child (strictly larger wins, so the first in
// feature-term order on ties).
func (g *grower) checkPurity(nd *node) float64 {
	v := g.viewOf(nd)
	father := g.purity(v.m, v.grp, g.cfg.CoverageThreshold)
	st := g.statsOf(nd, v)
	best, bestK, child := math.Inf(-1), -1, -1
	for k, s := range st {
		if !s.legal || !g.legal(nd, k) {
			continue
		}
		if imp := father - s.purity; imp > best {
			best, bestK, child = imp, k, s.class
		}
	}
	nd.auxK, nd.auxChild = bestK, child
	nd.auxCrit = best
	if bestK < 0 {
		nd.auxCrit = 0
	}
	return best
}

// searchPurity is _get_best_node_split: pre-order, strictly larger wins;
// the node returned for a better child is that child itself, the depth-1
// ancestor of the best node (FGRT's Q1) unless fix_q1.
func (g *grower) searchPurity(id int) (float64, int) {
	nd := g.nodes[id]
	best, bestID := g.checkPurity(nd), id
	for _, ch := range nd.children {
		cb, cn := g.searchPurity(ch)
		if cb > best {
			best = cb
			if g.cfg.FixQ1 {
				bestID = cn
			} else {
				bestID = ch
			}
		}
	}
	return best, bestID
}

// checkCCI is _node_cci_checks: the candidate with the largest complete
// classification index, ties to the smaller fuzzy Gini; it returns the
// best index and that candidate's purity.
func (g *grower) checkCCI(nd *node, skel []int) (float64, float64) {
	v := g.viewOf(nd)
	best := 0.0
	if g.rules <= 3 {
		best = math.Inf(-1)
	}
	bestPur, bestK, child := math.Inf(1), -1, nd.pred
	sk, pre, correct := g.viewCorrect(v, skel)
	n := len(v.y)
	st := g.statsOf(nd, v)
	for k, s := range st {
		if !s.legal || !g.legal(nd, k) || s.coverage < g.cfg.CoverageThreshold {
			continue
		}
		cci := completeClassificationIndex(pre, g.correctAfter(v, k, s, sk, pre, correct), n)
		if s.coverage == 0 {
			// compute_fuzzy_cci: no membership mass gives 0.
			cci = 0
		}
		if cci > best || (cci == best && s.purity < bestPur) {
			best, bestPur, bestK, child = cci, s.purity, k, s.class
		}
	}
	nd.auxK, nd.auxChild = bestK, child
	nd.auxCrit = best
	if bestK < 0 {
		nd.auxCrit = 0
	}
	return best, bestPur
}

// viewCorrect returns the current tree's predictions skel on the view's
// rows, how many of them are correct, and which (a bit per row).
func (g *grower) viewCorrect(v view, skel []int) ([]int, int, []uint64) {
	sk := skel
	if v.idx != nil {
		sk = make([]int, len(v.idx))
		for j, i := range v.idx {
			sk[j] = skel[i]
		}
	}
	pre := 0
	correct := make([]uint64, (len(v.y)+63)/64)
	for j, k := range v.y {
		if sk[j] == k {
			pre++
			correct[j>>6] |= 1 << (j & 63)
		}
	}
	return sk, pre, correct
}

// correctAfter counts the view's rows the tree classifies correctly once
// candidate k's child (statistics s) is added: rows with membership above
// 0.01 take the child's class, so the correct ones among them are lost and
// those of the child's class won.
func (g *grower) correctAfter(v view, k int, s candStats, sk []int, pre int, correct []uint64) int {
	after := pre
	if s.sig != nil {
		lost := 0
		for w, b := range s.sig {
			lost += bits.OnesCount64(b & correct[w])
		}
		return after + s.sigHit - lost
	}
	for j, w := range g.child(v, k) {
		if w > 0.01 {
			if sk[j] == v.y[j] {
				after--
			}
			if s.class == v.y[j] {
				after++
			}
		}
	}
	return after
}

// completeClassificationIndex is _complete_classification_index from the
// counts of rows the tree classifies correctly before and after: the
// relative change of accuracy (the new accuracy when the old one is 0),
// with numpy's float operations (np.mean of a boolean array is count/n).
func completeClassificationIndex(pre, after, n int) float64 {
	if n == 0 {
		return 0
	}
	mp := float64(pre) / float64(n)
	mn := float64(after) / float64(n)
	improvement := mn - mp
	if mp == 0 {
		return mn
	}
	return improvement / mp
}

// searchCCI is _get_best_node_split_cci: pre-order; a strictly larger
// index takes the child's best node (not its ancestor) but keeps the
// purity found so far, an equal one with a smaller purity takes both.
func (g *grower) searchCCI(id int, skel []int) (float64, int, float64) {
	nd := g.nodes[id]
	best, bestPur := g.checkCCI(nd, skel)
	bestID := id
	for _, ch := range nd.children {
		cc, cn, cp := g.searchCCI(ch, skel)
		if cc > best {
			best, bestID = cc, cn
		} else if cc == best && cp < bestPur {
			best, bestID, bestPur = cc, cn, cp
		}
	}
	return best, bestID, bestPur
}

// split is _split_node: one new child with the cached candidate.
func (g *grower) split(id int) {
	p := g.nodes[id]
	k := p.auxK
	c := g.cands[k]
	m := make([]float64, g.n)
	mu := g.mu[k]
	for i := range m {
		m[i] = p.m[i] * mu[i]
	}
	p.splits[k] = false
	father := append([]bool(nil), p.father...)
	father[k] = false
	if len(p.children) > 0 {
		g.rules++
	}
	ch := &node{name: p.name + "_F" + strconv.Itoa(c.f) + "_L" + strconv.Itoa(c.t), depth: p.depth + 1,
		parent: id, cand: k, m: m, father: father, splits: trues(len(g.cands)), pred: p.auxChild,
		coverage: npsum.Sum(m) / float64(g.n), quality: p.auxCrit}
	p.children = append(p.children, len(g.nodes))
	g.nodes = append(g.nodes, ch)
}

// bestCoverageReaches reports whether _get_best_possible_coverage reaches
// the coverage threshold: some leaf's rows (path membership above 1e-10)
// have a mean membership at least the threshold in some term.
func (g *grower) bestCoverageReaches() bool {
	thr := g.cfg.CoverageThreshold
	if thr <= 0 {
		return true
	}
	rows := make([]int, 0, g.n)
	for _, nd := range g.nodes {
		if nd.removed || len(nd.children) > 0 {
			continue
		}
		rows = rows[:0]
		for i, w := range nd.m {
			if nd.cand < 0 || w > 1e-10 {
				rows = append(rows, i)
			}
		}
		if len(rows) == 0 {
			continue
		}
		b := g.buf[:len(rows)]
		for k := range g.cands {
			for j, i := range rows {
				b[j] = g.mu[k][i]
			}
			if npsum.Sum(b)/float64(len(rows)) >= thr {
				return true
			}
		}
	}
	return false
}

// allNodes is _extract_all_nodes: pre-order, then stably by path length,
// with each node's class as it is now.
func (g *grower) allNodes() []cacheEntry {
	var out []cacheEntry
	var walk func(id int)
	walk = func(id int) {
		nd := g.nodes[id]
		out = append(out, cacheEntry{node: id, pred: nd.pred})
		for _, ch := range nd.children {
			walk(ch)
		}
	}
	walk(0)
	stableByDepth(out, g.nodes)
	return out
}

// stableByDepth sorts entries by their node's depth, keeping order on ties.
func stableByDepth(es []cacheEntry, nodes []*node) {
	// Insertion sort: trees are small and the input is nearly sorted.
	for i := 1; i < len(es); i++ {
		for j := i; j > 0 && nodes[es[j].node].depth < nodes[es[j-1].node].depth; j-- {
			es[j], es[j-1] = es[j-1], es[j]
		}
	}
}

// predictTraining is predict(X) on the training rows during growth, from
// the all-nodes cache, whose memberships are the nodes' own.
func (g *grower) predictTraining() []int {
	pn := g.predictor(g.cache)
	ms := make([][]float64, len(pn.entries))
	for e, en := range pn.entries {
		ms[e] = g.nodes[en.node].m
	}
	return pn.predictFrom(ms, g.n)
}
