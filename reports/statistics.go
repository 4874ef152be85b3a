package reports

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/fgrtbench/fgrtbench/results"
	"github.com/fgrtbench/fgrtbench/stats"
)

// StatsResult holds the statistical comparison of the methods of one
// protocol over the datasets on which every method has a result.
type StatsResult struct {
	Protocol string
	Methods  []string
	Datasets []string
	// Excluded lists datasets left out because some method lacks them.
	Excluded []string
	Friedman stats.FriedmanResult
	// CD05 and CD10 are the Nemenyi critical differences at α = 0.05 and
	// 0.10 (0 when k > 10, beyond Demšar's table).
	CD05, CD10 float64
	Pairs      []PairTest
}

// PairTest is a Wilcoxon signed-rank test of two methods' per-dataset mean
// accuracies, with the Holm-adjusted p-value over all pairs of the protocol.
type PairTest struct {
	A, B     string
	MeanDiff float64 // mean of A − B, percentage points
	Wilcoxon stats.WilcoxonResult
	PHolm    float64
}

// focusMethods are compared with every other method by Wilcoxon tests.
var focusMethods = []string{"fgrt", "fgrt-opt"}

// Statistics runs Friedman + Nemenyi over the datasets × methods matrix of
// one protocol (mean accuracies; rank 1 = most accurate) and the Wilcoxon
// tests of FGRT and FGRT* against every other method, Holm-corrected as one
// family. It needs at least two methods and two complete datasets.
func Statistics(cells []Cell, protocol string, pres results.Presentation) (StatsResult, error) {
	cells = filterProtocol(cells, protocol)
	ix := newCellIndex(cells)
	res := StatsResult{Protocol: protocol, Methods: methodsOf(cells, pres)}
	if len(res.Methods) < 2 {
		return res, fmt.Errorf("reports: %s protocol has %d method(s); statistics need 2", protocol, len(res.Methods))
	}
	var matrix [][]float64
	for _, ds := range datasetsOf(cells) {
		row := make([]float64, len(res.Methods))
		complete := true
		for j, m := range res.Methods {
			c, ok := ix.get(protocol, ds, m)
			if !ok {
				complete = false
				break
			}
			row[j] = c.Accuracy
		}
		if !complete {
			res.Excluded = append(res.Excluded, ds)
			continue
		}
		res.Datasets = append(res.Datasets, ds)
		matrix = append(matrix, row)
	}
	if len(matrix) < 2 {
		return res, fmt.Errorf("reports: %s protocol has %d dataset(s) with every method; statistics need 2", protocol, len(matrix))
	}
	var err error
	res.Friedman, err = stats.Friedman(matrix, true)
	if err != nil {
		return res, err
	}
	k, n := len(res.Methods), len(matrix)
	if cd, err := stats.NemenyiCD(0.05, k, n); err == nil {
		res.CD05 = cd
		res.CD10, _ = stats.NemenyiCD(0.10, k, n)
	}
	col := func(j int) []float64 {
		out := make([]float64, n)
		for i := range matrix {
			out[i] = matrix[i][j]
		}
		return out
	}
	done := map[[2]string]bool{}
	var ps []float64
	for _, f := range focusMethods {
		fj := rankOf(res.Methods, f)
		if fj == len(res.Methods) {
			continue
		}
		for j, m := range res.Methods {
			if j == fj || done[[2]string{m, f}] {
				continue
			}
			done[[2]string{f, m}] = true
			a, b := col(fj), col(j)
			w, err := stats.Wilcoxon(a, b)
			if err != nil {
				return res, err
			}
			diff := 0.0
			for i := range a {
				diff += (a[i] - b[i]) * 100
			}
			res.Pairs = append(res.Pairs, PairTest{A: f, B: m, MeanDiff: diff / float64(n), Wilcoxon: w})
			ps = append(ps, w.P)
		}
	}
	adj, err := stats.Holm(ps)
	if err != nil {
		return res, err
	}
	for i := range res.Pairs {
		res.Pairs[i].PHolm = adj[i]
	}
	return res, nil
}

// pValue formats a p-value with four significant decimals, or "< 0.0001".
func pValue(p float64) string {
	if p < 0.0001 {
		return "< 0.0001"
	}
	return fixed(p, 4)
}

// StatisticsTables renders a StatsResult as three tables: average ranks,
// the Friedman/Nemenyi summary and the Wilcoxon/Holm pairs.
func StatisticsTables(r StatsResult, pres results.Presentation) []Table {
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
		ranks.Rows = append(ranks.Rows, []Entry{{Text: pres.DisplayName(r.Methods[j])}, {Text: fixed(ar, 3), Bold: ar-best <= tieTol}, {Text: fixed(ar-best, 3)}})
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
	if r.CD05 > 0 {
		items = append(items,
			kv{"Nemenyi CD (α = 0.05)", fixed(r.CD05, 4), csvNum(r.CD05)},
			kv{"Nemenyi CD (α = 0.10)", fixed(r.CD10, 4), csvNum(r.CD10)})
	} else {
		items = append(items, kv{"Nemenyi CD", "n/a (k > 10)", ""})
	}
	fr := Table{
		Name:      "friedman-" + p,
		Title:     fmt.Sprintf("Friedman test and Nemenyi critical difference, %s protocol", p),
		Header:    []string{"Statistic", "Value"},
		Align:     "lr",
		CSVHeader: []string{"protocol", "statistic", "value"},
		Notes:     []string{"Demšar (2006): χ² without tie correction, Iman–Davenport F from it; Nemenyi q from Demšar's Table 5(a). Two methods differ at level α when their average ranks differ by at least CD."},
	}
	for _, it := range items {
		fr.Rows = append(fr.Rows, []Entry{{Text: it.name}, {Text: it.text}})
		fr.CSVRows = append(fr.CSVRows, []string{p, it.name, it.csv})
	}

	wt := Table{
		Name:      "wilcoxon-" + p,
		Title:     fmt.Sprintf("Wilcoxon signed-rank tests with Holm correction, %s protocol", p),
		Header:    []string{"Comparison", "Mean Δ (pp)", "n", "W+", "W−", "Method", "p", "p (Holm)"},
		Align:     "lrrrrlrr",
		CSVHeader: []string{"protocol", "a", "b", "mean_diff", "n", "zeros", "w_plus", "w_minus", "exact", "p", "p_holm", "significant_05"},
		Notes: []string{
			"Two-sided tests on per-dataset mean accuracies. Zero differences are dropped (scipy's zero_method='wilcox'); exact null distribution for n ≤ 25 without ties, otherwise the normal approximation with tie and continuity corrections.",
			"Holm's step-down correction over all comparisons of the table; bold: Holm-adjusted p < 0.05.",
		},
	}
	for _, pt := range r.Pairs {
		how := "normal"
		if pt.Wilcoxon.Exact {
			how = "exact"
		}
		sig := pt.PHolm < 0.05
		wt.Rows = append(wt.Rows, []Entry{
			{Text: pres.DisplayName(pt.A) + " vs " + pres.DisplayName(pt.B)}, {Text: signed(pt.MeanDiff, 2)}, {Text: strconv.Itoa(pt.Wilcoxon.N)},
			{Text: fixed(pt.Wilcoxon.WPlus, 1)}, {Text: fixed(pt.Wilcoxon.WMinus, 1)}, {Text: how},
			{Text: pValue(pt.Wilcoxon.P)}, {Text: pValue(pt.PHolm), Bold: sig},
		})
		wt.CSVRows = append(wt.CSVRows, []string{p, pt.A, pt.B, csvNum(pt.MeanDiff), strconv.Itoa(pt.Wilcoxon.N), strconv.Itoa(pt.Wilcoxon.Zeros),
			csvNum(pt.Wilcoxon.WPlus), csvNum(pt.Wilcoxon.WMinus), strconv.FormatBool(pt.Wilcoxon.Exact),
			fmt.Sprintf("%.6g", pt.Wilcoxon.P), fmt.Sprintf("%.6g", pt.PHolm), strconv.FormatBool(sig)})
	}
	return []Table{ranks, fr, wt}
}
