package ripper

import (
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// missingCode is the code of a cell that matches no condition value: a NaN
// input, or a value falling into the gap left by a dropped empty bin. In
// wittgenstein both are a pandas NaN, which equals nothing.
const missingCode = -1

// column turns one raw feature into condition codes, the way wittgenstein's
// BinTransformer (pandas engine) and CatNap see it.
type column struct {
	// binned columns: right-closed intervals (lefts[k], rights[k]], sorted,
	// lefts[0] = -Inf and rights[last] = +Inf. Gaps are possible where an
	// empty bin was dropped.
	binned        bool
	lefts, rights []float64
	// unbinned columns: the distinct values; code k means values[k].
	values  []float64
	valueOf map[float64]int
}

// code returns the condition code of a raw cell.
func (c *column) code(v float64) int {
	if math.IsNaN(v) {
		return missingCode
	}
	if c.binned {
		// first interval whose right edge is >= v, then check the left edge
		k := sort.SearchFloat64s(c.rights, v)
		if k < len(c.rights) && v > c.lefts[k] {
			return k
		}
		return missingCode
	}
	if k, ok := c.valueOf[v]; ok {
		return k
	}
	return missingCode
}

// numCodes is the number of non-missing codes.
func (c *column) numCodes() int {
	if c.binned {
		return len(c.rights)
	}
	return len(c.values)
}

// fitColumn fits the coding of one feature on its training values.
//
// A numeric column with more than nBins distinct values (NaN counting as one
// value, as pandas' unique() does) is discretised: pd.qcut(q=nBins,
// precision=2, duplicates="drop"), falling back to pd.cut(bins=nBins) when
// fewer than two non-empty bins result; empty bins are dropped; the outer
// edges become ±Inf; a result with fewer than two bins leaves the column
// undiscretised. Everything else (nominal columns, numeric ones with few
// values) keeps its raw values, one code per distinct value.
func fitColumn(vals []float64, nominal bool, nBins int) *column {
	finite := make([]float64, 0, len(vals))
	hasNaN := false
	for _, v := range vals {
		if math.IsNaN(v) {
			hasNaN = true
			continue
		}
		finite = append(finite, v)
	}
	sort.Float64s(finite)
	nDistinct := len(uniqueSorted(slices.Clone(finite)))
	if hasNaN {
		nDistinct++
	}
	if !nominal && nDistinct > nBins && len(finite) > 0 {
		if lefts, rights := binEdges(finite, nBins); len(rights) >= 2 {
			return &column{binned: true, lefts: lefts, rights: rights}
		}
	}
	c := &column{valueOf: map[float64]int{}}
	for _, v := range vals {
		if math.IsNaN(v) {
			continue
		}
		if _, ok := c.valueOf[v]; !ok {
			c.valueOf[v] = len(c.values)
			c.values = append(c.values, v)
		}
	}
	return c
}

// binEdges returns the kept intervals for sorted non-NaN values: qcut, or
// the equal-width cut when qcut yields fewer than two non-empty bins.
func binEdges(sorted []float64, nBins int) (lefts, rights []float64) {
	edges := uniqueSorted(qcutEdges(sorted, nBins))
	counts := cutCounts(sorted, edges, true)
	if nonEmpty(counts) < 2 {
		edges = uniqueSorted(cutEdges(sorted[0], sorted[len(sorted)-1], nBins))
		counts = cutCounts(sorted, edges, false)
	}
	if len(edges) < 2 {
		return nil, nil
	}
	labels := formatBreaks(edges, 2)
	for k, n := range counts {
		if n > 0 {
			lefts = append(lefts, labels[k])
			rights = append(rights, labels[k+1])
		}
	}
	if len(rights) == 0 {
		return nil, nil
	}
	lefts[0] = math.Inf(-1)
	rights[len(rights)-1] = math.Inf(1)
	return lefts, rights
}

// qcutEdges are pandas' qcut edges: Series.quantile at linspace(0,1,q+1),
// which pandas evaluates as np.percentile(values, qs*100) with numpy's
// 'linear' method (numpy divides the percentages by 100 again).
func qcutEdges(sorted []float64, q int) []float64 {
	step := 1 / float64(q)
	out := make([]float64, q+1)
	for i := 0; i <= q; i++ {
		p := float64(i) * step
		if i == q {
			p = 1 // linspace sets the endpoint exactly
		}
		out[i] = quantileLinear(sorted, p*100/100)
	}
	return out
}

// quantileLinear is numpy's 'linear' quantile of sorted data, including
// numpy's two-sided lerp (b - (b-a)(1-t) when t >= 0.5).
func quantileLinear(sorted []float64, q float64) float64 {
	n := len(sorted)
	virtual := float64(float64(n-1) * q)
	if virtual >= float64(n-1) {
		return sorted[n-1]
	}
	if virtual <= 0 {
		return sorted[0]
	}
	lo := math.Floor(virtual)
	i := int(lo)
	t := virtual - lo
	a, b := sorted[i], sorted[i+1]
	diff := b - a
	if t >= 0.5 {
		return b - float64(diff*(1-t))
	}
	return a + float64(diff*t)
}

// cutEdges are pd.cut's equal-width edges for an integer bin count:
// linspace(mn, mx, n+1) with the first edge lowered by 0.1% of the range.
func cutEdges(mn, mx float64, n int) []float64 {
	step := (mx - mn) / float64(n)
	out := make([]float64, n+1)
	for i := range out {
		out[i] = float64(float64(i)*step) + mn
	}
	out[n] = mx
	out[0] -= float64((mx - mn) * 0.001)
	return out
}

func uniqueSorted(x []float64) []float64 {
	out := x[:0:0]
	for i, v := range x {
		if i == 0 || v != x[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// cutCounts counts the values per right-closed bin of edges, as pandas'
// _bins_to_cuts assigns them (searchsorted left; with includeLowest the
// first edge belongs to bin 0). Values outside every bin are not counted.
func cutCounts(sorted, edges []float64, includeLowest bool) []int {
	counts := make([]int, len(edges)-1)
	if len(edges) < 2 {
		return counts[:0]
	}
	for _, v := range sorted {
		id := sort.SearchFloat64s(edges, v)
		if includeLowest && v == edges[0] {
			id = 1
		}
		if id >= 1 && id <= len(edges)-1 {
			counts[id-1]++
		}
	}
	return counts
}

func nonEmpty(counts []int) int {
	n := 0
	for _, c := range counts {
		if c > 0 {
			n++
		}
	}
	return n
}

// formatBreaks rounds the edges as pandas' _format_labels does: the
// precision starts at base and grows until the rounded edges are distinct.
// (The include_lowest adjustment of the first edge is omitted: that edge
// always becomes -Inf.)
func formatBreaks(edges []float64, base int) []float64 {
	prec := base
	for p := base; p < 20; p++ {
		if distinctRounded(edges, p) {
			prec = p
			break
		}
	}
	out := make([]float64, len(edges))
	for i, e := range edges {
		out[i] = roundFrac(e, prec)
	}
	return out
}

func distinctRounded(edges []float64, p int) bool {
	seen := make(map[float64]struct{}, len(edges))
	for _, e := range edges {
		seen[roundFrac(e, p)] = struct{}{}
	}
	return len(seen) == len(edges)
}

// roundFrac is pandas' _round_frac: numbers with a zero integer part keep
// `precision` significant digits, others `precision` decimals.
func roundFrac(x float64, precision int) float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) || x == 0 {
		return x
	}
	whole := math.Trunc(x)
	digits := precision
	if whole == 0 {
		digits = -floorLog10(math.Abs(x)) - 1 + precision
	}
	return npAround(x, digits)
}

// floorLog10 is floor(log10(a)) for a > 0, corrected for the inexactness
// of math.Log10 at powers of ten.
func floorLog10(a float64) int {
	e := int(math.Floor(math.Log10(a)))
	for e > -330 && math.Pow10(e) > a {
		e--
	}
	for e < 330 && math.Pow10(e+1) <= a {
		e++
	}
	return e
}

// npAround is numpy.around(x, d) for d >= 0: scale, round half to even,
// unscale.
func npAround(x float64, d int) float64 {
	if d < 0 {
		f := math.Pow10(-d)
		return math.RoundToEven(x/f) * f
	}
	f := math.Pow10(d)
	return math.RoundToEven(x*f) / f
}

// pyFloat formats a float as Python's repr does for the bin labels
// ("5.1", "100.0", "1e-05"), which is how wittgenstein names bins.
func pyFloat(v float64) string {
	if math.IsInf(v, 1) {
		return "inf"
	}
	if math.IsInf(v, -1) {
		return "-inf"
	}
	if v == math.Trunc(v) && math.Abs(v) < 1e16 {
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	s := strconv.FormatFloat(v, 'g', -1, 64)
	if strings.Contains(s, "e") {
		// Python writes two-digit exponents: 1e-05, 1.5e+20
		mant, exp, _ := strings.Cut(s, "e")
		sign := exp[0]
		digits := exp[1:]
		if len(digits) < 2 {
			digits = "0" + digits
		}
		return mant + "e" + string(sign) + digits
	}
	return s
}

// binLabel names interval k of a binned column like wittgenstein does:
// "<5.1", "5.1-5.8", ">6.4".
func (c *column) binLabel(k int) string { return c.binLabelWith(k, pyFloat) }

// binLabelWith is binLabel with the edges printed by num.
func (c *column) binLabelWith(k int, num func(float64) string) string {
	l, r := c.lefts[k], c.rights[k]
	switch {
	case math.IsInf(l, -1) && math.IsInf(r, 1):
		return "any"
	case math.IsInf(l, -1):
		return "<" + num(r)
	case math.IsInf(r, 1):
		return ">" + num(l)
	default:
		return num(l) + "-" + num(r)
	}
}
