package ripper

import (
	"math"
	"slices"
	"testing"
)

func seq(from, to float64) []float64 {
	var out []float64
	for v := from; v <= to; v++ {
		out = append(out, v)
	}
	return out
}

func repeat(v float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

var inf = math.Inf(1)

func TestBinEdges(t *testing.T) {
	cases := []struct {
		name          string
		vals          []float64
		lefts, rights []float64
	}{
		{
			// 1..20: virtual index 19·q; q = 0.1 → 1.9 → lerp(2, 3, 0.9) =
			// 3 − 1·0.1 = 2.9, then 4.8, 6.7, ..., 18.1; two-decimal rounding
			// keeps them; outer edges become ±Inf.
			name:   "uniform 1..20",
			vals:   seq(1, 20),
			lefts:  []float64{-inf, 2.9, 4.8, 6.7, 8.6, 10.5, 12.4, 14.3, 16.2, 18.1},
			rights: []float64{2.9, 4.8, 6.7, 8.6, 10.5, 12.4, 14.3, 16.2, 18.1, inf},
		},
		{
			// 15 zeros + 1..10 (n = 25, 11 distinct): virtual 24·q gives
			// 0 (q ≤ .5), 14.4 → lerp(0,1,.4) = 0.4, 16.8 → lerp(2,3,.8) = 2.8,
			// 19.2 → 5.2, 21.6 → 7.6, 24 → 10. Duplicate zeros are dropped:
			// edges 0, .4, 2.8, 5.2, 7.6, 10 → 5 bins, all non-empty.
			name:   "skewed qcut drops duplicate edges",
			vals:   append(repeat(0, 15), seq(1, 10)...),
			lefts:  []float64{-inf, 0.4, 2.8, 5.2, 7.6},
			rights: []float64{0.4, 2.8, 5.2, 7.6, inf},
		},
		{
			// 100 zeros + 1..11 (n = 111): every decile up to 0.9 is 0, so
			// qcut has one bin and pandas falls back to pd.cut(bins=10):
			// linspace(0, 11, 11) → step 1.1, edges 1.1, 2.2, ..., 9.9.
			name:   "fallback to equal width",
			vals:   append(repeat(0, 100), seq(1, 11)...),
			lefts:  []float64{-inf, 1.1, 2.2, 3.3, 4.4, 5.5, 6.6, 7.7, 8.8, 9.9},
			rights: []float64{1.1, 2.2, 3.3, 4.4, 5.5, 6.6, 7.7, 8.8, 9.9, inf},
		},
		{
			// 100 zeros + 1..10 + 1000: equal-width bins of 100 leave
			// (100, 900] empty; only (−Inf, 100] and (900, +Inf] survive.
			name:   "empty bins dropped",
			vals:   append(append(repeat(0, 100), seq(1, 10)...), 1000),
			lefts:  []float64{-inf, 900},
			rights: []float64{100, inf},
		},
	}
	for _, c := range cases {
		sorted := slices.Clone(c.vals)
		slices.Sort(sorted)
		l, r := binEdges(sorted, 10)
		if !slices.Equal(l, c.lefts) || !slices.Equal(r, c.rights) {
			t.Errorf("%s:\n lefts  %v\n want   %v\n rights %v\n want   %v", c.name, l, c.lefts, r, c.rights)
		}
	}
}

func TestRoundFrac(t *testing.T) {
	cases := []struct {
		x    float64
		p    int
		want float64
	}{
		{0.012345, 2, 0.012}, // whole part 0: −floor(log10 .012345) − 1 + 2 = 3 decimals
		{0.001, 2, 0.001},    // log10 is exactly −3: 4 decimals, unchanged
		{123.456, 2, 123.46}, // whole part ≠ 0: 2 decimals
		{-0.5, 2, -0.5},
		{2.675, 2, 2.68}, // 2.675·100 rounds to 267.5 in binary64 → half-even 268 (numpy's multiply-rint-divide; Python's round() would say 2.67)
		{0.125, 1, 0.1},  // −floor(log10 .125) − 1 + 1 = 1 decimal: rint(1.25) = 1 → 0.1
		{0, 2, 0},
	}
	for _, c := range cases {
		if got := roundFrac(c.x, c.p); got != c.want {
			t.Errorf("roundFrac(%v, %d) = %v, want %v", c.x, c.p, got, c.want)
		}
	}
	// precision grows until the rounded edges are distinct:
	// p=2 → 1.0, 1.0; p=3 → 1.001, 1.001; p=4 → 1.0011, 1.0012
	got := formatBreaks([]float64{1.0011, 1.0012, 2}, 2)
	if want := []float64{1.0011, 1.0012, 2}; !slices.Equal(got, want) {
		t.Errorf("formatBreaks = %v, want %v", got, want)
	}
}

func TestFitColumnCodes(t *testing.T) {
	// 20 distinct values > 10 bins: discretised; right-closed intervals
	col := fitColumn(seq(1, 20), false, 10)
	if !col.binned {
		t.Fatal("1..20 should be binned")
	}
	for _, c := range []struct {
		v    float64
		want int
	}{{-5, 0}, {2.9, 0}, {2.91, 1}, {20, 9}, {1e9, 9}, {math.NaN(), missingCode}} {
		if got := col.code(c.v); got != c.want {
			t.Errorf("code(%v) = %d, want %d", c.v, got, c.want)
		}
	}
	if got := col.binLabel(0) + " " + col.binLabel(1) + " " + col.binLabel(9); got != "<2.9 2.9-4.8 >18.1" {
		t.Errorf("labels %q", got)
	}
	// a gap left by a dropped empty bin codes as missing
	gap := fitColumn(append(append(repeat(0, 100), seq(1, 10)...), 1000), false, 10)
	if gap.code(500) != missingCode || gap.code(50) != 0 || gap.code(950) != 1 {
		t.Errorf("gap coding wrong: %d %d %d", gap.code(500), gap.code(50), gap.code(950))
	}
	// exactly 10 distinct values: kept as they are, codes by first appearance
	raw := fitColumn([]float64{5, 3, 5, 1, 2, 4, 6, 7, 8, 9}, false, 10)
	if raw.binned || raw.code(5) != 0 || raw.code(3) != 1 || raw.code(42) != missingCode {
		t.Errorf("raw column coded wrong: %+v", raw)
	}
	// NaN counts as a distinct value: 10 numbers + NaN = 11 > 10 → binned
	withNaN := fitColumn(append(seq(1, 10), math.NaN()), false, 10)
	if !withNaN.binned {
		t.Error("10 values + NaN should be binned (pandas unique() counts NaN)")
	}
	// nominal columns are never binned
	nom := fitColumn(seq(0, 30), true, 10)
	if nom.binned || nom.numCodes() != 31 {
		t.Error("nominal column must keep its codes")
	}
	// one distinct value: a single code
	one := fitColumn(repeat(3, 8), false, 10)
	if one.binned || one.numCodes() != 1 {
		t.Error("constant column should have one code")
	}
}

func TestPyFloat(t *testing.T) {
	for v, want := range map[float64]string{5.1: "5.1", 100: "100.0", 1e-05: "1e-05", -3.25: "-3.25", 0.4: "0.4"} {
		if got := pyFloat(v); got != want {
			t.Errorf("pyFloat(%v) = %q, want %q", v, got, want)
		}
	}
}
