package ripper

import (
	"math"

	"github.com/fgrtbench/fgrtbench/internal/fmath"
)

// theoryBits is the description length of one rule with nConds conditions
// out of nPossible candidate conditions (wittgenstein _r_theory_bits):
//
//	k = max(nConds, 1), pr = k/n,
//	S = k·log2(1/pr) + (n−k)·log2(1/(1−pr)),
//	bits = max(1, 0.5·(log2 k + S)).
//
// When k >= n wittgenstein divides by zero; the (n−k) term is taken as 0.
func theoryBits(nConds, nPossible int) float64 {
	k := nConds
	if k < 1 {
		k = 1
	}
	n := nPossible
	if n < 1 {
		n = 1
	}
	pr := float64(k) / float64(n)
	s := float64(float64(k) * fmath.Log2(1/pr))
	if n > k {
		s += float64(float64(n-k) * fmath.Log2(1/(1-pr)))
	}
	dl := 0.5 * (fmath.Log2(float64(k)) + s)
	if dl < 1 {
		return 1
	}
	return dl
}

// log2Table holds log2(i!) for i = 0..n, so that log2 C(n, r) is three
// lookups. Each entry comes from math.Lgamma, so there is no accumulated
// rounding; values differ from Python's exact-integer log2(nCr) only in the
// last bits.
type log2Table []float64

func newLog2Table(n int) log2Table {
	t := make(log2Table, n+1)
	for i := 2; i <= n; i++ {
		t[i] = fmath.Lgamma(float64(i+1)) / math.Ln2
	}
	return t
}

// binom returns log2 C(n, r); 0 when r is 0 or n.
func (t log2Table) binom(n, r int) float64 {
	if r <= 0 || r >= n {
		return 0
	}
	return t[n] - t[r] - t[n-r]
}

// exceptionBits is wittgenstein's _exceptions_bits: with N examples, p
// covered by the rule set, fp covered negatives and fn uncovered positives,
// log2 C(p, fp) + log2 C(N−p, fn).
func (t log2Table) exceptionBits(nTotal, covered, fp, fn int) float64 {
	return t.binom(covered, fp) + t.binom(nTotal-covered, fn)
}

// wittgenstein's Laplace-smoothed FOIL gain of refining a rule covering
// (p0, n0) grow examples to one covering (p1, n1) is
// p1 · (log2((p1+1)/(p1+n1+1)) − log2((p0+1)/(p0+n0+1))), taken in two
// steps because the second logarithm is the same for every candidate
// refinement of a rule: foilGainFrom(foilBase(p0, n0), p1, n1).

// foilBase is the gain's second logarithm, log2((p0+1)/(p0+n0+1)):
// growRule takes it once per condition instead of once per candidate.
func foilBase(p0, n0 int) float64 {
	return fmath.Log2(float64(p0+1) / float64(p0+n0+1))
}

// foilGainFrom is the gain of a refinement covering (p1, n1), given its
// rule's base = foilBase(p0, n0).
func foilGainFrom(base float64, p1, n1 int) float64 {
	return float64(p1) * (fmath.Log2(float64(p1+1)/float64(p1+n1+1)) - base)
}

// foilGainBound is the largest gain a refinement covering p1 positives can
// have, whatever its negatives: log2((p1+1)/(p1+n1+1)) is at most
// log2(1) = 0, and rounding is monotone, so foilGainFrom(base, p1, n1) is
// at most this value, computed the same way with that logarithm 0. A
// candidate whose bound does not beat the best gain so far cannot win
// (growRule keeps a strictly larger gain), so its negatives need no count.
func foilGainBound(base float64, p1 int) float64 {
	return float64(p1) * (0 - base)
}

// growPruneValue is RIPPER's grow-phase prune metric (p−n+1)/(p+n+1) on the
// prune set.
func growPruneValue(p, n int) float64 {
	return float64(p-n+1) / float64(p+n+1)
}

// accuracyPruneValue is the optimisation-phase prune metric: the accuracy
// (TP+TN)/(P+N) of the rule alone on the prune set.
func accuracyPruneValue(p, n, nPos, nNeg int) float64 {
	return float64(p+(nNeg-n)) / float64(nPos+nNeg)
}
