package reports

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/results"
	"github.com/fgrtbench/fgrtbench/stats"
)

// pValue formats a p-value with four significant decimals, or "< 0.0001";
// "n/a" for a test that does not apply (NaN).
func pValue(p float64) string { return analysis.FormatP(p) }

// verdict says in one sentence what the tests of a protocol conclude: the
// omnibus verdict with the test that decided and why, then the best mean
// rank and the methods within the critical difference of it, labelled
// exploratory unless the omnibus test is significant. It renders
// analysis.Tests and computes nothing.
func verdict(t analysis.Tests, a *analysis.Analysis) string {
	pres := a.Presentation()
	if len(t.Datasets) <= analysis.SmallStudy && len(t.Summary) > 0 {
		// One or two datasets: the fold-level tests are the headline, the
		// summary says so and why (analysis.SmallStudy).
		return "**Significance:** " + mdEscape(strings.Join(t.Summary, " "))
	}
	if t.NA != "" {
		return "Significance: n/a — " + mdEscape(t.NA) + "."
	}
	f := t.Friedman
	best := slices.Index(t.Methods, t.Best)
	if best < 0 {
		return "Significance: n/a — the analysis names no best mean rank."
	}
	var within []string
	for _, m := range t.WithinCD05 {
		within = append(within, pres.DisplayName(m))
	}
	differ := "differ significantly"
	if !t.Decision.Significant {
		differ = "do not differ significantly"
	}
	s := fmt.Sprintf("**Significance:** over %d datasets the %d methods %s (%s, %s, α = 0.05): %s. The best mean rank is %s's (%s), and %s within the critical difference (CD = %s",
		f.N, f.K, differ, t.Decision.Name, analysis.PText(t.Decision.P), mdEscape(t.Decision.Reason),
		mdEscape(pres.DisplayName(t.Methods[best])), fixed(f.AvgRanks[best], 2), countText(len(within)), fixed(t.CD05, 2))
	if t.PostHoc == analysis.PostHocExploratory {
		s += "; exploratory, the omnibus test not being significant"
	}
	s += ") of it"
	if len(within) > 0 && len(within) <= 6 {
		s += ": " + mdEscape(strings.Join(within, ", "))
	}
	s += "."
	if len(t.Summary) > 0 {
		s += "\n\n**In brief:** " + mdEscape(strings.Join(t.Summary, " "))
	}
	return s
}

func countText(n int) string {
	switch n {
	case 0:
		return "no other method is"
	case 1:
		return "1 other method is"
	default:
		return fmt.Sprintf("%d other methods are", n)
	}
}

// verdictWord is the omnibus verdict in the Friedman table.
func verdictWord(d analysis.Decision) string {
	w := "not significant"
	if d.Significant {
		w = "significant"
	}
	return fmt.Sprintf("%s (%s, %s)", w, d.Name, analysis.PText(d.P))
}

// postHocNote says whether the post-hoc comparisons (CD, Holm) confirm or
// only explore.
func postHocNote(r analysis.Tests) string {
	if r.PostHoc == analysis.PostHocConfirmatory {
		s := "The omnibus test is significant at α = 0.05, so the post-hoc comparisons (CD, Wilcoxon with Holm) are confirmatory."
		if r.PostHocPowerless {
			s += " " + powerlessNote(r)
		}
		return s
	}
	return "The omnibus test is not significant at α = 0.05, so the post-hoc comparisons (CD, Wilcoxon with Holm) are exploratory: they suggest where differences may lie but establish none."
}

// powerlessNote says that no pairwise comparison can be significant at
// this number of datasets, with the analysis's numbers.
func powerlessNote(r analysis.Tests) string {
	return fmt.Sprintf("At %d datasets, though, no Wilcoxon comparison can reach p below %s, and after Holm's correction over %d comparisons none below %s: no pair can be significant, whatever the data.",
		len(r.Datasets), strconv.FormatFloat(r.PostHocMinP, 'g', 3, 64), r.Comparisons, strconv.FormatFloat(r.PostHocMinPHolm, 'g', 3, 64))
}

// zeroNote states the Wilcoxon tests' zero-difference convention and the
// exact-or-normal switch, as the scipy call each one matches.
func zeroNote(zeroMethod string) string {
	approx := "otherwise the normal approximation with tie and continuity corrections"
	switch zeroMethod {
	case stats.ZeroPratt:
		return "zero differences ranked with the others and their ranks then dropped (scipy's zero_method='pratt'); exact when no difference is zero or tied and at most 50, " + approx + " and Cureton's adjustment for the zeros"
	case stats.ZeroSplit:
		return "zero differences ranked with the others and their ranks split between the two signs (scipy's zero_method='zsplit'); exact when no difference is zero or tied and at most 50, " + approx
	default:
		return "zero differences dropped (scipy's zero_method='wilcox'); exact over the non-zero differences when at most 50 and none tied (scipy.stats.wilcoxon(d[d != 0], method='exact')), " + approx
	}
}

// StatisticsTables renders a analysis.Tests as four tables: average ranks,
// the Friedman/Nemenyi summary, the Wilcoxon/Holm pairs and the
// per-dataset comparisons over folds.
func StatisticsTables(r analysis.Tests, a *analysis.Analysis) []Table {
	rows, ok := a.RankRows(r)
	if !ok {
		p := r.Protocol
		return []Table{{Name: "ranks-" + p, Title: "Average ranks, " + p + " protocol", Summary: "The analysis's ranking does not cover the tested methods; nothing is shown."}}
	}
	tables := []Table{ranksTable(r, rows, a.Presentation()), friedmanTable(r), pairwiseTable(r, a)}
	if all, ok := allPairsTable(r, a); ok {
		tables = append(tables, all)
	}
	return append(tables, foldTable(r, a))
}

// allPairsTable is the secondary table of every pair, when the post-hoc
// family is a reference against the others: the pairwise table of the
// analysis's AllPairs, with their own Holm correction and power.
func allPairsTable(r analysis.Tests, a *analysis.Analysis) (Table, bool) {
	if len(r.AllPairs) == 0 || r.AllPairsPower == nil {
		return Table{}, false
	}
	all := r
	all.Pairs, all.Reference, all.AllPairs = r.AllPairs, "", nil
	all.Comparisons, all.PostHocMinP, all.PostHocMinPHolm, all.PostHocPowerless = r.AllPairsPower.Comparisons, r.AllPairsPower.MinP, r.AllPairsPower.MinPHolm, r.AllPairsPower.Powerless
	t := pairwiseTable(all, a)
	t.Name = "pairwise-all-" + r.Protocol
	t.Title = fmt.Sprintf("Every pair of methods over datasets (secondary to the comparisons with %s), %s protocol", r.EntryName(r.Reference, a.Presentation()), r.Protocol)
	t.Linked = true
	return t, true
}

// ranksTable lists the analysis's rank rows (best mean rank first, ties in
// display order).
func ranksTable(r analysis.Tests, rows []analysis.RankRow, pres results.Presentation) Table {
	p := r.Protocol
	ranks := Table{
		Name:  "ranks-" + p,
		Title: fmt.Sprintf("Average ranks over %d datasets (1 = most accurate), %s protocol", len(r.Datasets), p),
	}
	type row = analysis.RankRow
	name := func(row row) string { return r.EntryName(row.Method, pres) }
	declare(&ranks, []Column[row]{
		{CSV: "protocol", Write: func(row) string { return p }},
		{CSV: "method", Write: func(row row) string { return row.Method }},
		{Header: "Method", Show: func(row row) Entry { return Entry{Text: name(row)} }, CSV: "display_name", Write: name},
		{Header: "Average rank", Align: 'r', Show: func(row row) Entry { return Entry{Text: fixed(row.AvgRank, 3), Bold: row.TiedBest} },
			CSV: "average_rank", Write: func(row row) string { return csvNum(row.AvgRank) }},
		{Header: "Δ to best", Align: 'r', Show: func(row row) Entry { return Entry{Text: fixed(row.DiffToBest, 3)} },
			CSV: "diff_to_best", Write: func(row row) string { return csvNum(row.DiffToBest) }},
		{CSV: "within_cd05_of_best", Write: func(row row) string {
			if r.CD05 > 0 {
				return strconv.FormatBool(row.WithinCD05)
			}
			return ""
		}},
	}, rows)
	ranks.Notes = []string{"Ranks of the mean accuracies within each dataset, ties sharing the mean rank. Datasets: " + strings.Join(r.Datasets, ", ") + "."}
	if len(r.Excluded) > 0 {
		ranks.Notes = append(ranks.Notes, "Left out (a method has no result): "+strings.Join(r.Excluded, ", ")+".")
	}
	if len(r.Baselines) > 0 {
		var names []string
		for _, m := range r.Baselines {
			names = append(names, pres.DisplayName(m))
		}
		ranks.Notes = append(ranks.Notes, "Not ranked, being baselines (--rank-baselines ranks them): "+strings.Join(names, ", ")+".")
	}
	for _, g := range r.Merged {
		how := "correct counts"
		if r.MergedBy == analysis.MergedByAccuracies {
			how = "accuracies"
		}
		ranks.Notes = append(ranks.Notes, fmt.Sprintf("Ranked as one entry, their %s being the same on every fold of every dataset (--keep-duplicates ranks them apart): %s.", how, r.EntryName(g[0], pres)))
	}
	return ranks
}

// statistic is one line of the Friedman table: its name, its value as
// shown and as written to CSV.
type statistic struct{ name, text, csv string }

// friedmanTable summarises the omnibus tests and the Nemenyi critical
// differences.
func friedmanTable(r analysis.Tests) Table {
	p := r.Protocol
	fr := Table{
		Name:  "friedman-" + p,
		Title: fmt.Sprintf("Friedman test and Nemenyi critical difference, %s protocol", p),
		Notes: []string{
			"Verdict: " + r.Decision.Name + ", " + analysis.PText(r.Decision.P) + ": " + r.Decision.Reason + ".",
			"The permutation test rearranges the ranks within each dataset, every arrangement equally likely when the methods do not differ; its statistic is Friedman's χ². The χ² and Iman–Davenport p-values (Demšar 2006: χ² without tie correction, F from it; the tie-corrected χ² is scipy.stats.friedmanchisquare's) are large-sample approximations, shown for reference.",
			"Nemenyi q from Demšar's Table 5(a) for up to 10 methods, from the studentized range distribution beyond. Two methods differ at level α when their average ranks differ by at least CD; the CD diagram ranks exactly these methods. " + postHocNote(r),
		},
	}
	items := append(friedmanStatistics(r.Friedman), permutationStatistics(r.Permutation)...)
	items = append(items,
		statistic{"Verdict (α = 0.05)", verdictWord(r.Decision), strconv.FormatBool(r.Decision.Significant)},
		statistic{"Post-hoc comparisons", r.PostHoc, r.PostHoc},
		statistic{"Nemenyi CD (α = 0.05)", fixed(r.CD05, 4), csvNum(r.CD05)},
		statistic{"Nemenyi CD (α = 0.10)", fixed(r.CD10, 4), csvNum(r.CD10)})
	declare(&fr, []Column[statistic]{
		{CSV: "protocol", Write: func(statistic) string { return p }},
		{Header: "Statistic", Show: func(it statistic) Entry { return Entry{Text: it.name} },
			CSV: "statistic", Write: func(it statistic) string { return it.name }},
		{Header: "Value", Align: 'r', Show: func(it statistic) Entry { return Entry{Text: it.text} },
			CSV: "value", Write: func(it statistic) string { return it.csv }},
	}, items)
	return fr
}

// friedmanStatistics are the Friedman χ² (plain and tie-corrected) and the
// Iman–Davenport F with their p-values.
func friedmanStatistics(f stats.FriedmanResult) []statistic {
	items := []statistic{
		{"Datasets (N)", strconv.Itoa(f.N), strconv.Itoa(f.N)},
		{"Methods (k)", strconv.Itoa(f.K), strconv.Itoa(f.K)},
		{fmt.Sprintf("Friedman χ² (df %d)", f.DF), fixed(f.ChiSquare, 4), csvNum(f.ChiSquare)},
		{"Friedman p", pValue(f.P), fmt.Sprintf("%.6g", f.P)},
		{"Friedman χ², tie-corrected (scipy)", statText(f.ChiSquareTieCorrected), csvStat(f.ChiSquareTieCorrected)},
		{"Friedman p, tie-corrected", pValue(f.PTieCorrected), csvP(f.PTieCorrected)},
	}
	if math.IsInf(f.ImanDavenport, 0) {
		// Only where finite: an infinite F (every dataset ranks the methods
		// identically) has p = 0 in the limit, which no study earns.
		return append(items, statistic{fmt.Sprintf("Iman–Davenport F (%d, %d)", f.DF1, f.DF2), "not reported (infinite)", ""})
	}
	return append(items,
		statistic{fmt.Sprintf("Iman–Davenport F (%d, %d)", f.DF1, f.DF2), fixed(f.ImanDavenport, 4), csvNum(f.ImanDavenport)},
		statistic{"Iman–Davenport p", pValue(f.PImanDavenport), fmt.Sprintf("%.6g", f.PImanDavenport)})
}

// statText writes a statistic with four decimals, "n/a" where the test
// gives none (NaN: the tie-corrected χ² when every method ties on every
// dataset, as scipy).
func statText(v float64) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	return fixed(v, 4)
}

// csvStat is csvNum, empty where the test gives no statistic (NaN).
func csvStat(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return csvNum(v)
}

// permutationStatistics is the permutation test's p-value, with its 99 %
// interval when it was estimated by Monte Carlo.
func permutationStatistics(pm stats.PermutationResult) []statistic {
	if pm.Exact {
		return []statistic{{"Permutation test p (exact)", pValue(pm.P), fmt.Sprintf("%.6g", pm.P)}}
	}
	return []statistic{
		{fmt.Sprintf("Permutation test p (Monte Carlo, %d draws)", pm.Draws), pValue(pm.P), fmt.Sprintf("%.6g", pm.P)},
		{"Permutation test p, 99 % interval", fixed(pm.Low, 4) + " – " + fixed(pm.High, 4), csvNum(pm.Low) + ";" + csvNum(pm.High)},
	}
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
func pairwiseTable(r analysis.Tests, a *analysis.Analysis) Table {
	pres := a.Presentation()
	p := r.Protocol
	family := "every pair of methods"
	if r.Reference != "" {
		family = pres.DisplayName(r.Reference) + " against every other method"
	}
	t := Table{
		Name:  "pairwise-" + p,
		Title: fmt.Sprintf("Pairwise comparisons over datasets, %s protocol", p),
		Notes: []string{
			"Comparisons: " + family + ", on per-dataset mean accuracies. Wilcoxon signed-rank test, two-sided, " + zeroNote(r.ZeroMethod) + "; Holm's step-down correction over the comparisons of the table; bold: Holm-adjusted p < 0.05.",
			postHocNote(r),
			fmt.Sprintf("Bayesian signed-rank test (Benavoli et al., JMLR 2017) with ROPE ± %s pp: P(A>B), P(=), P(B>A) are the posterior probabilities that A is practically better, the two practically equivalent, B practically better. %s", fixed(a.Rope*100, 2), exactNote(r.ExactDifferences)),
		},
	}
	sig := 0
	var sigNames []string
	for _, pt := range r.Pairs {
		if pt.Significant {
			sig++
			sigNames = append(sigNames, r.EntryName(pt.A, pres)+" vs "+r.EntryName(pt.B, pres))
		}
	}
	declare(&t, pairwiseColumns(r, a), r.Pairs)
	t.Summary = fmt.Sprintf("%d comparisons (%s); %d significant after Holm's correction at α = 0.05", len(r.Pairs), family, sig)
	if r.PostHoc == analysis.PostHocExploratory {
		t.Summary += " (exploratory: the omnibus test is not significant)"
	}
	if sig > 0 && sig <= 8 {
		t.Summary += ": " + strings.Join(sigNames, "; ")
	}
	t.Summary += "."
	if r.PostHocPowerless {
		t.Summary += " " + powerlessNote(r)
	}
	if len(r.Pairs) == 0 {
		t.Summary = "No comparison: fewer than two methods."
	}
	t.Linked = len(t.Rows) > 12
	return t
}

// pairwiseColumns declares the pairwise table: the Wilcoxon test with
// Holm's correction (bold where significant) and the Bayesian signed-rank
// test's posteriors.
func pairwiseColumns(r analysis.Tests, a *analysis.Analysis) []Column[analysis.Pair] {
	pres := a.Presentation()
	type pair = analysis.Pair
	return []Column[pair]{
		{CSV: "protocol", Write: func(pair) string { return r.Protocol }},
		{Header: "A vs B", Show: func(pt pair) Entry { return Entry{Text: r.EntryName(pt.A, pres) + " vs " + r.EntryName(pt.B, pres)} },
			CSV: "a", Write: func(pt pair) string { return pt.A }},
		{CSV: "b", Write: func(pt pair) string { return pt.B }},
		{Header: "Mean Δ (pp)", Align: 'r', Show: func(pt pair) Entry { return Entry{Text: signed(pt.MeanDiff, 2)} },
			CSV: "mean_diff", Write: func(pt pair) string { return csvNum(pt.MeanDiff) }},
		{Header: "n", Align: 'r', Show: func(pt pair) Entry { return Entry{Text: strconv.Itoa(pt.N)} },
			CSV: "n", Write: func(pt pair) string { return strconv.Itoa(pt.N) }},
		{CSV: "zeros", Write: func(pt pair) string { return strconv.Itoa(pt.Wilcoxon.Zeros) }},
		{CSV: "w_plus", Write: func(pt pair) string { return csvNum(pt.Wilcoxon.WPlus) }},
		{CSV: "w_minus", Write: func(pt pair) string { return csvNum(pt.Wilcoxon.WMinus) }},
		{CSV: "exact", Write: func(pt pair) string { return strconv.FormatBool(pt.Wilcoxon.Exact) }},
		{Header: "p", Align: 'r', Show: func(pt pair) Entry { return Entry{Text: pValue(pt.P)} },
			CSV: "p", Write: func(pt pair) string { return csvP(pt.P) }},
		{Header: "p (Holm)", Align: 'r', Show: func(pt pair) Entry { return Entry{Text: pValue(pt.PHolm), Bold: pt.Significant} },
			CSV: "p_holm", Write: func(pt pair) string { return csvP(pt.PHolm) }},
		{CSV: "significant_05", Write: func(pt pair) string { return strconv.FormatBool(pt.Significant) }},
		{CSV: "rope", Write: func(pair) string { return csvNum(a.Rope) }},
		{Header: "P(A>B)", Align: 'r', Show: func(pt pair) Entry { return Entry{Text: prob(pt.Bayes.PRight)} },
			CSV: "p_a_better", Write: func(pt pair) string { return csvP(pt.Bayes.PRight) }},
		{Header: "P(=)", Align: 'r', Show: func(pt pair) Entry { return Entry{Text: prob(pt.Bayes.PRope)} },
			CSV: "p_equivalent", Write: func(pt pair) string { return csvP(pt.Bayes.PRope) }},
		{Header: "P(B>A)", Align: 'r', Show: func(pt pair) Entry { return Entry{Text: prob(pt.Bayes.PLeft)} },
			CSV: "p_b_better", Write: func(pt pair) string { return csvP(pt.Bayes.PLeft) }},
	}
}

// exactNote says where the Bayesian signed-rank test took its
// differences from.
func exactNote(exact bool) string {
	if exact {
		return "Its per-dataset differences are computed exactly from the correct counts, so a difference of exactly the ROPE lies on its boundary."
	}
	return "Its per-dataset differences are the float accuracies' (some rows record no correct counts), so a difference of exactly the ROPE may fall on either side by rounding."
}

// foldTable lists, per comparison and dataset, the tests on the folds of
// repeated cross-validation that account for their correlation: the
// correlated Bayesian t-test (Corani & Benavoli 2015) and the
// Nadeau–Bengio corrected resampled t-test. Always a linked file.
func foldTable(r analysis.Tests, a *analysis.Analysis) Table {
	pres := a.Presentation()
	p := r.Protocol
	t := Table{
		Name:   "folds-" + p,
		Title:  fmt.Sprintf("Per-dataset comparisons over cross-validation folds, %s protocol", p),
		Linked: true,
		Notes: []string{
			fmt.Sprintf("Correlated Bayesian t-test (Corani & Benavoli, 2015) with ROPE ± %s pp and the Nadeau–Bengio corrected resampled t-test (two-sided), both with the folds' correlation ρ = 1/k, so that repeated folds are not treated as independent; n/a with fewer than two folds (a hold-out) or no variation.", fixed(a.Rope*100, 2)),
		},
	}
	var rows []foldRow
	sure := 0
	for _, pt := range r.Pairs {
		for _, f := range pt.Folds {
			if f.Decisive {
				sure++
			}
			rows = append(rows, foldRow{a: pt.A, b: pt.B, FoldTest: f})
		}
	}
	n := len(rows)
	declare(&t, foldColumns(r, pres), rows)
	t.Summary = fmt.Sprintf("%d dataset-level comparisons; in %d of them one method is practically better with posterior probability above 0.95 (correlated Bayesian t-test).", n, sure)
	return t
}

// foldRow is one comparison on one dataset's folds.
type foldRow struct {
	a, b string
	analysis.FoldTest
}

// foldColumns declares the fold table: the correlated Bayesian t-test's
// posteriors and the Nadeau–Bengio test (its t and df written only).
func foldColumns(r analysis.Tests, pres results.Presentation) []Column[foldRow] {
	return []Column[foldRow]{
		{CSV: "protocol", Write: func(foldRow) string { return r.Protocol }},
		{Header: "A vs B", Show: func(f foldRow) Entry { return Entry{Text: r.EntryName(f.a, pres) + " vs " + r.EntryName(f.b, pres)} },
			CSV: "a", Write: func(f foldRow) string { return f.a }},
		{CSV: "b", Write: func(f foldRow) string { return f.b }},
		{Header: "Dataset", Show: func(f foldRow) Entry { return Entry{Text: f.Dataset} },
			CSV: "dataset", Write: func(f foldRow) string { return f.Dataset }},
		{Header: "Folds", Align: 'r', Show: func(f foldRow) Entry { return Entry{Text: strconv.Itoa(f.N)} },
			CSV: "n", Write: func(f foldRow) string { return strconv.Itoa(f.N) }},
		{Header: "ρ", Align: 'r', Show: func(f foldRow) Entry {
			if math.IsNaN(f.Rho) {
				return Entry{Text: "n/a"}
			}
			return Entry{Text: fixed(f.Rho, 2)}
		}, CSV: "rho", Write: func(f foldRow) string { return csvP(f.Rho) }},
		{Header: "Mean Δ (pp)", Align: 'r', Show: func(f foldRow) Entry { return Entry{Text: signed(f.MeanDiff, 2)} },
			CSV: "mean_diff", Write: func(f foldRow) string { return csvNum(f.MeanDiff) }},
		{Header: "P(A>B)", Align: 'r', Show: func(f foldRow) Entry { return Entry{Text: prob(f.Correlated.PRight)} },
			CSV: "p_a_better", Write: func(f foldRow) string { return csvP(f.Correlated.PRight) }},
		{Header: "P(=)", Align: 'r', Show: func(f foldRow) Entry { return Entry{Text: prob(f.Correlated.PRope)} },
			CSV: "p_equivalent", Write: func(f foldRow) string { return csvP(f.Correlated.PRope) }},
		{Header: "P(B>A)", Align: 'r', Show: func(f foldRow) Entry { return Entry{Text: prob(f.Correlated.PLeft)} },
			CSV: "p_b_better", Write: func(f foldRow) string { return csvP(f.Correlated.PLeft) }},
		{CSV: "nb_t", Write: func(f foldRow) string { return csvP(f.NadeauBengio.T) }},
		{CSV: "nb_df", Write: func(f foldRow) string { return strconv.Itoa(f.NadeauBengio.DF) }},
		{Header: "NB p", Align: 'r', Show: func(f foldRow) Entry { return Entry{Text: pValue(f.NadeauBengio.P)} },
			CSV: "nb_p", Write: func(f foldRow) string { return csvP(f.NadeauBengio.P) }},
	}
}

// csvP formats a probability or statistic for CSV, empty when NaN.
func csvP(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return ""
	}
	return fmt.Sprintf("%.6g", v)
}
