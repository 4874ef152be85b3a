package ripper

import (
	"math"
	"math/rand/v2"
)

// rule is a conjunction of condition indices (into problem.conds), in the
// order they were added. The empty rule covers every example.
type rule []int32

// sameRule is wittgenstein's Rule.__eq__: same length and the same set of
// conditions.
func sameRule(a, b rule) bool {
	if len(a) != len(b) {
		return false
	}
	for _, c := range a {
		found := false
		for _, d := range b {
			if c == d {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func containsRule(rs []rule, r rule) bool {
	for _, q := range rs {
		if sameRule(q, r) {
			return true
		}
	}
	return false
}

// sameRuleset is wittgenstein's Ruleset.__eq__: every rule of each is in the
// other (duplicates and order ignored).
func sameRuleset(a, b []rule) bool {
	for _, r := range a {
		if !containsRule(b, r) {
			return false
		}
	}
	for _, r := range b {
		if !containsRule(a, r) {
			return false
		}
	}
	return true
}

func cloneRules(rs []rule) []rule {
	out := make([]rule, len(rs))
	for i, r := range rs {
		out[i] = append(rule(nil), r...)
	}
	return out
}

// space is the condition space shared by every binary problem of one Fit:
// the candidate conditions in CatNap order and the training rows each
// covers.
type space struct {
	nRows int
	conds []cond
	cover []bitset // cover[c] = training rows satisfying conds[c]
	all   bitset
	lg    log2Table
}

// cond is "feature == code" (code may be missingCode: a NaN value, which
// wittgenstein lists as a condition but which covers nothing).
type cond struct {
	feature int
	code    int
}

// binaryParams are the RIPPER settings of one binary fit.
type binaryParams struct {
	k            int
	pruneSize    float64
	dlAllowance  float64
	maxRules     int // 0 = no limit
	maxRuleConds int // 0 = no limit
	alpha        float64
	unshuffled   bool
}

// binaryRipper learns the rules of one positive class against the rest.
type binaryRipper struct {
	sp         *space
	p          binaryParams
	pos, neg   bitset
	nPos, nNeg int
	rng        *rand.Rand

	// scratch
	idx                []int
	rp, rn, tmp, union bitset
}

// binaryModel is a fitted binary rule set with its smoothed probabilities.
type binaryModel struct {
	rules []rule
	// ruleProb[i] = smoothed (neg, pos) rates of the training rows rule i
	// covers; uncovered = the same for the rows no rule covers.
	ruleProb  [][2]float64
	uncovered [2]float64
}

func newBinaryRipper(sp *space, p binaryParams, pos bitset, rng *rand.Rand) *binaryRipper {
	b := &binaryRipper{sp: sp, p: p, pos: pos, rng: rng}
	b.neg = sp.all.clone()
	b.neg.andNot(pos)
	b.nPos, b.nNeg = pos.count(), b.neg.count()
	w := len(sp.all)
	b.rp, b.rn, b.tmp, b.union = make(bitset, w), make(bitset, w), make(bitset, w), make(bitset, w)
	return b
}

// ruleCover writes the rows covered by r into dst.
func (b *binaryRipper) ruleCover(r rule, dst bitset) {
	copy(dst, b.sp.all)
	for _, c := range r {
		dst.and(b.sp.cover[c])
	}
}

// fit runs the four RIPPER stages (wittgenstein RIPPER.fit, CatNap path).
func (b *binaryRipper) fit() binaryModel {
	// Stage 1: IREP* growth.
	rs := b.growRuleset(nil)
	// Stage 2: k optimisation passes.
	for iter := 1; iter <= b.p.k; iter++ {
		next := b.optimise(rs)
		if iter != b.p.k && sameRuleset(rs, next) {
			break
		}
		rs = next
	}
	// Stage 3: cover remaining positives. The bitset path feeds all
	// training examples, not only the uncovered ones.
	if b.nPos >= 1 {
		rs = b.growRuleset(rs)
	}
	// Stage 4: best subset by description length, then drop duplicates.
	rs, _ = b.bestSubset(rs)
	var dedup []rule
	for _, r := range rs {
		if !containsRule(dedup, r) {
			dedup = append(dedup, r)
		}
	}
	return b.calibrate(dedup)
}

// split shuffles the rows of set and returns the first
// int(n·(1−pruneSize)) as the grow set, the rest as the prune set.
func (b *binaryRipper) split(set bitset) (grow, prune bitset) {
	b.idx = set.indices(b.idx[:0])
	idx := b.idx
	for i := len(idx) - 1; i > 0 && !b.p.unshuffled; i-- {
		j := b.rng.IntN(i + 1)
		idx[i], idx[j] = idx[j], idx[i]
	}
	at := int(float64(len(idx)) * (1 - b.p.pruneSize))
	grow, prune = newBitset(b.sp.nRows), newBitset(b.sp.nRows)
	for i, r := range idx {
		if i < at {
			grow.set(r)
		} else {
			prune.set(r)
		}
	}
	return grow, prune
}

// growRule extends initial greedily by the condition of highest FOIL gain
// (first maximum in candidate order) until it covers no negative of the
// grow set, no condition has positive gain, or the condition limit is hit.
// Every candidate is tried, including ones already in the rule (their gain
// is 0).
func (b *binaryRipper) growRule(initial rule, growPos, growNeg bitset) rule {
	r := append(rule(nil), initial...)
	b.ruleCover(r, b.tmp)
	b.rp.andOf(b.tmp, growPos)
	b.rn.andOf(b.tmp, growNeg)
	n0 := b.rn.count()
	for n0 > 0 {
		if b.p.maxRuleConds > 0 && len(r) >= b.p.maxRuleConds {
			break
		}
		base := foilBase(b.rp.count(), n0)
		best, bestC := math.Inf(-1), -1
		for c, cov := range b.sp.cover {
			p1 := andCount(b.rp, cov)
			if p1 == 0 {
				// gain is exactly 0; it can only be chosen if nothing is
				// positive, and then growth stops anyway
				if best < 0 {
					best, bestC = 0, c
				}
				continue
			}
			if !(foilGainBound(base, p1) > best) {
				continue // cannot beat best: no need to count its negatives
			}
			n1 := andCount(b.rn, cov)
			if g := foilGainFrom(base, p1, n1); g > best {
				best, bestC = g, c
			}
		}
		if !(best > 0) {
			break
		}
		r = append(r, int32(bestC))
		b.rp.and(b.sp.cover[bestC])
		b.rn.and(b.sp.cover[bestC])
		n0 = b.rn.count()
	}
	return r
}

// pruneRule evaluates the rule and each of its prefixes (deleting final
// conditions one by one, never down to the empty rule) on the prune set and
// keeps the best; ties go to the shorter prefix (v >= best, best starting at
// 0 with the full rule).
func (b *binaryRipper) pruneRule(r rule, prunePos, pruneNeg bitset, accuracy bool) rule {
	if len(r) == 0 {
		return r
	}
	pc := make([]int, len(r))
	nc := make([]int, len(r))
	copy(b.tmp, b.sp.all)
	for i, c := range r {
		b.tmp.and(b.sp.cover[c])
		pc[i] = andCount(b.tmp, prunePos)
		nc[i] = andCount(b.tmp, pruneNeg)
	}
	nPos, nNeg := prunePos.count(), pruneNeg.count()
	bestLen, bestV := len(r), 0.0
	for l := len(r); l >= 1; l-- {
		var v float64
		if accuracy {
			if nPos+nNeg == 0 {
				return r
			}
			v = accuracyPruneValue(pc[l-1], nc[l-1], nPos, nNeg)
		} else {
			v = growPruneValue(pc[l-1], nc[l-1])
		}
		if v >= bestV {
			bestV, bestLen = v, l
		}
	}
	return append(rule(nil), r[:bestLen]...)
}

// exceptionsOf returns the exception bits of a rule set over all training
// positives and negatives.
func (b *binaryRipper) exceptionsOf(rs []rule) float64 {
	b.union.andNot(b.union)
	for _, r := range rs {
		b.ruleCover(r, b.tmp)
		b.union.or(b.tmp)
	}
	return b.exceptionsOfCover(b.union)
}

func (b *binaryRipper) exceptionsOfCover(u bitset) float64 {
	pc := andCount(u, b.pos)
	nc := andCount(u, b.neg)
	return b.sp.lg.exceptionBits(b.nPos+b.nNeg, pc+nc, nc, b.nPos-pc)
}

func (b *binaryRipper) ruleBits(r rule) float64 { return theoryBits(len(r), len(b.sp.conds)) }

// totalDL is theory bits summed in rule order plus exception bits.
func (b *binaryRipper) totalDL(rs []rule) float64 {
	theory := 0.0
	for _, r := range rs {
		theory += b.ruleBits(r)
	}
	return theory + b.exceptionsOf(rs)
}

// bestSubset keeps rule i when i = 0 or the DL of the prefix r1..ri is no
// larger than that of r1..r(i−1); it returns the kept rules and their plain
// total DL.
func (b *binaryRipper) bestSubset(rs []rule) ([]rule, float64) {
	u := newBitset(b.sp.nRows)
	theory := 0.0
	prev := 0.0
	var kept []rule
	for i, r := range rs {
		theory += b.ruleBits(r)
		b.ruleCover(r, b.tmp)
		u.or(b.tmp)
		d := theory + b.exceptionsOfCover(u)
		if i == 0 || d <= prev {
			kept = append(kept, r)
		}
		prev = d
	}
	return kept, b.totalDL(kept)
}

// growRuleset is IREP* (wittgenstein _grow_ruleset_cn): grow on a random
// 67% of the remaining examples, prune on the rest, add, and stop when the
// total DL exceeds the best so far by more than the allowance. Starting from
// initial (stage 3), only the new rules' theory bits enter the bookkeeping,
// while the exception bits are those of the whole rule set.
func (b *binaryRipper) growRuleset(initial []rule) []rule {
	rs := cloneRules(initial)
	posRem, negRem := b.pos.clone(), b.neg.clone()
	first := true
	var theory, mdl, dlDiff float64
	cov := newBitset(b.sp.nRows)
	for !posRem.isEmpty() && dlDiff <= b.p.dlAllowance {
		if b.p.maxRules > 0 && len(rs) >= b.p.maxRules {
			break
		}
		growPos, prunePos := b.split(posRem)
		growNeg, pruneNeg := b.split(negRem)
		if growPos.isEmpty() {
			break
		}
		r := b.growRule(nil, growPos, growNeg)
		if len(r) == 0 {
			break
		}
		r = b.pruneRule(r, prunePos, pruneNeg, false)
		rs = append(rs, r)
		bits := b.ruleBits(r)
		var dl float64
		if first {
			theory = bits
			dl = theory + b.exceptionsOf(rs)
			mdl = dl
			first = false
		} else {
			theory += bits
			dl = theory + b.exceptionsOf(rs)
			dlDiff = dl - mdl
		}
		if dl < mdl {
			mdl = dl
		}
		b.ruleCover(r, cov)
		posRem.andNot(cov)
		negRem.andNot(cov)
	}
	return rs
}

// optimise is one RIPPER optimisation pass (wittgenstein
// _optimize_ruleset_cn): for each rule, a replacement grown from scratch and
// a revision grown from the rule, both pruned by accuracy on the prune set,
// compete with the original by total DL (the original's DL is the best-subset
// DL of the rule set; the first minimum wins).
func (b *binaryRipper) optimise(rs []rule) []rule {
	posRem, negRem := b.pos.clone(), b.neg.clone()
	_, originalDL := b.bestSubset(rs)
	next := cloneRules(rs)
	trial := cloneRules(rs)
	cov := newBitset(b.sp.nRows)
	for i, r := range rs {
		growPos, prunePos := b.split(posRem)
		growNeg, pruneNeg := b.split(negRem)
		if growPos.isEmpty() {
			break
		}
		if b.p.maxRules > 0 && len(next) >= b.p.maxRules {
			break
		}
		replacement := b.pruneRule(b.growRule(nil, growPos, growNeg), prunePos, pruneNeg, true)
		revision := b.pruneRule(b.growRule(r, growPos, growNeg), prunePos, pruneNeg, true)

		repDL, revDL := originalDL, originalDL
		if !sameRule(replacement, r) {
			trial[i] = replacement
			repDL = b.totalDL(trial)
		}
		if !sameRule(revision, r) {
			trial[i] = revision
			revDL = b.totalDL(trial)
		}
		trial[i] = rs[i]

		best := r
		switch {
		case repDL < originalDL && repDL <= revDL:
			best = replacement
		case revDL < originalDL && revDL < repDL:
			best = revision
		}
		if !containsRule(next, best) {
			next[i] = append(rule(nil), best...)
		} else {
			next[i] = append(rule(nil), r...)
		}
		b.ruleCover(r, cov)
		posRem.andNot(cov)
		negRem.andNot(cov)
		if posRem.isEmpty() {
			break
		}
	}
	return next
}

// calibrate fits the smoothed class rates per rule and for the uncovered
// rows on the training set (alpha-additive smoothing, order (neg, pos)).
func (b *binaryRipper) calibrate(rs []rule) binaryModel {
	m := binaryModel{rules: rs, ruleProb: make([][2]float64, len(rs))}
	a := b.p.alpha
	b.union.andNot(b.union)
	for i, r := range rs {
		b.ruleCover(r, b.tmp)
		b.union.or(b.tmp)
		tp := andCount(b.tmp, b.pos)
		fp := andCount(b.tmp, b.neg)
		m.ruleProb[i] = smoothed(fp, tp, a)
	}
	fn := b.nPos - andCount(b.union, b.pos)
	tn := b.nNeg - andCount(b.union, b.neg)
	m.uncovered = smoothed(tn, fn, a)
	return m
}

// smoothed is wittgenstein's additive_smoothed_rates for two counts.
func smoothed(c0, c1 int, alpha float64) [2]float64 {
	denom := float64(c0+c1) + alpha*2
	return [2]float64{(float64(c0) + alpha) / denom, (float64(c1) + alpha) / denom}
}
