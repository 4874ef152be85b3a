package analysis

import (
	"fmt"
	"math"
	"sort"

	"github.com/fgrtbench/fgrtbench/results"
	"github.com/fgrtbench/fgrtbench/stats"
)

// Tests is the statistical comparison of the methods of one protocol over
// the datasets on which every one of them has a result.
type Tests struct {
	Protocol string `json:"protocol"`
	// Methods are the ranked methods (every method of the protocol), in
	// display order; Datasets the complete datasets the ranks cover;
	// Excluded the datasets some method lacks.
	Methods  []string `json:"methods"`
	Datasets []string `json:"datasets"`
	Excluded []string `json:"excluded,omitempty"`
	// NA says why there are no statistics ("" when there are): fewer than
	// two methods or two complete datasets. Views print "n/a" then.
	NA string `json:"na,omitempty"`
	// Friedman holds the mean ranks (AvgRanks, 1 = most accurate, in
	// Methods order), Friedman's χ² and the Iman–Davenport F.
	Friedman stats.FriedmanResult `json:"friedman"`
	// CD05 and CD10 are the Nemenyi critical differences at α = 0.05 and
	// 0.10 for these Methods and Datasets (any number of methods).
	CD05 float64 `json:"cd05"`
	CD10 float64 `json:"cd10"`
	// Reference is the method every pair compares with ("" = all pairs).
	Reference string `json:"reference,omitempty"`
	// Pairs are the pairwise comparisons, Holm-corrected as one family.
	Pairs []Pair `json:"pairs"`
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
}

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

func computeTests(cells []Cell, protocol string, pres results.Presentation, reference string, bayes stats.SignedRankOptions, folds map[foldKey]map[[2]int]float64) (Tests, error) {
	cells = FilterProtocol(cells, protocol)
	ix := map[foldKey]Cell{}
	for _, c := range cells {
		ix[foldKey{c.Protocol, c.Dataset, c.Method}] = c
	}
	t := Tests{Protocol: protocol, Methods: MethodsOf(cells, pres)}
	if len(t.Methods) < 2 {
		t.NA = fmt.Sprintf("the %s protocol has %d method(s); a comparison needs 2", protocol, len(t.Methods))
		return t, nil
	}
	var matrix [][]float64
	for _, ds := range DatasetsOf(cells) {
		row := make([]float64, len(t.Methods))
		complete := true
		for j, m := range t.Methods {
			c, ok := ix[foldKey{protocol, ds, m}]
			if !ok {
				complete = false
				break
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
	if len(matrix) < 2 {
		t.NA = fmt.Sprintf("the %s protocol has %d dataset(s) on which every method has a result; a comparison needs 2", protocol, len(matrix))
		return t, nil
	}
	var err error
	if t.Friedman, err = stats.Friedman(matrix, true); err != nil {
		return t, err
	}
	k, n := len(t.Methods), len(matrix)
	if t.CD05, err = stats.CriticalDifference(0.05, k, n); err != nil {
		return t, err
	}
	if t.CD10, err = stats.CriticalDifference(0.10, k, n); err != nil {
		return t, err
	}
	ref := stats.AllPairs
	if reference != "" {
		ref = rankOf(t.Methods, reference)
		if ref == len(t.Methods) {
			ref = stats.AllPairs // not ranked in this protocol: all pairs
		} else {
			t.Reference = reference
		}
	}
	pw, err := stats.Pairwise(matrix, k, ref, bayes)
	if err != nil {
		return t, err
	}
	for _, r := range pw {
		p := Pair{A: t.Methods[r.A], B: t.Methods[r.B], N: r.N, MeanDiff: r.MeanDiff * 100, Wilcoxon: r.Wilcoxon, P: r.P, PHolm: r.PHolm, NA: r.NA, Bayes: r.Bayes}
		for _, ds := range t.Datasets {
			ft, err := foldTest(folds[foldKey{protocol, ds, p.A}], folds[foldKey{protocol, ds, p.B}], bayes.Rope)
			if err != nil {
				return t, fmt.Errorf("analysis: %s %s vs %s on %s: %v", protocol, p.A, p.B, ds, err)
			}
			ft.Dataset = ds
			p.Folds = append(p.Folds, ft)
		}
		t.Pairs = append(t.Pairs, p)
	}
	return t, nil
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
