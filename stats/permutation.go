package stats

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"sort"
)

// The permutation test of Friedman's statistic. Under the null hypothesis
// that the methods do not differ, the ranks within each dataset are
// exchangeable: every arrangement of a dataset's observed rank vector over
// the methods is equally likely, independently across datasets. The test
// is conditional on the observed ties (a dataset whose two methods tie
// keeps its pair of half ranks), which makes it exact for any number of
// datasets and any ties, where the χ² and Iman–Davenport p-values are
// large-sample approximations.
//
// Given the ties, the tie-corrected χ² of scipy.stats.friedmanchisquare is
// an increasing function of S = Σ_j R_j², R_j the rank sum of method j, so
// the p-value is P(S ≥ S_observed) over the arrangements. Ranks are
// multiples of ½; the code works on doubled ranks, so that S is an integer
// and compared exactly.

// ExactMaxSteps bounds the work of the exact enumeration: the number of
// (rank-sum state, row arrangement) pairs the dynamic programme visits.
// Beyond it the p-value comes from MonteCarloDraws random arrangements.
const ExactMaxSteps = 4_000_000

// MonteCarloDraws is the number of random arrangements of the Monte Carlo
// permutation test, and MonteCarloSeed the seed of its generator (PCG-DXSM,
// a specified algorithm): the same matrix always gives the same p-value.
// Studies so large that MonteCarloDraws arrangements would shuffle more
// than MonteCarloWork ranks get fewer draws, never below MonteCarloMinDraws
// (the stated precision says what that costs).
const (
	MonteCarloDraws    = 100_000
	MonteCarloMinDraws = 10_000
	MonteCarloWork     = 50_000_000
	MonteCarloSeed     = 20261127
)

// MonteCarloZ is the normal quantile of the confidence interval stated
// with a Monte Carlo p-value (99 %, two-sided).
const MonteCarloZ = 2.5758293035489004

// PermutationResult is the outcome of the permutation test of Friedman's
// statistic.
type PermutationResult struct {
	// Exact reports an exact p-value: every arrangement was accounted for
	// (Arrangements of them, Π over datasets of the distinct permutations
	// of its rank vector; +Inf in JSON terms when it overflows float64).
	// Otherwise P is a Monte Carlo estimate over Draws arrangements drawn
	// with Seed.
	Exact        bool    `json:"exact"`
	Arrangements float64 `json:"arrangements"`
	// P is P(S ≥ S_observed): exact, or (b+1)/(Draws+1) with b the draws
	// at least as extreme as the observation (never 0).
	P float64 `json:"p"`
	// Draws and Seed describe the Monte Carlo run (0 when Exact); SE is the
	// standard error of P and [Low, High] the 99 % Wilson interval of the
	// exact p-value it estimates (SE 0 and Low = High = P when Exact).
	Draws int     `json:"draws,omitempty"`
	Seed  int64   `json:"seed,omitempty"`
	SE    float64 `json:"se"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
	// Steps is the work the exact enumeration needed or had done when it
	// gave up (see ExactMaxSteps).
	Steps int `json:"steps"`
}

// doubledRanks ranks every row (1 = best when higherBetter) and doubles
// the ranks, so that tied half ranks become integers.
func doubledRanks(m [][]float64, higherBetter bool) [][]int {
	out := make([][]int, len(m))
	for i, row := range m {
		r := Rank(row, higherBetter)
		out[i] = make([]int, len(r))
		for j, v := range r {
			out[i][j] = int(math.Round(2 * v))
		}
	}
	return out
}

// distinctCount is the number of distinct arrangements of the multiset v,
// k!/Π t! over its groups of equal values t.
func distinctCount(v []int) float64 {
	seen := map[int]int{}
	c := 1.0
	for i, x := range v {
		seen[x]++
		c *= float64(i+1) / float64(seen[x])
	}
	return math.Round(c)
}

// distinctPermutations lists the distinct arrangements of the multiset v.
func distinctPermutations(v []int) [][]int {
	p := append([]int(nil), v...)
	sort.Ints(p)
	var out [][]int
	for {
		out = append(out, append([]int(nil), p...))
		// Next lexicographic permutation; stop after the last.
		i := len(p) - 2
		for i >= 0 && p[i] >= p[i+1] {
			i--
		}
		if i < 0 {
			return out
		}
		j := len(p) - 1
		for p[j] <= p[i] {
			j--
		}
		p[i], p[j] = p[j], p[i]
		for a, b := i+1, len(p)-1; a < b; a, b = a+1, b-1 {
			p[a], p[b] = p[b], p[a]
		}
	}
}

// sumSquares is S = Σ v_j² of a vector of doubled rank sums.
func sumSquares(v []int) int64 {
	var s int64
	for _, x := range v {
		s += int64(x) * int64(x)
	}
	return s
}

// FriedmanPermutation runs the permutation test of Friedman's statistic on
// m (rows = datasets, columns = methods): exactly when the enumeration
// takes at most ExactMaxSteps, otherwise by MonteCarloDraws seeded random
// arrangements.
//
// The exact enumeration is a dynamic programme over the vector of column
// rank sums, row by row, each row adding every distinct arrangement of its
// ranks with equal probability. Because every row's arrangement is uniform,
// the distribution of the vector is symmetric in the methods, so a state
// is kept as the sorted vector: S depends only on the multiset, and the
// distribution of sorted(s + π(r)) depends only on sorted(s). That keeps
// the number of states small enough for the studies of this benchmark
// (k ≤ 6 over a few datasets, or k = 2, 3 over dozens).
func FriedmanPermutation(m [][]float64, higherBetter bool) (PermutationResult, error) {
	return friedmanPermutation(m, higherBetter, ExactMaxSteps, MonteCarloDraws)
}

func friedmanPermutation(m [][]float64, higherBetter bool, maxSteps, draws int) (PermutationResult, error) {
	n, k, err := checkMatrix(m)
	if err != nil {
		return PermutationResult{}, err
	}
	if n < 2 {
		return PermutationResult{}, fmt.Errorf("stats: need at least 2 datasets, got %d", n)
	}
	ranks := doubledRanks(m, higherBetter)
	obs := make([]int, k)
	for _, row := range ranks {
		for j, v := range row {
			obs[j] += v
		}
	}
	sObs := sumSquares(obs)
	arrangements := 1.0
	counts := make([]float64, n)
	for i, row := range ranks {
		counts[i] = distinctCount(row)
		arrangements *= counts[i]
	}
	res, ok := exactPermutation(ranks, counts, sObs, maxSteps)
	if ok {
		res.Arrangements = arrangements
		res.Low, res.High = res.P, res.P
		return res, nil
	}
	if w := MonteCarloWork / (n * k); draws > w {
		draws = max(w, MonteCarloMinDraws)
	}
	mc := monteCarloPermutation(ranks, sObs, draws, MonteCarloSeed)
	mc.Arrangements = arrangements
	mc.Steps = res.Steps
	return mc, nil
}

// exactPermutation runs the dynamic programme; ok is false when it would
// exceed maxSteps (res.Steps then says how far it got).
func exactPermutation(ranks [][]int, counts []float64, sObs int64, maxSteps int) (res PermutationResult, ok bool) {
	first := append([]int(nil), ranks[0]...)
	sort.Ints(first)
	states := map[string]float64{rankKey(first): 1}
	steps := 0
	for i := 1; i < len(ranks); i++ {
		// Checked before the row's arrangements are listed (a row of ten
		// methods alone has 3.6 million). A row before the last one with
		// more than √maxSteps arrangements leaves at least as many states
		// for the next, whose arrangements are as many again.
		work := float64(steps) + float64(float64(len(states))*counts[i])
		if work > float64(maxSteps) || (i < len(ranks)-1 && counts[i] > math.Sqrt(float64(maxSteps))) {
			return PermutationResult{Steps: int(math.Min(work, math.MaxInt32))}, false
		}
		steps += len(states) * int(counts[i])
		grown, tail := growStates(states, ranks[i], i == len(ranks)-1, sObs)
		if i == len(ranks)-1 {
			return PermutationResult{Exact: true, P: math.Min(1, tail), Steps: steps}, true
		}
		states = grown
	}
	// A single dataset (not reached: callers need two).
	return PermutationResult{Exact: true, P: 1, Steps: steps}, true
}

// growStates adds every distinct arrangement of one dataset's ranks to
// each state (the sorted rank sums so far, with its probability). For the
// last dataset it returns instead the probability tail of the sums of
// squares at or above sObs.
func growStates(states map[string]float64, row []int, last bool, sObs int64) (grown map[string]float64, tail float64) {
	k := len(row)
	state, next := make([]int, k), make([]int, k)
	perms := distinctPermutations(row)
	w := 1 / float64(len(perms))
	// The keys are visited in sorted order so that the floating-point
	// sums, and so P, do not depend on map iteration order.
	keys := make([]string, 0, len(states))
	for s := range states {
		keys = append(keys, s)
	}
	sort.Strings(keys)
	grown = map[string]float64{}
	for _, s := range keys {
		prob := float64(states[s] * w)
		decodeRankKey(s, state)
		for _, p := range perms {
			for j := range next {
				next[j] = state[j] + p[j]
			}
			if last {
				if sumSquares(next) >= sObs {
					tail += prob
				}
				continue
			}
			sort.Ints(next)
			grown[rankKey(next)] += prob
		}
	}
	return grown, tail
}

// rankKey encodes rank sums as a map key.
func rankKey(v []int) string {
	b := make([]byte, 4*len(v))
	for j, x := range v {
		binary.LittleEndian.PutUint32(b[4*j:], uint32(x))
	}
	return string(b)
}

// decodeRankKey decodes a rankKey into v.
func decodeRankKey(s string, v []int) {
	for j := range v {
		v[j] = int(binary.LittleEndian.Uint32([]byte(s[4*j:])))
	}
}

// monteCarloPermutation estimates the p-value from draws random
// arrangements (every row shuffled independently).
func monteCarloPermutation(ranks [][]int, sObs int64, draws int, seed int64) PermutationResult {
	k := len(ranks[0])
	rng := rand.NewPCG(uint64(seed), 0)
	rows := make([][]int, len(ranks))
	for i := range ranks {
		rows[i] = append([]int(nil), ranks[i]...)
	}
	sums := make([]int, k)
	extreme := 0
	for d := 0; d < draws; d++ {
		for j := range sums {
			sums[j] = 0
		}
		for _, row := range rows {
			for a := k - 1; a > 0; a-- { // Fisher–Yates
				// A uniform index below a+1 from 64 random bits (Lemire's
				// multiply; the bias, (a+1)/2⁶⁴, is far below the test's precision).
				hi, _ := bits.Mul64(rng.Uint64(), uint64(a+1))
				b := int(hi)
				row[a], row[b] = row[b], row[a]
			}
			for j, v := range row {
				sums[j] += v
			}
		}
		if sumSquares(sums) >= sObs {
			extreme++
		}
	}
	res := PermutationResult{Draws: draws, Seed: seed}
	// (b+1)/(B+1): the observed arrangement counts as one of the draws,
	// so that the estimate is a valid p-value and never 0.
	res.P = float64(extreme+1) / float64(draws+1)
	res.SE = math.Sqrt(res.P * (1 - res.P) / float64(draws))
	res.Low, res.High = wilson(extreme, draws, MonteCarloZ)
	return res
}

// wilson is the Wilson score interval of a binomial proportion x/n.
func wilson(x, n int, z float64) (lo, hi float64) {
	nf := float64(n)
	p := float64(x) / nf
	den := 1 + z*z/nf
	centre := (p + z*z/(2*nf)) / den
	half := float64(z / den * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)))
	return math.Max(0, centre-half), math.Min(1, centre+half)
}
