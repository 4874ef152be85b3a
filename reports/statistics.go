package reports

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/fgrtbench/fgrtbench/analysis"
)

// StatsResult is the statistical comparison of one protocol (computed by
// package analysis); PairTest one pairwise comparison.
type (
	StatsResult = analysis.Tests
	PairTest    = analysis.Pair
)

// pValue formats a p-value with four significant decimals, or "< 0.0001";
// "n/a" for a test that does not apply (NaN).
func pValue(p float64) string { return analysis.FormatP(p) }

// StatisticsTables renders a StatsResult as three tables: average ranks,
// the Friedman/Nemenyi summary and the Wilcoxon/Holm pairs.
func StatisticsTables(r StatsResult, a *analysis.Analysis) []Table {
	pres := a.Presentation()
	p := r.Protocol
	order := make([]int, len(r.Methods))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return r.Friedman.AvgRanks[order[a]] < r.Friedman.AvgRanks[order[b]] })
	ranks := Table{
		Name:      "ranks-" + p,
		Title:     fmt.Sprintf("Average ranks over %d datasets (1 = most accurate), %s protocol", len(r.Datasets), p),
		Header:    []string{"Method", "Average rank", "Δ to best"},
		Align:     "lrr",
		CSVHeader: []string{"protocol", "method", "display_name", "average_rank", "diff_to_best", "within_cd05_of_best"},
	}
	best := 0.0
	if len(order) > 0 {
		best = r.Friedman.AvgRanks[order[0]]
	}
	for _, j := range order {
		ar := r.Friedman.AvgRanks[j]
		within := r.CD05 > 0 && ar-best < r.CD05
		ranks.Rows = append(ranks.Rows, []Entry{{Text: pres.DisplayName(r.Methods[j])}, {Text: fixed(ar, 3), Bold: ar-best <= analysis.TieTol}, {Text: fixed(ar-best, 3)}})
		withinS := ""
		if r.CD05 > 0 {
			withinS = strconv.FormatBool(within)
		}
		ranks.CSVRows = append(ranks.CSVRows, []string{p, r.Methods[j], pres.DisplayName(r.Methods[j]), csvNum(ar), csvNum(ar - best), withinS})
	}
	ranks.Notes = []string{"Ranks of the mean accuracies within each dataset, ties sharing the mean rank. Datasets: " + strings.Join(r.Datasets, ", ") + "."}
	if len(r.Excluded) > 0 {
		ranks.Notes = append(ranks.Notes, "Left out (a method has no result): "+strings.Join(r.Excluded, ", ")+".")
	}

	f := r.Friedman
	type kv struct{ name, text, csv string }
	items := []kv{
		{"Datasets (N)", strconv.Itoa(f.N), strconv.Itoa(f.N)},
		{"Methods (k)", strconv.Itoa(f.K), strconv.Itoa(f.K)},
		{fmt.Sprintf("Friedman χ² (df %d)", f.DF), fixed(f.ChiSquare, 4), csvNum(f.ChiSquare)},
		{"Friedman p", pValue(f.P), fmt.Sprintf("%.6g", f.P)},
		{"Friedman χ², tie-corrected (scipy)", fixed(f.ChiSquareTieCorrected, 4), csvNum(f.ChiSquareTieCorrected)},
		{"Friedman p, tie-corrected", pValue(f.PTieCorrected), fmt.Sprintf("%.6g", f.PTieCorrected)},
		{fmt.Sprintf("Iman–Davenport F (%d, %d)", f.DF1, f.DF2), fixed(f.ImanDavenport, 4), csvNum(f.ImanDavenport)},
		{"Iman–Davenport p", pValue(f.PImanDavenport), fmt.Sprintf("%.6g", f.PImanDavenport)},
	}
	items = append(items,
		kv{"Nemenyi CD (α = 0.05)", fixed(r.CD05, 4), csvNum(r.CD05)},
		kv{"Nemenyi CD (α = 0.10)", fixed(r.CD10, 4), csvNum(r.CD10)})
	fr := Table{
		Name:      "friedman-" + p,
		Title:     fmt.Sprintf("Friedman test and Nemenyi critical difference, %s protocol", p),
		Header:    []string{"Statistic", "Value"},
		Align:     "lr",
		CSVHeader: []string{"protocol", "statistic", "value"},
		Notes:     []string{"Demšar (2006): χ² without tie correction, Iman–Davenport F from it; Nemenyi q from Demšar's Table 5(a) for up to 10 methods, from the studentized range distribution beyond. Two methods differ at level α when their average ranks differ by at least CD; the CD diagram ranks exactly these methods."},
	}
	for _, it := range items {
		fr.Rows = append(fr.Rows, []Entry{{Text: it.name}, {Text: it.text}})
		fr.CSVRows = append(fr.CSVRows, []string{p, it.name, it.csv})
	}

	return []Table{ranks, fr, pairwiseTable(r, a), foldTable(r, a)}
}

// prob formats a posterior probability ("n/a" when NaN).
func prob(v float64) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	return fixed(v, 3)
}

// pairwiseTable lists the comparisons over datasets: Wilcoxon signed-rank
// with Holm's correction and the Bayesian signed-rank test with its ROPE.
// Long tables are linked from REPORT.md rather than shown.
func pairwiseTable(r StatsResult, a *analysis.Analysis) Table {
	pres := a.Presentation()
	p := r.Protocol
	family := "every pair of methods"
	if r.Reference != "" {
		family = pres.DisplayName(r.Reference) + " against every other method"
	}
	t := Table{
		Name:      "pairwise-" + p,
		Title:     fmt.Sprintf("Pairwise comparisons over datasets, %s protocol", p),
		Header:    []string{"A vs B", "Mean Δ (pp)", "n", "p", "p (Holm)", "P(A>B)", "P(=)", "P(B>A)"},
		Align:     "lrrrrrrr",
		CSVHeader: []string{"protocol", "a", "b", "mean_diff", "n", "zeros", "w_plus", "w_minus", "exact", "p", "p_holm", "significant_05", "rope", "p_a_better", "p_equivalent", "p_b_better"},
		Notes: []string{
			"Comparisons: " + family + ", on per-dataset mean accuracies. Wilcoxon signed-rank test, two-sided, zero differences dropped (scipy's zero_method='wilcox'), Holm's step-down correction over the comparisons of the table; bold: Holm-adjusted p < 0.05.",
			fmt.Sprintf("Bayesian signed-rank test (Benavoli et al., JMLR 2017) with ROPE ± %s pp: P(A>B), P(=), P(B>A) are the posterior probabilities that A is practically better, the two practically equivalent, B practically better.", fixed(a.Rope*100, 2)),
		},
	}
	sig := 0
	var sigNames []string
	for _, pt := range r.Pairs {
		s := !pt.NA && pt.PHolm < 0.05
		if s {
			sig++
			sigNames = append(sigNames, pres.DisplayName(pt.A)+" vs "+pres.DisplayName(pt.B))
		}
		t.Rows = append(t.Rows, []Entry{
			{Text: pres.DisplayName(pt.A) + " vs " + pres.DisplayName(pt.B)}, {Text: signed(pt.MeanDiff, 2)}, {Text: strconv.Itoa(pt.N)},
			{Text: pValue(pt.P)}, {Text: pValue(pt.PHolm), Bold: s}, {Text: prob(pt.Bayes.PRight)}, {Text: prob(pt.Bayes.PRope)}, {Text: prob(pt.Bayes.PLeft)},
		})
		t.CSVRows = append(t.CSVRows, []string{p, pt.A, pt.B, csvNum(pt.MeanDiff), strconv.Itoa(pt.N), strconv.Itoa(pt.Wilcoxon.Zeros),
			csvNum(pt.Wilcoxon.WPlus), csvNum(pt.Wilcoxon.WMinus), strconv.FormatBool(pt.Wilcoxon.Exact),
			csvP(pt.P), csvP(pt.PHolm), strconv.FormatBool(s), csvNum(a.Rope), csvP(pt.Bayes.PRight), csvP(pt.Bayes.PRope), csvP(pt.Bayes.PLeft)})
	}
	t.Summary = fmt.Sprintf("%d comparisons (%s); %d significant after Holm's correction at α = 0.05", len(r.Pairs), family, sig)
	if sig > 0 && sig <= 8 {
		t.Summary += ": " + strings.Join(sigNames, "; ")
	}
	t.Summary += "."
	if len(r.Pairs) == 0 {
		t.Summary = "No comparison: fewer than two methods."
	}
	t.Linked = len(t.Rows) > 12
	return t
}

// foldTable lists, per comparison and dataset, the tests on the folds of
// repeated cross-validation that account for their correlation: the
// correlated Bayesian t-test (Corani & Benavoli 2015) and the
// Nadeau–Bengio corrected resampled t-test. Always a linked file.
func foldTable(r StatsResult, a *analysis.Analysis) Table {
	pres := a.Presentation()
	p := r.Protocol
	t := Table{
		Name:      "folds-" + p,
		Title:     fmt.Sprintf("Per-dataset comparisons over cross-validation folds, %s protocol", p),
		Header:    []string{"A vs B", "Dataset", "Folds", "ρ", "Mean Δ (pp)", "P(A>B)", "P(=)", "P(B>A)", "NB p"},
		Align:     "llrrrrrrr",
		CSVHeader: []string{"protocol", "a", "b", "dataset", "n", "rho", "mean_diff", "p_a_better", "p_equivalent", "p_b_better", "nb_t", "nb_df", "nb_p"},
		Linked:    true,
		Notes: []string{
			fmt.Sprintf("Correlated Bayesian t-test (Corani & Benavoli, 2015) with ROPE ± %s pp and the Nadeau–Bengio corrected resampled t-test (two-sided), both with the folds' correlation ρ = 1/k, so that repeated folds are not treated as independent; n/a with fewer than two folds (a hold-out) or no variation.", fixed(a.Rope*100, 2)),
		},
	}
	n, sure := 0, 0
	for _, pt := range r.Pairs {
		for _, f := range pt.Folds {
			n++
			if !f.Correlated.NA && (f.Correlated.PRight > 0.95 || f.Correlated.PLeft > 0.95) {
				sure++
			}
			rho := "n/a"
			if !math.IsNaN(f.Rho) {
				rho = fixed(f.Rho, 2)
			}
			t.Rows = append(t.Rows, []Entry{{Text: pres.DisplayName(pt.A) + " vs " + pres.DisplayName(pt.B)}, {Text: f.Dataset}, {Text: strconv.Itoa(f.N)}, {Text: rho},
				{Text: signed(f.MeanDiff, 2)}, {Text: prob(f.Correlated.PRight)}, {Text: prob(f.Correlated.PRope)}, {Text: prob(f.Correlated.PLeft)}, {Text: pValue(f.NadeauBengio.P)}})
			t.CSVRows = append(t.CSVRows, []string{p, pt.A, pt.B, f.Dataset, strconv.Itoa(f.N), csvP(f.Rho), csvNum(f.MeanDiff), csvP(f.Correlated.PRight), csvP(f.Correlated.PRope), csvP(f.Correlated.PLeft),
				csvP(f.NadeauBengio.T), strconv.Itoa(f.NadeauBengio.DF), csvP(f.NadeauBengio.P)})
		}
	}
	t.Summary = fmt.Sprintf("%d dataset-level comparisons; in %d of them one method is practically better with posterior probability above 0.95 (correlated Bayesian t-test).", n, sure)
	return t
}

// csvP formats a probability or statistic for CSV, empty when NaN.
func csvP(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return ""
	}
	return fmt.Sprintf("%.6g", v)
}
