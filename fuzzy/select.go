package fuzzy

import (
	"math"
	"math/bits"
	"slices"
	"sort"
	"sync"

	"github.com/fgrtbench/fgrtbench/internal/branchless"
)

// Partitions are fitted on every training set, and sorting each column to
// read a few percentiles dominated FGRT's fit on large data. The code below
// finds only the order statistics the percentiles read, in linear time,
// with results identical to sorting (up to the sign of a zero, whose place
// among equal values a sort leaves unspecified as well).

// percentileRanks returns the two order statistics (0-based ranks) that
// numpy's linear percentile p of n values interpolates between.
func percentileRanks(n int, p float64) (lo, hi int) {
	lo = int(float64(n-1) * (p / 100.0))
	return lo, min(lo+1, n-1)
}

// orderStats holds some order statistics of a column: value[i] is the
// rank[i]-th smallest value (ranks ascending, 0-based).
type orderStats struct {
	n     int
	rank  []int
	value []float64
}

// at returns the order statistic of rank r, which must be one of the
// selected ranks.
func (o orderStats) at(r int) float64 {
	return o.value[sort.SearchInts(o.rank, r)]
}

// percentile is Percentile on the full sorted column.
func (o orderStats) percentile(p float64) float64 {
	return percentileFrom(o.n, p, o.at)
}

// selectPercentiles finds the order statistics that the given percentiles
// of s (no NaN, non-empty) read, and the minimum and maximum. It reorders
// s, and on large columns overwrites part of it.
func selectPercentiles(s []float64, ps ...float64) orderStats {
	n := len(s)
	ranks := []int{0, n - 1}
	for _, p := range ps {
		lo, hi := percentileRanks(n, p)
		ranks = append(ranks, lo, hi)
	}
	slices.Sort(ranks)
	o := orderStats{n: n, rank: slices.Compact(ranks)}
	o.value = make([]float64, len(o.rank))
	if n < sampleSelectMin || !selectBySample(s, o) {
		selectRanks(s, 0, o.rank, 2*bits.Len(uint(n)))
		for i, r := range o.rank {
			o.value[i] = s[r]
		}
	}
	return o
}

// selectRanks reorders s so that s[k-off] is the (k-off)-th smallest value
// of s for every k in ranks (ascending, each in [off, off+len(s))). It is a
// quickselect that follows every rank at once, with a three-way partition
// (columns often hold many equal values) and a sort as the fallback when
// depth runs out, so it never degrades to quadratic time.
func selectRanks(s []float64, off int, ranks []int, depth int) {
	for len(ranks) > 0 {
		n := len(s)
		if n <= 24 || depth == 0 {
			slices.Sort(s)
			return
		}
		depth--
		pivot := medianOfThree(s[0], s[n/2], s[n-1])
		if n > 512 {
			pivot = medianOfThree(
				medianOfThree(s[0], s[n/8], s[n/4]),
				medianOfThree(s[3*n/8], s[n/2], s[5*n/8]),
				medianOfThree(s[3*n/4], s[7*n/8], s[n-1]))
		}
		lt, gt := partition3(s, pivot)
		// Ranks in [off+lt, off+gt) are settled: they hold the pivot.
		i := sort.SearchInts(ranks, off+lt)
		j := sort.SearchInts(ranks, off+gt)
		selectRanks(s[:lt], off, ranks[:i], depth)
		s, off, ranks = s[gt:], off+gt, ranks[j:]
	}
}

func medianOfThree(a, b, c float64) float64 {
	if a > b {
		a, b = b, a
	}
	if b > c {
		b = c
	}
	if a > b {
		return a
	}
	return b
}

// partition3 rearranges s into values below the pivot, equal to it and
// above it, returning the bounds [lt, gt) of the equal part. Each of its
// two passes swaps at every value and moves its boundary by the
// comparison's result instead of branching on it: which side a value
// falls on is as unpredictable as the data, and a mispredicted branch per
// value cost more than the stores (a third of FGRT's serial fit on 5900
// rows). Only the order statistics are read afterwards, which no
// arrangement within a part changes.
func partition3(s []float64, pivot float64) (lt, gt int) {
	for i, v := range s { // [0, lt) < pivot <= [lt, i]
		s[i] = s[lt]
		s[lt] = v
		lt += branchless.Int(v < pivot)
	}
	gt = lt
	rest := s[lt:]
	for i, v := range rest { // [lt, gt) == pivot < [gt, lt+i]
		rest[i] = s[gt]
		s[gt] = v
		gt += branchless.Int(!(v > pivot))
	}
	return lt, gt
}

// Sample selection (for large columns): a sorted sample of the column
// gives, for each wanted rank, a narrow value interval that holds it with
// overwhelming probability; one counting pass checks that it does and
// ranks the intervals, a second pass gathers the few values inside them
// (in place, so the column's values are lost, not their multiset's order
// statistics), and a quickselect of those finishes. If the sample misled (the check
// fails), the caller falls back to selectRanks on the whole column.
const (
	sampleSelectMin = 1 << 15 // smaller columns use selectRanks directly
	sampleSize      = 1 << 13
	sampleSlack     = 192 // sample positions on each side of a rank's estimate (about 4 standard deviations)
	maxIntervals    = 6   // the quantile style needs five (the second smallest value and four percentiles)
)

// bucketPool recycles the per-value bucket bytes between columns and fits.
var bucketPool = sync.Pool{New: func() any { return new([]uint8) }}

// interval is a closed value range [lo, hi] of the column and the wanted
// ranks it should contain.
type interval struct {
	lo, hi float64
	ranks  []int
}

func selectBySample(s []float64, o orderStats) bool {
	n := len(s)
	ivs := sampleIntervals(s, o.rank)
	if len(ivs) > maxIntervals {
		return false
	}
	bp := bucketPool.Get().(*[]uint8)
	defer bucketPool.Put(bp)
	if cap(*bp) < n {
		*bp = make([]uint8, n)
	}
	buckets := (*bp)[:n]
	counts, mn, mx := bucketize(s, ivs, buckets)
	ranks, ok := ranksInside(ivs, counts)
	if !ok {
		return false
	}
	// Pass 2: move the values inside the intervals to the front of s (each
	// is written at or before the place it is read from). The intervals are
	// disjoint and ascending, so a rank among these values is a rank within
	// its interval plus the sizes of the intervals below it.
	w := 0
	for i, v := range s {
		s[w] = v
		w += int(buckets[i] & 1)
	}
	selectRanks(s[:w], 0, ranks, 2*bits.Len(uint(w)))
	j := 0
	for _, iv := range ivs {
		for _, r := range iv.ranks {
			o.value[sort.SearchInts(o.rank, r)] = s[ranks[j]]
			j++
		}
	}
	o.value[0], o.value[len(o.value)-1] = mn, mx
	return true
}

// sampleIntervals estimates, from a regular sample of s, an interval of
// values around each interior wanted rank, merging overlaps; the extremes
// come from the counting pass.
func sampleIntervals(s []float64, wanted []int) []interval {
	n := len(s)
	sample := make([]float64, sampleSize)
	for i := range sample {
		sample[i] = s[int(uint64(i)*uint64(n)/sampleSize)]
	}
	slices.Sort(sample)
	var ivs []interval
	for _, r := range wanted {
		if r == 0 || r == n-1 {
			continue
		}
		est := int(uint64(r) * sampleSize / uint64(n))
		lo, hi := math.Inf(-1), math.Inf(1) // near the ends, open the interval
		if est-sampleSlack > 0 {
			lo = sample[est-sampleSlack]
		}
		if est+sampleSlack < sampleSize-1 {
			hi = sample[est+sampleSlack]
		}
		if k := len(ivs) - 1; k >= 0 && lo <= ivs[k].hi {
			ivs[k].hi = max(ivs[k].hi, hi)
			ivs[k].ranks = append(ivs[k].ranks, r)
			continue
		}
		ivs = append(ivs, interval{lo: lo, hi: hi, ranks: []int{r}})
	}
	return ivs
}

// bucketCounts are the values per bucket, in four interleaved lanes.
type bucketCounts [4][2*maxIntervals + 1]int

// bucketize is the counting pass: every value's bucket (bucket 2i+1 is
// interval i, 2i the gap before it), the bucket counts, the minimum and
// the maximum.
func bucketize(s []float64, ivs []interval, buckets []uint8) (counts bucketCounts, mn, mx float64) {
	// Unused bounds are NaN: no comparison with them holds.
	var bounds [2 * maxIntervals]float64 // lo_1, hi_1, lo_2, ...
	for i := range bounds {
		bounds[i] = math.NaN()
	}
	for i, iv := range ivs {
		bounds[2*i], bounds[2*i+1] = iv.lo, iv.hi
	}
	mn, mx = s[0], s[0]
	for i, v := range s {
		b := bucketOf(v, &bounds)
		buckets[i] = b
		counts[i&3][b]++
		if v < mn {
			mn = v
		}
		if v > mx {
			mx = v
		}
	}
	return counts, mn, mx
}

// ranksInside turns each interval's wanted ranks into ranks among the
// values inside the intervals; ok is false when a wanted rank fell
// outside its interval (the sample misled: the caller selects another
// way).
func ranksInside(ivs []interval, counts bucketCounts) (ranks []int, ok bool) {
	below, inside := 0, 0
	for i := range ivs {
		below += counts[0][2*i] + counts[1][2*i] + counts[2][2*i] + counts[3][2*i]
		size := counts[0][2*i+1] + counts[1][2*i+1] + counts[2][2*i+1] + counts[3][2*i+1]
		for _, r := range ivs[i].ranks {
			if r < below || r >= below+size {
				return nil, false
			}
			ranks = append(ranks, r-below+inside)
		}
		below += size
		inside += size
	}
	return ranks, true
}

// bucketOf returns 2i+1 when v lies in interval i ([bounds[2i],
// bounds[2i+1]]) and 2i when it lies between interval i-1 and interval i,
// for disjoint ascending intervals (NaN bounds past the last one);
// branch-free and unrolled.
func bucketOf(v float64, b *[2 * maxIntervals]float64) uint8 {
	return b2u(v >= b[0]) + b2u(v > b[1]) + b2u(v >= b[2]) + b2u(v > b[3]) +
		b2u(v >= b[4]) + b2u(v > b[5]) + b2u(v >= b[6]) + b2u(v > b[7]) +
		b2u(v >= b[8]) + b2u(v > b[9]) + b2u(v >= b[10]) + b2u(v > b[11])
}

func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}
