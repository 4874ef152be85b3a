package analysis

import (
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/fgrtbench/fgrtbench/results"
	"github.com/fgrtbench/fgrtbench/stats"
)

// Tests is the statistical comparison of the methods of one protocol over
// its datasets.
//
// The omnibus test is the permutation test of Friedman's statistic
// (stats.FriedmanPermutation): exact where every arrangement of the ranks
// can be counted, otherwise a seeded Monte Carlo estimate with its
// precision. Decision says which one decided and why. Friedman's χ² (with
// scipy's tie correction) and the Iman–Davenport F are large-sample
// approximations, kept beside it for reference; the F is infinite, and not
// reported, when every dataset ranks the methods identically without a
// tie (with a tie it is finite and reported). Post-hoc
// comparisons (the Nemenyi CD, Wilcoxon with Holm) are confirmatory only
// after a significant omnibus test and exploratory otherwise (PostHoc).
//
// The tests need a result of every method on every dataset. A protocol
// where some are missing gets no tests (NA names the missing cells, and
// Missing lists them all); its mean ranks are still given, over the
// complete datasets, as a description.
type Tests struct {
	Protocol string `json:"protocol"`
	// Methods are the ranked methods (the protocol's methods but its
	// Baselines and the labels Merged into another), in display order; Datasets the complete datasets the ranks cover;
	// Excluded the datasets some method lacks (see Missing).
	Methods  []string `json:"methods"`
	Datasets []string `json:"datasets"`
	Excluded []string `json:"excluded,omitempty"`
	// Baselines are the protocol's methods left out of the ranking as
	// reference points (Options.Baselines), in display order; Merged the
	// groups of labels with identical results on every fold of every
	// dataset, each ranked as one entry under its first label (which
	// Methods holds; EntryName names them all), and MergedBy how they
	// were found equal: MergedByCounts (the rows' correct counts) or
	// MergedByAccuracies (rows without counts).
	Baselines []string `json:"baselines,omitempty"`
	// BaselineRanks place each baseline beside the ranking it is left out
	// of: its mean rank when each complete dataset ranks it together with
	// the ranked methods (the others' ranks are unchanged: they rank among
	// themselves), for the CD diagram's reference line. A baseline without
	// a result on every complete dataset has none.
	BaselineRanks []BaselineRank `json:"baseline_ranks,omitempty"`
	Merged        [][]string     `json:"merged,omitempty"`
	MergedBy      string         `json:"merged_by,omitempty"`
	// Missing are the (dataset, method) cells of the protocol without a
	// result, in dataset then method order; any makes the tests NA.
	Missing []MissingCell `json:"missing,omitempty"`
	// NA says why there are no statistics ("" when there are): fewer than
	// two methods or two datasets, or missing cells. Views print "n/a" then.
	NA string `json:"na,omitempty"`
	// Friedman holds the mean ranks (AvgRanks, 1 = most accurate, in
	// Methods order), Friedman's χ² and the Iman–Davenport F. When NA the
	// p-values are NaN (null) and AvgRanks, if any, describe the complete
	// datasets only.
	Friedman stats.FriedmanResult `json:"friedman"`
	// Permutation is the permutation test of Friedman's statistic, the
	// test behind Decision.
	Permutation stats.PermutationResult `json:"friedman_permutation"`
	// Decision is the omnibus verdict at Alpha.
	Decision Decision `json:"decision"`
	// PostHoc is PostHocConfirmatory after a significant omnibus test,
	// PostHocExploratory otherwise ("" when NA).
	PostHoc string `json:"post_hoc,omitempty"`
	// CD05 and CD10 are the Nemenyi critical differences at α = 0.05 and
	// 0.10 for these Methods and Datasets (any number of methods).
	CD05 float64 `json:"cd05"`
	CD10 float64 `json:"cd10"`
	// Best is the method with the best (lowest) average rank, the first in
	// Methods order on a tie; WithinCD05 the other methods whose average
	// rank is within CD05 of it (Methods order); Cliques the groups of
	// methods the Nemenyi test at α = 0.05 cannot tell apart, each in rank
	// order (NemenyiCliques). The verdict, the ranks table and the CD
	// diagram print these.
	Best       string     `json:"best_mean_rank,omitempty"`
	WithinCD05 []string   `json:"within_cd05_of_best"`
	Cliques    [][]string `json:"nemenyi_cliques"`
	// Reference is the method every pair compares with ("" = all pairs).
	Reference string `json:"reference,omitempty"`
	// ZeroMethod is the Wilcoxon tests' zero-difference convention
	// (stats.ZeroWilcox, ZeroPratt or ZeroSplit).
	ZeroMethod string `json:"zero_method,omitempty"`
	// ExactDifferences: the Bayesian signed-rank test took its per-dataset
	// differences exactly, from the rows' correct counts, so that a
	// difference of exactly the ROPE is decided exactly rather than by
	// float rounding; false where some row lacks its counts (floats).
	ExactDifferences bool `json:"exact_differences"`
	// Comparisons is the size of the Holm family (the pairs that are not
	// n/a); PostHocMinP the smallest p-value one comparison can reach over
	// these datasets (stats.WilcoxonMinP; NaN beyond 50 datasets, where
	// the normal approximation reaches any α), PostHocMinPHolm that
	// p-value after Holm's first step (× Comparisons, at most 1), and
	// PostHocPowerless says it is not below Alpha: no pair can be
	// significant at this number of datasets, whatever the data.
	Comparisons      int     `json:"comparisons"`
	PostHocMinP      float64 `json:"post_hoc_min_p"`
	PostHocMinPHolm  float64 `json:"post_hoc_min_p_holm"`
	PostHocPowerless bool    `json:"post_hoc_powerless"`
	// Summary is the plain-language account of the tests, in sentences
	// the views print as they are: which test decided and why, what it
	// rejects, what the post-hoc comparisons can and do show (with the
	// effect sizes against the reference), and, with one or two datasets,
	// the fold-level tests on each dataset as the headline.
	Summary []string `json:"summary"`
	// AllPairs, when there is a Reference, compares every pair too, as a
	// secondary family Holm-corrected on its own (no fold-level tests);
	// AllPairsPower is what that family can reach, as above.
	AllPairs      []Pair       `json:"all_pairs,omitempty"`
	AllPairsPower *FamilyPower `json:"all_pairs_power,omitempty"`
	// Pairs are the pairwise comparisons, Holm-corrected as one family.
	Pairs []Pair `json:"pairs"`
}

// MissingCell is a dataset on which a method of the protocol has no result.
type MissingCell struct {
	Protocol string `json:"protocol"`
	Dataset  string `json:"dataset"`
	Method   string `json:"method"`
}

// The omnibus tests that can decide (Decision.Test).
const (
	TestFriedmanExact      = "friedman-exact"
	TestFriedmanMonteCarlo = "friedman-monte-carlo"
)

// The standing of the post-hoc comparisons (Tests.PostHoc).
const (
	PostHocConfirmatory = "confirmatory"
	PostHocExploratory  = "exploratory"
)

// Decision is the omnibus verdict: which test decided (Test, and Name as
// the views print it), its p-value, whether the methods differ at Alpha,
// and why this test decided (Reason, a sentence the views print as is).
type Decision struct {
	Test        string  `json:"test"`
	Name        string  `json:"name"`
	P           float64 `json:"p"`
	Significant bool    `json:"significant"`
	Reason      string  `json:"reason"`
}

// MeanRank returns a method's mean rank (NaN when not ranked).
func (t Tests) MeanRank(method string) float64 {
	for i, m := range t.Methods {
		if m == method && i < len(t.Friedman.AvgRanks) {
			return t.Friedman.AvgRanks[i]
		}
	}
	return math.NaN()
}

// Pair compares two methods over the datasets (Wilcoxon signed-rank with
// Holm's correction, Bayesian signed-rank test with a ROPE) and on each
// dataset over its folds (correlated Bayesian t-test, Nadeau–Bengio).
type Pair struct {
	A string `json:"a"`
	B string `json:"b"`
	N int    `json:"n"`
	// MeanDiff is the mean over datasets of A − B, percentage points.
	MeanDiff float64              `json:"mean_diff_pp"`
	Wilcoxon stats.WilcoxonResult `json:"wilcoxon"`
	// P and PHolm are the raw and Holm-adjusted p-values; NaN (null) when
	// NA (fewer than two datasets, or all differences zero).
	P     float64 `json:"p"`
	PHolm float64 `json:"p_holm"`
	NA    bool    `json:"na"`
	// Significant: PHolm below Alpha (never when NA): the pairwise
	// table's bold and its count of significant pairs.
	Significant bool `json:"significant"`
	// DiffCI is the 95 % confidence interval of MeanDiff (percentage
	// points), the t interval over the datasets' differences (Student's t
	// with N − 1 degrees of freedom, as scipy.stats.t.interval(0.95,
	// N−1, mean, sem)); NaN (null) with fewer than two datasets or, as
	// scipy's, when every difference is the same.
	DiffCI [2]float64 `json:"mean_diff_ci95_pp"`
	// Wins, Ties and Losses count the datasets on which A is more
	// accurate than B, equally accurate, less accurate: equal means the
	// same mean accuracy, from the correct counts where the rows carry
	// them (TieExact) and within TieTol of the floats otherwise.
	Wins     int  `json:"wins"`
	Ties     int  `json:"ties"`
	Losses   int  `json:"losses"`
	TieExact bool `json:"ties_exact"`
	// Bayes: PLeft = B practically better, PRope, PRight = A practically better.
	Bayes stats.BayesResult `json:"bayes"`
	Folds []FoldTest        `json:"per_dataset"`
}

// FoldTest compares two methods on one dataset over its repeated
// cross-validation folds, with the folds' correlation ρ = 1/k.
type FoldTest struct {
	Dataset string  `json:"dataset"`
	N       int     `json:"n"`
	Rho     float64 `json:"rho"`
	// MeanDiff is the mean of A − B over folds, percentage points.
	MeanDiff     float64           `json:"mean_diff_pp"`
	Correlated   stats.BayesResult `json:"correlated_bayes"`
	NadeauBengio stats.TTestResult `json:"nadeau_bengio"`
	// Decisive: the correlated Bayesian test finds one method practically
	// better with posterior probability above DecisiveProbability.
	Decisive bool `json:"decisive"`
}

// DecisiveProbability is the posterior probability above which a
// dataset-level Bayesian comparison counts as decided.
const DecisiveProbability = 0.95

type foldKey struct{ protocol, dataset, method string }

// foldScores maps each cell to its selected rows' accuracies by (repeat, fold).
func foldScores(recs []results.Record) map[foldKey]map[[2]int]float64 {
	out := map[foldKey]map[[2]int]float64{}
	for _, r := range recs {
		if !r.Selected {
			continue
		}
		k := foldKey{r.Protocol, r.Dataset, r.Method}
		if out[k] == nil {
			out[k] = map[[2]int]float64{}
		}
		out[k][[2]int{r.Repeat, r.Fold}] = r.Accuracy
	}
	return out
}

// exactAccuracies maps each cell to its accuracy as a rational, the mean
// over its selected rows of correct/n_test, where every row records its
// counts and they agree with its accuracy; other cells are absent.
func exactAccuracies(recs []results.Record) map[foldKey]*big.Rat {
	sums := map[foldKey]*big.Rat{}
	rows := map[foldKey]int64{}
	broken := map[foldKey]bool{}
	for _, r := range recs {
		if !r.Selected {
			continue
		}
		k := foldKey{r.Protocol, r.Dataset, r.Method}
		if r.NTest <= 0 || r.Correct < 0 || r.Correct > r.NTest || math.Abs(float64(r.Correct)/float64(r.NTest)-r.Accuracy) > 1e-12 {
			broken[k] = true
			continue
		}
		if sums[k] == nil {
			sums[k] = new(big.Rat)
		}
		sums[k].Add(sums[k], big.NewRat(int64(r.Correct), int64(r.NTest)))
		rows[k]++
	}
	for k, sum := range sums {
		if broken[k] {
			delete(sums, k)
			continue
		}
		sum.Quo(sum, new(big.Rat).SetInt64(rows[k]))
	}
	return sums
}

func computeTests(cells []Cell, protocol string, opts Options, bayes stats.SignedRankOptions, folds map[foldKey]map[[2]int]float64, exact map[foldKey]*big.Rat, sigs map[foldKey]foldSignature) (Tests, error) {
	pres, reference, zeroMethod := opts.Methods, opts.Reference, opts.ZeroMethod
	cells = FilterProtocol(cells, protocol)
	if zeroMethod == "" {
		zeroMethod = stats.ZeroWilcox
	}
	t := Tests{Protocol: protocol, Methods: MethodsOf(cells, pres)}
	competitors(&t, cells, opts, sigs)
	t.Friedman = naFriedman(len(t.Methods), 0)
	t.Decision.P = math.NaN()
	t.PostHocMinP, t.PostHocMinPHolm = math.NaN(), math.NaN()
	if len(t.Methods) < 2 {
		t.NA = fmt.Sprintf("the %s protocol has %s; a comparison needs 2", protocol, nouns(len(t.Methods), "method"))
		return t, nil
	}
	matrix := completeDatasets(&t, cells)
	if len(t.Missing) > 0 {
		// Refused rather than run on the complete datasets: dropping a
		// dataset because one method failed on it changes every method's
		// ranks, and in silence would change the verdict.
		t.NA = missingText(t)
		if len(matrix) > 0 {
			avg, err := stats.AverageRanks(matrix, true)
			if err != nil {
				return t, err
			}
			t.Friedman = naFriedman(len(t.Methods), len(matrix))
			t.Friedman.AvgRanks = avg
		}
		return t, nil
	}
	if reference != "" {
		if rankOf(t.Methods, reference) < len(t.Methods) {
			t.Reference = reference // else not ranked in this protocol: all pairs
		}
	}
	t.ZeroMethod = zeroMethod
	if len(matrix) < 2 {
		t.NA = fmt.Sprintf("the %s protocol has %s; a comparison needs 2", protocol, nouns(len(matrix), "dataset"))
		if len(matrix) == 1 {
			// One dataset is no evidence about datasets, but its folds
			// still compare the methods on it: the pairs carry the
			// fold-level tests (their Wilcoxon and Bayesian signed-rank
			// tests are n/a), which the summary then headlines.
			if err := pairTests(&t, matrix, exactMatrix(t, exact), bayes, folds); err != nil {
				return t, err
			}
		}
		t.Summary = summaryOf(t, pres, bayes.Rope)
		return t, nil
	}
	if err := omnibus(&t, matrix); err != nil {
		return t, err
	}
	ranks, err := baselineRanks(t, cells, matrix)
	if err != nil {
		return t, err
	}
	t.BaselineRanks = ranks
	if err := pairTests(&t, matrix, exactMatrix(t, exact), bayes, folds); err != nil {
		return t, err
	}
	postHocPower(&t)
	t.Summary = summaryOf(t, pres, bayes.Rope)
	return t, nil
}

// BaselineRank is a baseline's mean rank among the ranked methods
// (Tests.BaselineRanks).
type BaselineRank struct {
	Method   string  `json:"method"`
	MeanRank float64 `json:"mean_rank"`
}

// baselineRanks ranks each baseline, on every complete dataset of t (the
// rows of matrix), together with t's ranked methods, and returns its mean
// rank: 1 + the methods it beats none of, k + 1 when it is last everywhere.
func baselineRanks(t Tests, cells []Cell, matrix [][]float64) ([]BaselineRank, error) {
	var out []BaselineRank
	for _, b := range t.Baselines {
		acc := map[string]float64{}
		for _, c := range cells {
			if c.Protocol == t.Protocol && c.Method == b {
				acc[c.Dataset] = c.Accuracy
			}
		}
		with := make([][]float64, len(matrix))
		complete := true
		for i, ds := range t.Datasets {
			a, ok := acc[ds]
			if !ok {
				complete = false
				break
			}
			with[i] = append(append([]float64(nil), matrix[i]...), a)
		}
		if !complete {
			continue
		}
		avg, err := stats.AverageRanks(with, true)
		if err != nil {
			return nil, err
		}
		out = append(out, BaselineRank{Method: b, MeanRank: avg[len(avg)-1]})
	}
	return out, nil
}

// completeDatasets fills t's Datasets (every method has a cell), Excluded
// and Missing, and returns the accuracy matrix of the complete datasets
// (a row each, in t.Methods order).
func completeDatasets(t *Tests, cells []Cell) [][]float64 {
	ix := map[foldKey]Cell{}
	for _, c := range cells {
		ix[foldKey{c.Protocol, c.Dataset, c.Method}] = c
	}
	var matrix [][]float64
	for _, ds := range DatasetsOf(cells) {
		row := make([]float64, len(t.Methods))
		complete := true
		for j, m := range t.Methods {
			c, ok := ix[foldKey{t.Protocol, ds, m}]
			if !ok {
				complete = false
				t.Missing = append(t.Missing, MissingCell{Protocol: t.Protocol, Dataset: ds, Method: m})
				continue
			}
			row[j] = c.Accuracy
		}
		if !complete {
			t.Excluded = append(t.Excluded, ds)
			continue
		}
		t.Datasets = append(t.Datasets, ds)
		matrix = append(matrix, row)
	}
	return matrix
}

// omnibus runs the Friedman and permutation tests on the matrix, decides,
// and computes the Nemenyi critical differences and cliques.
func omnibus(t *Tests, matrix [][]float64) error {
	var err error
	if t.Friedman, err = stats.Friedman(matrix, true); err != nil {
		return err
	}
	if t.Permutation, err = stats.FriedmanPermutation(matrix, true); err != nil {
		return err
	}
	if math.IsInf(t.Friedman.ImanDavenport, 0) {
		// Iman–Davenport is reported only where finite: its p-value 0 in
		// the limit would read, in analysis.json, as a significance no
		// study earns (the F itself is written as null).
		t.Friedman.PImanDavenport = math.NaN()
	}
	t.Decision = decide(t.Friedman, t.Permutation)
	t.PostHoc = PostHocExploratory
	if t.Decision.Significant {
		t.PostHoc = PostHocConfirmatory
	}
	k, n := len(t.Methods), len(matrix)
	if t.CD05, err = stats.CriticalDifference(0.05, k, n); err != nil {
		return err
	}
	if t.CD10, err = stats.CriticalDifference(0.10, k, n); err != nil {
		return err
	}
	nemenyi(t)
	return nil
}

// pairTests runs the pairwise comparisons (every pair, or t.Reference
// against every other method) over datasets, Holm-corrected as one
// family, and on the folds of each dataset.
func pairTests(t *Tests, matrix [][]float64, exact [][]*big.Rat, bayes stats.SignedRankOptions, folds map[foldKey]map[[2]int]float64) error {
	t.ExactDifferences = exact != nil
	var err error
	if t.Reference == "" {
		t.Pairs, err = comparePairs(*t, stats.AllPairs, matrix, exact, bayes, folds)
		return err
	}
	if t.Pairs, err = comparePairs(*t, rankOf(t.Methods, t.Reference), matrix, exact, bayes, folds); err != nil {
		return err
	}
	// Every pair too, as a secondary family of its own (its own Holm
	// correction), without the fold-level tests the reference's pairs
	// carry.
	t.AllPairs, err = comparePairs(*t, stats.AllPairs, matrix, exact, bayes, nil)
	return err
}

// comparePairs compares the methods of t over the datasets of matrix,
// every pair or ref against the others, Holm-corrected as one family,
// and, where folds is given, on the folds of each dataset.
func comparePairs(t Tests, ref int, matrix [][]float64, exact [][]*big.Rat, bayes stats.SignedRankOptions, folds map[foldKey]map[[2]int]float64) ([]Pair, error) {
	pw, err := stats.PairwiseExact(matrix, exact, len(t.Methods), ref, bayes, t.ZeroMethod)
	if err != nil {
		return nil, err
	}
	var out []Pair
	for _, r := range pw {
		p := Pair{A: t.Methods[r.A], B: t.Methods[r.B], N: r.N, MeanDiff: r.MeanDiff * 100, Wilcoxon: r.Wilcoxon, P: r.P, PHolm: r.PHolm, NA: r.NA, Bayes: r.Bayes}
		p.Significant = !p.NA && p.PHolm < Alpha
		p.DiffCI = diffCI(matrix, r.A, r.B)
		p.Wins, p.Ties, p.Losses = winTieLoss(matrix, exact, r.A, r.B)
		p.TieExact = exact != nil
		for _, ds := range t.Datasets {
			if folds == nil {
				break
			}
			ft, err := foldTest(folds[foldKey{t.Protocol, ds, p.A}], folds[foldKey{t.Protocol, ds, p.B}], bayes.Rope)
			if err != nil {
				return nil, fmt.Errorf("analysis: %s %s vs %s on %s: %v", t.Protocol, p.A, p.B, ds, err)
			}
			ft.Dataset = ds
			ft.Decisive = !ft.Correlated.NA && (ft.Correlated.PRight > DecisiveProbability || ft.Correlated.PLeft > DecisiveProbability)
			p.Folds = append(p.Folds, ft)
		}
		out = append(out, p)
	}
	return out, nil
}

// diffCI is the 95 % t interval of the mean over datasets of column a −
// column b, in percentage points.
func diffCI(matrix [][]float64, a, b int) [2]float64 {
	nan := [2]float64{math.NaN(), math.NaN()}
	n := len(matrix)
	if n < 2 {
		return nan
	}
	mean := 0.0
	for _, row := range matrix {
		mean += row[a] - row[b]
	}
	mean /= float64(n)
	ss := 0.0
	for _, row := range matrix {
		d := row[a] - row[b] - mean
		ss += float64(d * d)
	}
	sem := math.Sqrt(ss / float64(n-1) / float64(n))
	if sem == 0 {
		return nan
	}
	// Rounded: mean ± half would fuse on arm64 (docs/fidelity.md#portability).
	half := float64(stats.TQuantile(0.975, float64(n-1)) * sem)
	return [2]float64{(mean - half) * 100, (mean + half) * 100}
}

// winTieLoss counts the datasets on which column a is more, equally or
// less accurate than column b: exactly where exact is given, within
// TieTol otherwise.
func winTieLoss(matrix [][]float64, exact [][]*big.Rat, a, b int) (wins, ties, losses int) {
	for i, row := range matrix {
		c := 0
		switch {
		case exact != nil:
			c = exact[i][a].Cmp(exact[i][b])
		case math.Abs(row[a]-row[b]) <= TieTol:
		case row[a] > row[b]:
			c = 1
		default:
			c = -1
		}
		switch c {
		case 1:
			wins++
		case 0:
			ties++
		default:
			losses++
		}
	}
	return wins, ties, losses
}

// exactMatrix is the matrix of t's datasets and methods as rationals
// from exact, or nil when some cell has no exact accuracy (the tests then
// use the floats).
func exactMatrix(t Tests, exact map[foldKey]*big.Rat) [][]*big.Rat {
	out := make([][]*big.Rat, len(t.Datasets))
	for i, ds := range t.Datasets {
		out[i] = make([]*big.Rat, len(t.Methods))
		for j, m := range t.Methods {
			v, ok := exact[foldKey{t.Protocol, ds, m}]
			if !ok {
				return nil
			}
			out[i][j] = v
		}
	}
	return out
}

// naFriedman is the Friedman result of a protocol without tests: sizes
// only, every statistic and p-value NaN (null in analysis.json), so that no
// view can print a p-value of 0 for a test that was not run.
func naFriedman(k, n int) stats.FriedmanResult {
	nan := math.NaN()
	return stats.FriedmanResult{N: n, K: k, ChiSquare: nan, P: nan, ChiSquareTieCorrected: nan, PTieCorrected: nan,
		ImanDavenport: nan, PImanDavenport: nan}
}

// missingText names the missing cells of t (the first ten; Missing has
// them all) and says what the refusal means.
func missingText(t Tests) string {
	const shown = 10
	var names []string
	for i, c := range t.Missing {
		if i == shown {
			names = append(names, fmt.Sprintf("and %d more", len(t.Missing)-shown))
			break
		}
		names = append(names, c.Dataset+"/"+c.Method)
	}
	return fmt.Sprintf("the %s protocol lacks %d of %d results (dataset/method: %s); the rank tests need every method on every dataset, so none is run rather than leaving out %s (mean ranks are over the other datasets)",
		t.Protocol, len(t.Missing), len(t.Methods)*(len(t.Datasets)+len(t.Excluded)), strings.Join(names, ", "), strings.Join(t.Excluded, ", "))
}

// decide takes the omnibus verdict from the permutation test of Friedman's
// statistic. An exact p-value decides as is. A Monte Carlo estimate calls
// the methods different only when its whole 99 % interval lies below
// Alpha, so that no study is called significant whose exact p-value may
// be above it.
func decide(f stats.FriedmanResult, perm stats.PermutationResult) Decision {
	d := Decision{P: perm.P}
	var why []string
	if perm.Exact {
		d.Test, d.Name = TestFriedmanExact, "exact permutation test of Friedman's statistic"
		d.Significant = perm.P < Alpha
		why = append(why, fmt.Sprintf("all %s arrangements of the ranks within the %d datasets (given their ties) were counted, so the p-value is exact and needs no large-sample approximation",
			countOf(perm.Arrangements), f.N))
	} else {
		d.Test, d.Name = TestFriedmanMonteCarlo, "Monte Carlo permutation test of Friedman's statistic"
		d.Significant = perm.High < Alpha
		why = append(why, fmt.Sprintf("the %s arrangements of the ranks are too many to count, so %d random ones (seed %d) estimate the exact p-value: standard error %.2g, 99 %% interval %s to %s",
			countOf(perm.Arrangements), perm.Draws, perm.Seed, perm.SE, strconv.FormatFloat(perm.Low, 'f', 4, 64), strconv.FormatFloat(perm.High, 'f', 4, 64)))
		if perm.P < Alpha && !d.Significant {
			why = append(why, fmt.Sprintf("the estimate is below α = %g but its interval is not, so the methods are not called different", Alpha))
		}
	}
	// One statement about Iman–Davenport, the same as the Friedman table's:
	// its F is infinite (and not reported) only when every dataset ranks
	// the methods identically without a tie; with a tie in that ranking the
	// F is finite and reported like any other.
	switch {
	case f.Identical && math.IsInf(f.ImanDavenport, 0):
		why = append(why, "every dataset ranks the methods identically, so the Iman–Davenport F is infinite and not reported")
	case f.Identical:
		why = append(why, fmt.Sprintf("every dataset ranks the methods identically, with ties, so χ² is the largest these ties allow and the Iman–Davenport F is finite (F = %s)", strconv.FormatFloat(f.ImanDavenport, 'f', 4, 64)))
	}
	d.Reason = strings.Join(why, "; ")
	return d
}

// PText writes a p-value as prose prints it: "p < 0.0001", "p = 0.1573",
// or "p n/a" for a test that does not apply (NaN). Tables print FormatP
// under a "p" heading.
func PText(p float64) string {
	switch f := FormatP(p); {
	case math.IsNaN(p):
		return "p n/a"
	case strings.HasPrefix(f, "<"):
		return "p " + f
	default:
		return "p = " + f
	}
}

// countOf writes a number of arrangements: exactly up to 10¹⁵, else in
// scientific notation.
func countOf(v float64) string {
	if math.IsInf(v, 1) {
		return "more than 1e308"
	}
	if v < 1e15 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// foldTest pairs two cells' folds by (repeat, fold) and runs the
// correlated Bayesian t-test and the Nadeau–Bengio test on the
// differences; with fewer than two folds (a hold-out) both are NA.
func foldTest(a, b map[[2]int]float64, rope float64) (FoldTest, error) {
	var keys [][2]int
	foldSet := map[int]bool{}
	for k := range a {
		if _, ok := b[k]; ok {
			keys = append(keys, k)
			foldSet[k[1]] = true
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i][0] != keys[j][0] {
			return keys[i][0] < keys[j][0]
		}
		return keys[i][1] < keys[j][1]
	})
	d := make([]float64, len(keys))
	ft := FoldTest{N: len(keys)}
	for i, k := range keys {
		d[i] = a[k] - b[k]
		ft.MeanDiff += d[i]
	}
	if len(d) > 0 {
		ft.MeanDiff = ft.MeanDiff / float64(len(d)) * 100
	}
	nan := math.NaN()
	if len(foldSet) < 2 {
		ft.Rho = nan
		ft.Correlated = stats.BayesResult{PLeft: nan, PRope: nan, PRight: nan, NA: true}
		ft.NadeauBengio = stats.TTestResult{N: len(d), Mean: nan, T: nan, P: nan, NA: true}
		return ft, nil
	}
	ft.Rho = stats.KFoldRho(len(foldSet))
	var err error
	if ft.Correlated, err = stats.CorrelatedBayesTTest(d, ft.Rho, rope); err != nil {
		return ft, err
	}
	if ft.NadeauBengio, err = stats.NadeauBengio(d, ft.Rho); err != nil {
		return ft, err
	}
	return ft, nil
}

// nouns writes a count with its noun in the number it takes: "1 dataset",
// "0 methods", so that the n/a lines read as sentences.
func nouns(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
