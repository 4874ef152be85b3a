package analysis

import (
	"slices"
	"strings"
	"testing"
)

// TestCompetitors: baselines leave the ranking, labels with the same
// correct count on every fold are one entry (under the reference when it
// is one of them), the summary states both and how to undo them, and the
// headline ranking still ranks every method.
func TestCompetitors(t *testing.T) {
	correct := map[string]map[string][]int{
		"fgrt":       {"d1": {90, 80}, "d2": {70, 75}, "d3": {60, 66}},
		"fgrt-fixed": {"d1": {90, 80}, "d2": {70, 75}, "d3": {60, 66}},
		"cart":       {"d1": {85, 85}, "d2": {72, 71}, "d3": {65, 64}},
		"c45":        {"d1": {88, 83}, "d2": {69, 70}, "d3": {63, 67}},
		"majority":   {"d1": {50, 50}, "d2": {40, 40}, "d3": {30, 30}},
	}
	cases := []struct {
		name     string
		opts     Options
		counts   bool
		methods  []string
		merged   [][]string
		mergedBy string
		says     []string
	}{
		{"defaults", Options{Baselines: []string{"majority"}, Reference: "fgrt-fixed"}, true,
			[]string{"c45", "cart", "fgrt-fixed"}, [][]string{{"fgrt-fixed", "fgrt"}}, MergedByCounts,
			[]string{"majority is a baseline, a reference point rather than a competitor: the rank tests leave it out", "(--rank-baselines ranks it)",
				"fgrt-fixed and fgrt have the same correct count on every fold of every dataset", "as fgrt-fixed = fgrt (--keep-duplicates ranks them apart)"}},
		{"no counts", Options{Baselines: []string{"majority"}}, false,
			[]string{"c45", "cart", "fgrt"}, [][]string{{"fgrt", "fgrt-fixed"}}, MergedByAccuracies,
			[]string{"the same accuracy on every fold of every dataset (results.csv records no correct counts for them)"}},
		{"switched off", Options{KeepDuplicates: true}, true,
			[]string{"c45", "cart", "fgrt", "fgrt-fixed", "majority"}, nil, "", nil},
	}
	for _, c := range cases {
		c.opts.Samples = 500
		a, err := Compute(countRecords(correct, 100, c.counts), c.opts)
		if err != nil {
			t.Fatal(err)
		}
		ts := a.Tests[0]
		got := slices.Clone(ts.Methods)
		slices.Sort(got)
		if !slices.Equal(got, c.methods) || len(ts.Merged) != len(c.merged) || ts.MergedBy != c.mergedBy {
			t.Errorf("%s: methods %v merged %v by %q", c.name, ts.Methods, ts.Merged, ts.MergedBy)
		}
		for i, g := range c.merged {
			if i < len(ts.Merged) && !slices.Equal(ts.Merged[i], g) {
				t.Errorf("%s: group %v, want %v", c.name, ts.Merged[i], g)
			}
		}
		text := strings.Join(ts.Summary, " ")
		for _, s := range c.says {
			if !strings.Contains(text, s) {
				t.Errorf("%s: summary lacks %q:\n%s", c.name, s, text)
			}
		}
		if r, _ := a.RankingOf("clean"); len(r.Methods) != 5 {
			t.Errorf("%s: the headline ranks %d methods, want all 5", c.name, len(r.Methods))
		}
		if len(ts.Friedman.AvgRanks) != len(ts.Methods) || ts.Friedman.K != len(ts.Methods) {
			t.Errorf("%s: Friedman over %d methods, %d ranked", c.name, ts.Friedman.K, len(ts.Methods))
		}
	}
}

// TestBaselineRanks pins the baseline's reference rank: its mean rank when
// each dataset ranks it together with the ranked methods (ties sharing the
// average rank), while theirs stay ranks among themselves.
func TestBaselineRanks(t *testing.T) {
	correct := map[string]map[string][]int{
		// d1: majority last of 3 (rank 3); d2: it ties cart for 2nd and
		// 3rd (2.5); d3: it beats both (1). Mean (3 + 2.5 + 1) / 3.
		"fgrt":     {"d1": {90, 80}, "d2": {70, 75}, "d3": {30, 30}},
		"cart":     {"d1": {85, 85}, "d2": {60, 60}, "d3": {40, 40}},
		"majority": {"d1": {50, 50}, "d2": {60, 60}, "d3": {90, 90}},
	}
	cases := []struct {
		name string
		opts Options
		want []BaselineRank
	}{
		{"baseline", Options{Baselines: []string{"majority"}}, []BaselineRank{{Method: "majority", MeanRank: 6.5 / 3}}},
		{"ranked", Options{}, nil},
	}
	for _, c := range cases {
		c.opts.Samples = 500
		a, err := Compute(countRecords(correct, 100, true), c.opts)
		if err != nil {
			t.Fatal(err)
		}
		ts := a.Tests[0]
		if !slices.Equal(ts.BaselineRanks, c.want) {
			t.Errorf("%s: baseline ranks %v, want %v", c.name, ts.BaselineRanks, c.want)
		}
		// Among themselves fgrt and cart tie on d1 and win one each of d2
		// and d3: 1.5 both, whatever the baseline's place.
		if c.want != nil && !slices.Equal(ts.Friedman.AvgRanks, []float64{1.5, 1.5}) {
			t.Errorf("%s: the ranked methods' ranks %v moved with the baseline", c.name, ts.Friedman.AvgRanks)
		}
	}
}
