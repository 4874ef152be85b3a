package analysis

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/results"
	"github.com/fgrtbench/fgrtbench/stats"
)

// TestDecisionAtTheEdges: the omnibus verdict comes from the exact
// permutation test; a study whose datasets all rank the methods the same
// way is significant only where the exact p-value is below α (never from
// an infinite Iman–Davenport F), and post-hoc comparisons are exploratory
// unless the verdict is significant.
func TestDecisionAtTheEdges(t *testing.T) {
	cases := []struct {
		name        string
		acc         map[string]map[string]float64
		p           float64
		significant bool
		identical   bool
	}{
		// One method wins both datasets: χ² = 2 (p = 0.157), F infinite
		// (p "0"), exact p = 2/4.
		{"N=2 k=2 one method wins both", map[string]map[string]float64{"a": {"d1": 0.9, "d2": 0.8}, "b": {"d1": 0.7, "d2": 0.6}}, 0.5, false, true},
		// Three datasets, three methods ranked alike: 1/36 < α.
		{"N=3 k=3 identical", map[string]map[string]float64{"a": {"d1": 0.9, "d2": 0.8, "d3": 0.7}, "b": {"d1": 0.8, "d2": 0.7, "d3": 0.6}, "c": {"d1": 0.7, "d2": 0.6, "d3": 0.5}}, 1.0 / 36, true, true},
		// Three datasets rank three methods alike with a tie (a = b > c):
		// χ² = 4.5 (the most these ties allow), F = 6 on (2, 4) with
		// p = 1/16 (scipy.stats.f.sf(6, 2, 4) = 0.0625), finite and
		// reported; exact p = 1/9.
		{"N=3 k=3 identical with a tie", map[string]map[string]float64{"a": {"d1": 0.9, "d2": 0.8, "d3": 0.7}, "b": {"d1": 0.9, "d2": 0.8, "d3": 0.7}, "c": {"d1": 0.7, "d2": 0.6, "d3": 0.5}}, 1.0 / 9, false, true},
		// Two of three datasets agree, the third reverses: χ² = 0.667.
		{"N=3 k=3 mixed", map[string]map[string]float64{"a": {"d1": 0.9, "d2": 0.8, "d3": 0.5}, "b": {"d1": 0.8, "d2": 0.7, "d3": 0.6}, "c": {"d1": 0.7, "d2": 0.6, "d3": 0.7}}, 0.944, false, false},
	}
	for _, c := range cases {
		// a and b tie everywhere in the tied case: kept apart, as the
		// edge needs two methods tied, not one merged entry.
		a, err := Compute(records(c.acc, nil), Options{Samples: 2000, KeepDuplicates: true})
		if err != nil {
			t.Fatal(err)
		}
		ts := a.Tests[0]
		d := ts.Decision
		if ts.NA != "" || d.Test != TestFriedmanExact || !ts.Permutation.Exact || math.Abs(d.P-c.p) > 0.0005 || d.Significant != c.significant || ts.Friedman.Identical != c.identical {
			t.Errorf("%s: decision %+v identical %v NA %q", c.name, d, ts.Friedman.Identical, ts.NA)
		}
		if d.P != ts.Permutation.P {
			t.Errorf("%s: decision p %v, permutation p %v", c.name, d.P, ts.Permutation.P)
		}
		// Iman–Davenport only where finite: an infinite F has no p-value
		// (null in analysis.json), never the 0 its limit gives; and the
		// verdict says "infinite" exactly then, so that it never
		// contradicts the F the Friedman table prints.
		f := ts.Friedman
		infinite := c.identical && !strings.Contains(c.name, "tie")
		if math.IsInf(f.ImanDavenport, 0) != infinite || math.IsNaN(f.PImanDavenport) != infinite {
			t.Errorf("%s: Iman–Davenport F %v with p %v", c.name, f.ImanDavenport, f.PImanDavenport)
		}
		if strings.Contains(d.Reason, "infinite") != infinite {
			t.Errorf("%s: reason %q with F = %v", c.name, d.Reason, f.ImanDavenport)
		}
		if c.identical && !infinite && (math.Abs(f.ImanDavenport-6) > 1e-9 || math.Abs(f.PImanDavenport-0.0625) > 1e-12 || !strings.Contains(d.Reason, "F = 6.0000")) {
			t.Errorf("%s: F %v p %v, reason %q; want F = 6, p = 0.0625 stated", c.name, f.ImanDavenport, f.PImanDavenport, d.Reason)
		}
		want := PostHocExploratory
		if c.significant {
			want = PostHocConfirmatory
		}
		if ts.PostHoc != want {
			t.Errorf("%s: post-hoc %q, want %q", c.name, ts.PostHoc, want)
		}
		if c.identical != strings.Contains(d.Reason, "ranks the methods identically") {
			t.Errorf("%s: reason %q", c.name, d.Reason)
		}
		if !strings.Contains(d.Reason, "counted") {
			t.Errorf("%s: reason does not say the arrangements were counted: %q", c.name, d.Reason)
		}
	}
}

// TestDecisionMonteCarlo: past the enumeration the verdict states its
// Monte Carlo precision and calls a difference only when the whole 99 %
// interval is below α.
func TestDecisionMonteCarlo(t *testing.T) {
	f := stats.FriedmanResult{N: 10, K: 12}
	cases := []struct {
		perm stats.PermutationResult
		sig  bool
	}{
		{stats.PermutationResult{P: 0.00001, Draws: 100000, Seed: 7, SE: 0.00001, Low: 0, High: 0.00005, Arrangements: 1e60}, true},
		// Estimate below α, interval reaching it: not significant.
		{stats.PermutationResult{P: 0.048, Draws: 100000, Seed: 7, SE: 0.0007, Low: 0.046, High: 0.0501, Arrangements: 1e60}, false},
	}
	for _, c := range cases {
		d := decide(f, c.perm)
		if d.Test != TestFriedmanMonteCarlo || d.Significant != c.sig || d.P != c.perm.P {
			t.Errorf("%+v: %+v", c.perm, d)
		}
		for _, s := range []string{"100000 random", "seed 7", "standard error", "99 % interval"} {
			if !strings.Contains(d.Reason, s) {
				t.Errorf("reason %q lacks %q", d.Reason, s)
			}
		}
		if !c.sig && !strings.Contains(d.Reason, "not called different") {
			t.Errorf("inconclusive estimate not explained: %q", d.Reason)
		}
	}
}

// TestMissingCellsRefused: a protocol where a method lacks a dataset gets
// no tests, and NA and Missing name every missing cell (the fault is
// injected by leaving one unit's rows out); the mean ranks describe the
// complete datasets and no p-value is 0 in analysis.json.
func TestMissingCellsRefused(t *testing.T) {
	acc := map[string]map[string]float64{
		"a": {"d1": 0.9, "d2": 0.8, "d3": 0.7, "d4": 0.6},
		"b": {"d1": 0.8, "d2": 0.7, "d4": 0.5},
		"c": {"d1": 0.7, "d2": 0.9, "d3": 0.5, "d4": 0.4},
	}
	a, err := Compute(records(acc, nil), Options{Samples: 2000})
	if err != nil {
		t.Fatal(err)
	}
	ts := a.Tests[0]
	if len(ts.Missing) != 1 || ts.Missing[0] != (MissingCell{Protocol: "clean", Dataset: "d3", Method: "b"}) {
		t.Fatalf("missing %+v", ts.Missing)
	}
	for _, s := range []string{"clean", "d3/b", "lacks 1 of 12 results", "leaving out d3"} {
		if !strings.Contains(ts.NA, s) {
			t.Errorf("NA %q lacks %q", ts.NA, s)
		}
	}
	if len(ts.Pairs) != 0 || ts.Decision.Test != "" || !math.IsNaN(ts.Decision.P) || ts.PostHoc != "" {
		t.Errorf("tests run despite missing cells: %+v", ts)
	}
	if len(ts.Datasets) != 3 || len(ts.Friedman.AvgRanks) != 3 || math.Abs(ts.MeanRank("a")-4.0/3) > 1e-12 {
		t.Errorf("descriptive ranks: datasets %v ranks %v", ts.Datasets, ts.Friedman.AvgRanks)
	}
	js, err := a.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Tests []struct {
			Missing  []map[string]string `json:"missing"`
			Friedman map[string]any      `json:"friedman"`
			Decision map[string]any      `json:"decision"`
		} `json:"tests"`
	}
	if err := json.Unmarshal(js, &doc); err != nil {
		t.Fatal(err)
	}
	tj := doc.Tests[0]
	if len(tj.Missing) != 1 || tj.Missing[0]["method"] != "b" || tj.Missing[0]["dataset"] != "d3" {
		t.Errorf("analysis.json missing %v", tj.Missing)
	}
	for _, k := range []string{"p", "p_tie_corrected", "p_iman_davenport"} {
		if v, ok := tj.Friedman[k]; !ok || v != nil {
			t.Errorf("friedman.%s = %v, want null", k, v)
		}
	}
	if v := tj.Decision["p"]; v != nil {
		t.Errorf("decision.p = %v, want null", v)
	}
}

// TestZeroMethodOption: the Wilcoxon convention is an option, recorded in
// Tests and every pair; an unknown one is an error.
func TestZeroMethodOption(t *testing.T) {
	acc := map[string]map[string]float64{"a": {"d1": 0.9, "d2": 0.8, "d3": 0.7}, "b": {"d1": 0.9, "d2": 0.7, "d3": 0.8}}
	for _, zm := range []string{"", stats.ZeroPratt, stats.ZeroSplit} {
		a, err := Compute(records(acc, nil), Options{Samples: 2000, ZeroMethod: zm})
		if err != nil {
			t.Fatal(err)
		}
		want := zm
		if want == "" {
			want = stats.ZeroWilcox
		}
		ts := a.Tests[0]
		if ts.ZeroMethod != want || ts.Pairs[0].Wilcoxon.ZeroMethod != want || ts.Pairs[0].Wilcoxon.Zeros != 1 {
			t.Errorf("%q: tests %q pair %+v", zm, ts.ZeroMethod, ts.Pairs[0].Wilcoxon)
		}
	}
	if _, err := Compute(records(acc, nil), Options{ZeroMethod: "drop"}); err == nil {
		t.Error("unknown zero method: no error")
	}
}

func TestPText(t *testing.T) {
	for p, want := range map[float64]string{0.15729920705: "p = 0.1573", 0.00001: "p < 0.0001", 0.0001: "p = 0.0001", 1: "p = 1.0000", math.NaN(): "p n/a"} {
		if got := PText(p); got != want {
			t.Errorf("PText(%v) = %q, want %q", p, got, want)
		}
	}
}

// TestNotApplicableWording: a study too small to compare says why in a
// sentence whose noun agrees with its count ("1 dataset", not
// "1 dataset(s)"), since the report and the terminal print it as is.
func TestNotApplicableWording(t *testing.T) {
	cases := []struct {
		name string
		acc  map[string]map[string]float64
		want string
	}{
		{"one dataset", map[string]map[string]float64{"a": {"d1": 0.9}, "b": {"d1": 0.8}}, "the clean protocol has 1 dataset; a comparison needs 2"},
		{"one method", map[string]map[string]float64{"a": {"d1": 0.9, "d2": 0.8}}, "the clean protocol has 1 method; a comparison needs 2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, err := Compute(records(c.acc, nil), Options{Samples: 2000})
			if err != nil {
				t.Fatal(err)
			}
			if got := a.Tests[0].NA; got != c.want {
				t.Errorf("NA = %q, want %q", got, c.want)
			}
		})
	}
}

// countRecords builds selected rows from correct counts: correct[method]
// [dataset] per fold, each fold of n rows, with accuracy correct/n as the
// runner writes it.
func countRecords(correct map[string]map[string][]int, n int, withCounts bool) []results.Record {
	var out []results.Record
	for m, byDS := range correct {
		for d, folds := range byDS {
			for f, c := range folds {
				r := results.Record{Protocol: "clean", Dataset: d, Method: m, Selected: true, Selection: "fixed", Fold: f,
					Accuracy: float64(c) / float64(n), BalancedAccuracy: 0.5, RulebaseSize: 3, Key: m + d}
				if withCounts {
					r.NTest, r.Correct = n, c
				}
				out = append(out, r)
			}
		}
	}
	return out
}

// TestBayesDifferencesExactAtTheRope: A beats B by exactly one row in a
// hundred on each of three datasets, 1 pp, the ROPE. From the correct
// counts the differences are exactly 1/100 and every Walsh sum sits on the
// boundary (P(=) = 1, as stats.BayesSignedRankExact on [1/100]×3); from
// the floats 0.96 − 0.95 = 0.010000000000000009 is outside the ROPE and
// the float test calls A practically better (P(A>B) = 0.834), which is
// what rows without counts still get, and say so.
func TestBayesDifferencesExactAtTheRope(t *testing.T) {
	correct := map[string]map[string][]int{
		"a": {"d1": {96, 96}, "d2": {91, 91}, "d3": {81, 81}},
		"b": {"d1": {95, 95}, "d2": {90, 90}, "d3": {80, 80}},
	}
	opts := Options{Samples: 50000}
	want, _ := stats.BayesSignedRankExact([]*big.Rat{big.NewRat(1, 100), big.NewRat(1, 100), big.NewRat(1, 100)}, stats.DefaultSignedRankOptions())
	for _, c := range []struct {
		counts bool
		right  float64
	}{{true, 0}, {false, 0.834}} {
		a, err := Compute(countRecords(correct, 100, c.counts), opts)
		if err != nil {
			t.Fatal(err)
		}
		ts := a.Tests[0]
		if len(ts.Pairs) != 1 || ts.ExactDifferences != c.counts {
			t.Fatalf("counts %v: pairs %+v exact %v", c.counts, ts.Pairs, ts.ExactDifferences)
		}
		got := ts.Pairs[0].Bayes
		if c.counts && got != want {
			t.Errorf("from counts: %+v, want %+v", got, want)
		}
		if math.Abs(got.PRight-c.right) > 0.01 {
			t.Errorf("counts %v: P(A>B) %v, want %v", c.counts, got.PRight, c.right)
		}
	}
}

// TestReferenceEffects: against a reference method each comparison has
// its mean difference with the 95 % t interval (scipy 1.10:
// stats.t.interval(0.95, N−1, loc=mean, scale=stats.sem(d)), in pp) and
// its wins, ties and losses, ties decided on the correct counts; at N = 1
// the interval is n/a, at k = 2 the family is one comparison.
func TestReferenceEffects(t *testing.T) {
	// Correct counts out of 100 rows per fold, two folds alike; diffs is
	// a − b per dataset in rows (= pp).
	build := func(diffs []int) map[string]map[string][]int {
		c := map[string]map[string][]int{"a": {}, "b": {}}
		for i, d := range diffs {
			ds := fmt.Sprintf("d%02d", i)
			c["a"][ds] = []int{80 + d, 80 + d}
			c["b"][ds] = []int{80, 80}
		}
		return c
	}
	nan := math.NaN()
	cases := []struct {
		name     string
		diffs    []int
		mean     float64
		ci       [2]float64
		w, ti, l int
	}{
		{"N=1", []int{3}, 3, [2]float64{nan, nan}, 1, 0, 0},
		{"N=2", []int{1, 3}, 2, [2]float64{-10.706204736432095, 14.706204736432095}, 2, 0, 0},
		{"N=3 with a tie", []int{1, 0, -2}, -0.3333333333333333, [2]float64{-4.127916367072799, 3.461249700406132}, 1, 1, 1},
		{"N=10", []int{5, -1, 2, 0, 3, 1, -2, 4, 2, 1}, 1.5, [2]float64{-0.05451882062144464, 3.0545188206214444}, 7, 1, 2},
	}
	for _, c := range cases {
		a, err := Compute(countRecords(build(c.diffs), 100, true), Options{Reference: "a", Samples: 2000})
		if err != nil {
			t.Fatal(err)
		}
		ts := a.Tests[0]
		if len(ts.Pairs) != 1 || ts.Pairs[0].A != "a" {
			t.Fatalf("%s: pairs %+v", c.name, ts.Pairs)
		}
		p := ts.Pairs[0]
		same := func(got, want float64) bool {
			return math.IsNaN(got) == math.IsNaN(want) && (math.IsNaN(want) || math.Abs(got-want) <= 1e-9*math.Max(1, math.Abs(want)))
		}
		if !same(p.MeanDiff, c.mean) || !same(p.DiffCI[0], c.ci[0]) || !same(p.DiffCI[1], c.ci[1]) {
			t.Errorf("%s: mean %v CI %v, want %v %v", c.name, p.MeanDiff, p.DiffCI, c.mean, c.ci)
		}
		if p.Wins != c.w || p.Ties != c.ti || p.Losses != c.l || !p.TieExact {
			t.Errorf("%s: W/T/L %d/%d/%d (exact %v), want %d/%d/%d", c.name, p.Wins, p.Ties, p.Losses, p.TieExact, c.w, c.ti, c.l)
		}
		if len(c.diffs) > 1 && !strings.Contains(strings.Join(ts.Summary, " "), fmt.Sprintf("%d/%d/%d", c.w, c.ti, c.l)) {
			t.Errorf("%s: the summary does not give the wins/ties/losses: %q", c.name, ts.Summary)
		}
	}
}

// TestPostHocPower: the paper's clean study has N = 10 datasets and
// k = 13 methods. Over every pair (78 comparisons) Holm's first step
// needs p < 0.05/78 ≈ 0.000641, below the smallest p any Wilcoxon test
// over 10 datasets can give (0.0019041950430043904, scipy's wilcoxon of
// ten equal differences), so no pair can be significant and the summary
// says so with the numbers; against a reference (12 comparisons) the
// first step needs 0.00417, which the data can reach.
func TestPostHocPower(t *testing.T) {
	acc := map[string]map[string]float64{}
	for m := 0; m < 13; m++ {
		label := fmt.Sprintf("m%02d", m)
		acc[label] = map[string]float64{}
		for d := 0; d < 10; d++ {
			acc[label][fmt.Sprintf("d%02d", d)] = 0.5 + 0.03*float64(m) + 0.011*float64((m*7+d*3)%5)
		}
	}
	for _, c := range []struct {
		reference   string
		comparisons int
		powerless   bool
	}{{"", 78, true}, {"m00", 12, false}} {
		a, err := Compute(records(acc, nil), Options{Reference: c.reference, Samples: 500})
		if err != nil {
			t.Fatal(err)
		}
		ts := a.Tests[0]
		if ts.Comparisons != c.comparisons || ts.PostHocPowerless != c.powerless || math.Abs(ts.PostHocMinP-0.0019041950430043904) > 1e-15 ||
			math.Abs(ts.PostHocMinPHolm-math.Min(1, float64(c.comparisons)*ts.PostHocMinP)) > 1e-15 {
			t.Errorf("reference %q: comparisons %d min p %v Holm %v powerless %v", c.reference, ts.Comparisons, ts.PostHocMinP, ts.PostHocMinPHolm, ts.PostHocPowerless)
		}
		text := strings.Join(ts.Summary, " ")
		// The power of the all-pairs family is stated either way: as the
		// post-hoc family's without a reference, as the secondary one's
		// with.
		secondary := c.reference != ""
		if c.powerless != strings.Contains(text, "no pair can be significant at this number of datasets") ||
			!strings.Contains(text, "needs p < 0.05/78 ≈ 0.000641") ||
			secondary != strings.Contains(text, "no pair can be significant in that family at this number of datasets") ||
			secondary != (ts.AllPairsPower != nil && ts.AllPairsPower.Powerless && ts.AllPairsPower.Comparisons == 78 && len(ts.AllPairs) == 78) {
			t.Errorf("reference %q: summary %q", c.reference, text)
		}
		if c.powerless && ts.Decision.Significant && !strings.Contains(text, "no pair can be named") {
			t.Errorf("significant omnibus, no pair possible, not reconciled: %q", text)
		}
	}
}
