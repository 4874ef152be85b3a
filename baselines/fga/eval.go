package fga

import (
	"math"
	"sync"

	"github.com/fgrtbench/fgrtbench/internal/branchless"

	"github.com/fgrtbench/fgrtbench/fuzzy"
)

// ruleStats caches what a rule contributes to the fitness and depends only
// on its antecedents and their features' membership genes: its firing
// strength on every training row and the per-class sums of those strengths.
type ruleStats struct {
	phi      []float64 // firing strength per training row
	nz       []int32   // rows where phi is not zero, ascending
	classSum []float64 // sum of phi over the rows of each present class
	total    float64   // sum of phi over all rows
	// nan marks a rule that reads a feature whose partition decodes to
	// nothing: ex-fuzzy's parameters are then NaN (0/0 in the rescaling),
	// and so are the rule's firing strengths and dominance score.
	nan bool

	// once guards the lazy computation of a cache entry from the chromosome
	// and rule that first needed it (dropped once computed).
	once     sync.Once
	srcGenes []int32
	srcSpec  *ruleSpec
}

// computeRuleStats fills st for rule spec of chromosome genes. Firing is the
// product of the antecedents' memberships in ascending feature order (the
// product t-norm; don't-cares contribute 1). A rule reading a feature whose
// partition decodes to nothing (decodePartition's ok = false) is marked nan.
// With fixed partitions the memberships come from the precomputed columns.
// sc is the calling worker's scratch.
func computeRuleStats(p *problem, genes []int32, spec *ruleSpec, st *ruleStats, sc *scratch) {
	phi := st.phi
	st.nan = false
	if p.mem != nil {
		for k, a := range spec.ants {
			m := p.memColumn(a.feat, a.label)
			if k == 0 {
				copy(phi, m)
				continue
			}
			for i, v := range m {
				phi[i] *= v
			}
		}
	} else {
		for k, a := range spec.ants {
			sets, ok := decodePartition(p.lay.mfGenes(genes, a.feat), p.lay.labels, p.xmin[a.feat], p.xmax[a.feat], p.headEps)
			if !ok {
				clear(phi)
				st.nan = true
				break
			}
			p.applyMembership(a.feat, sets[a.label], phi, k == 0)
		}
	}
	// One pass sums each class's rows in row order and lists the nonzero
	// rows into the worker's buffer, then the list is copied to the cache
	// entry at its own size (entries kept at the buffer's size raised the
	// peak memory of the paper study's FGA at -j 1 from about 150 MB to
	// 160 MB). Every row is written to the
	// buffer and only a nonzero one advances the count: whether a row
	// fires follows no pattern the processor can predict, and a branch on
	// it cost a fit of ring about a tenth.
	nz := sc.nzRows[:len(phi)]
	count := 0
	total, from := 0.0, 0
	for k, end := range p.classEnd {
		sum := 0.0
		for i := from; i < end; i++ {
			v := phi[i]
			sum += v
			nz[count] = int32(i)
			count += branchless.Int(v != 0)
		}
		st.classSum[k] = sum
		total += sum
		from = end
	}
	for i := from; i < len(phi); i++ { // none: every row has a present class
		nz[count] = int32(i)
		count += branchless.Int(phi[i] != 0)
	}
	st.nz = append(st.nz[:0], nz[:count]...)
	st.total = total
}

// applyMembership sets (first) or multiplies phi by the membership of every
// training row of feature f in t. The value is always fuzzy.Trapezoid's;
// the sorted column only skips the rows where that value is provably 0 (at
// or left of A, at or right of the shifted D) or 1 (between the shifted B
// and C), so only the rows on the ramps compute a value (fuzzy.Ramps,
// Membership's arithmetic for them).
func (p *problem) applyMembership(f int, t fuzzy.Trapezoid, phi []float64, first bool) {
	col := p.cols[f*p.n : (f+1)*p.n]
	b, d := t.B, t.D
	if t.A == b {
		b += fuzzy.Eps
	}
	if t.C == d {
		d += fuzzy.Eps
	}
	if t.A == t.D || b == t.A || d == t.C {
		// Degenerate sets (indicators, or shifts lost to rounding): the
		// plain row-by-row evaluation.
		for i, x := range col {
			if first {
				phi[i] = t.Membership(x)
			} else {
				phi[i] *= t.Membership(x)
			}
		}
		return
	}
	sorted := p.sorted[f*p.n : (f+1)*p.n]
	order := p.order[f*p.n : (f+1)*p.n]
	iA := searchAbove(sorted, 0, t.A)  // rows with x <= A: 0
	iD := searchAtLeast(sorted, iA, d) // rows with x >= D': 0
	iB := max(iA, min(searchAtLeast(sorted, iA, b), iD))
	iC := max(iB, min(searchAbove(sorted, iB, t.C), iD)) // [iB, iC): 1
	a, c := t.A, t.C
	if first {
		// Clearing the whole column and writing the rows that are not 0
		// is faster than writing the zeros row by row in sorted order.
		clear(phi)
		for k := iA; k < iB; k++ {
			phi[order[k]] = fuzzy.Ramps(sorted[k], a, b, c, d)
		}
		for _, r := range order[iB:iC] {
			phi[r] = 1
		}
		for k := iC; k < iD; k++ {
			phi[order[k]] = fuzzy.Ramps(sorted[k], a, b, c, d)
		}
		return
	}
	for _, r := range order[:iA] {
		phi[r] = 0
	}
	for _, r := range order[iD:] {
		phi[r] = 0
	}
	for k := iA; k < iB; k++ {
		phi[order[k]] *= fuzzy.Ramps(sorted[k], a, b, c, d)
	}
	for k := iC; k < iD; k++ {
		phi[order[k]] *= fuzzy.Ramps(sorted[k], a, b, c, d)
	}
}

// searchAbove returns the first index >= from whose value is > v.
func searchAbove(sorted []float64, from int, v float64) int {
	lo, hi := from, len(sorted)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if sorted[m] > v {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo
}

// searchAtLeast returns the first index >= from whose value is >= v.
func searchAtLeast(sorted []float64, from int, v float64) int {
	lo, hi := from, len(sorted)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if sorted[m] >= v {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo
}

// dominanceScore is support * confidence of a rule of class k on the
// training set (docs/fidelity.md#fga-inference-and-fitness).
func dominanceScore(st *ruleStats, k, n int) float64 {
	if st.nan {
		return math.NaN()
	}
	s := st.classSum[k] / float64(n)
	if st.total == 0 {
		return 0
	}
	return s * (st.classSum[k] / st.total)
}

// scratch is one worker's reusable buffers for evaluating a rule base.
type scratch struct {
	nzRows    []int32 // computeRuleStats' list of nonzero rows, before its copy
	win       []int32
	ds        []float64
	wins      []int
	correct   []int
	keep      []int
	phis      [][]float64
	nzs       [][]int32
	classes   []int
	confusion []int
	bestv     []float64
}

func newScratch(p *problem) *scratch {
	return &scratch{nzRows: make([]int32, p.n), win: make([]int32, p.n), confusion: make([]int, p.nClasses*p.nClasses)}
}

// evaluation is the outcome of scoring one rule base.
type evaluation struct {
	mcc  float64
	keep []int     // indices (into the rule list) of the rules left by the purge
	ds   []float64 // dominance score of every rule of the list
}

// evaluate scores a decoded rule base as ex-fuzzy's slow path does: dominance
// scores, winner rule per training row (first maximum of DS * firing; rule 0
// when nothing fires), per-rule accuracy over the rows it wins, purge of
// rules with DS < tolerance or accuracy 0, then the MCC of the purged rule
// base's winner predictions. stats[r] belongs to rules[r]. When withDetail is
// false the returned keep and ds alias the scratch buffers.
func evaluate(p *problem, rules []ruleSpec, stats []*ruleStats, sc *scratch, withDetail bool) evaluation {
	nr := len(rules)
	if nr == 0 {
		return evaluation{}
	}
	sc.load(p, rules, stats)
	for r := range rules {
		if stats[r].nan {
			return nanRuleBase(sc, r, withDetail)
		}
	}
	sc.countWins(p, nr)
	keep, purgedWinner := sc.purge(p, nr)
	ev := evaluation{keep: keep, ds: sc.ds}
	if withDetail {
		ev.keep = append([]int(nil), keep...)
		ev.ds = append([]float64(nil), sc.ds...)
	}
	if len(keep) == 0 {
		return ev
	}
	// A purged rule that won no row cannot change any winner: the first
	// maximum over all rules is still the first maximum over the survivors.
	if purgedWinner {
		winners(p, sc, keep)
	}
	clear(sc.confusion)
	c := p.nClasses
	for i, w := range sc.win {
		sc.confusion[int(p.y[i])*c+sc.classes[w]]++
	}
	ev.mcc = mccFromConfusion(sc.confusion, c)
	return ev
}

// load fills the scratch's per-rule lists: dominance scores, firing
// strengths, their nonzero rows and classes.
func (sc *scratch) load(p *problem, rules []ruleSpec, stats []*ruleStats) {
	sc.ds = sc.ds[:0]
	sc.phis = sc.phis[:0]
	sc.nzs = sc.nzs[:0]
	sc.classes = sc.classes[:0]
	for r := range rules {
		sc.ds = append(sc.ds, dominanceScore(stats[r], rules[r].class, p.n))
		sc.phis = append(sc.phis, stats[r].phi)
		sc.nzs = append(sc.nzs, stats[r].nz)
		sc.classes = append(sc.classes, rules[r].class)
	}
}

// countWins finds each row's winner among all nr rules and counts, per
// rule, the rows it wins and those it wins with the right class.
func (sc *scratch) countWins(p *problem, nr int) {
	sc.wins = resize(sc.wins, nr)
	sc.correct = resize(sc.correct, nr)
	all := sc.keep[:0]
	for r := 0; r < nr; r++ {
		all = append(all, r)
	}
	sc.keep = all
	winners(p, sc, all)
	for _, r := range all {
		sc.wins[r], sc.correct[r] = 0, 0
	}
	for i, w := range sc.win {
		sc.wins[w]++
		if int32(sc.classes[w]) == p.y[i] {
			sc.correct[w]++
		}
	}
}

// purge keeps the rules whose dominance score reaches the tolerance and
// that win some row correctly; it reports whether a purged rule won a row.
func (sc *scratch) purge(p *problem, nr int) ([]int, bool) {
	keep := sc.keep[:0]
	purgedWinner := false
	for r := 0; r < nr; r++ {
		if sc.ds[r] < p.tol || sc.correct[r] == 0 {
			if sc.wins[r] > 0 {
				purgedWinner = true
			}
			continue
		}
		keep = append(keep, r)
	}
	sc.keep = keep
	return keep, purgedWinner
}

// nanRuleBase is ex-fuzzy's outcome when rule first is the first rule with
// NaN firing strengths: np.argmax returns the first NaN, so that rule wins
// every row; it keeps a non-zero accuracy and survives the purge (NaN <
// tolerance is false) while every other rule wins nothing and is purged. The
// purged rule base predicts one class everywhere: MCC 0.
func nanRuleBase(sc *scratch, first int, withDetail bool) evaluation {
	ev := evaluation{keep: append(sc.keep[:0], first), ds: sc.ds}
	sc.keep = ev.keep
	if withDetail {
		ev.keep = []int{first}
		ev.ds = append([]float64(nil), sc.ds...)
	}
	return ev
}

// winners writes into sc.win the first rule (among cand, in order) with the
// largest association degree DS * firing for every training row. Only the
// rows where a rule fires are visited: elsewhere its association is 0, which
// never beats the running maximum (>= 0) under the strict >, so every row
// keeps the first maximum, as np.argmax does, and a row no rule fires keeps
// the first candidate.
func winners(p *problem, sc *scratch, cand []int) {
	first := cand[0]
	bv := bestBuf(sc, p.n)
	clear(bv)
	win := sc.win[:p.n]
	for i := range win {
		win[i] = int32(first)
	}
	phi0, ds0 := sc.phis[first], sc.ds[first]
	for _, i := range sc.nzs[first] {
		bv[i] = ds0 * phi0[i]
	}
	for _, r := range cand[1:] {
		ds := sc.ds[r]
		if ds == 0 {
			continue // its association is 0 everywhere: never strictly larger
		}
		phi := sc.phis[r]
		r32 := int32(r)
		for _, i := range sc.nzs[r] {
			// if a > best { bv[i], win[i] = a, r }, without a branch on
			// the data (which rule leads on a row is as good as random).
			// max is that select here: associations are never NaN (a rule
			// with NaN strengths ends evaluate before winners) nor -0
			// (strengths and scores are products of values >= +0), and
			// when a == best either is the same value.
			a, best := ds*phi[i], bv[i]
			gt := int32(branchless.Int(a > best))
			bv[i] = max(a, best)
			win[i] += gt * (r32 - win[i])
		}
	}
}

func bestBuf(sc *scratch, n int) []float64 {
	if cap(sc.bestv) < n {
		sc.bestv = make([]float64, n)
	}
	return sc.bestv[:n]
}

func resize(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n)
	}
	return s[:n]
}

// mccFromConfusion evaluates sklearn's formula on a c x c confusion matrix
// (rows = truth, columns = prediction).
func mccFromConfusion(conf []int, c int) float64 {
	var nCorrect, nSamples, sumTP, sumPP, sumTT float64
	for k := 0; k < c; k++ {
		var t, pk float64
		for j := 0; j < c; j++ {
			t += float64(conf[k*c+j])
			pk += float64(conf[j*c+k])
		}
		nCorrect += float64(conf[k*c+k])
		nSamples += pk
		sumTP += float64(t * pk)
		sumPP += float64(pk * pk)
		sumTT += float64(t * t)
	}
	covYtYp := float64(nCorrect*nSamples) - sumTP
	covYpYp := float64(nSamples*nSamples) - sumPP
	covYtYt := float64(nSamples*nSamples) - sumTT
	if covYpYp*covYtYt == 0 {
		return 0
	}
	return covYtYp / math.Sqrt(covYtYt*covYpYp)
}
