package reports

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/internal/safename"
	"github.com/fgrtbench/fgrtbench/results"
)

// tableName makes a file stem of the sweep: sweep-<protocol>-<method>, any
// character outside [A-Za-z0-9.-] turned into '_'.
func sweepTableName(s analysis.Sweep) string {
	return safename.Component("sweep-" + s.Protocol + "-" + s.Method)
}

// SweepTable builds the table of one sweep: per dataset and configuration
// the mean ± std accuracy and balanced accuracy over folds and repeats,
// mean rules, antecedents, rulebase size and fit time, the rank within the
// dataset (best in bold); then the selected points of the method and its
// variants on that dataset; finally a pooled block with each
// configuration's mean over datasets and mean rank.
func SweepTable(s analysis.Sweep, pres results.Presentation) Table {
	t := Table{
		Name:  sweepTableName(s),
		Title: fmt.Sprintf("Sweep of %s over %s, %s protocol", pres.DisplayName(s.Method), sweptText(s.Params), s.Protocol),
		Header: append(append([]string{"Dataset"}, headerParams(s.Params)...),
			"Accuracy (%)", "Balanced acc. (%)", "Rules", "Antecedents", "Rulebase size", "Fit (ms)", "N", "Rank"),
		CSVHeader: []string{"protocol", "dataset", "method", "point", "config", "selection", "n",
			"accuracy_mean", "accuracy_std", "balanced_accuracy_mean", "balanced_accuracy_std",
			"rules_mean", "antecedents_mean", "rulebase_size_mean", "fit_seconds_mean", "rank", "best"},
	}
	nParams := max(1, len(s.Params))
	t.Align = "l" + strings.Repeat("r", nParams) + "rrrrrrrr"
	ranks, meanRank := s.Ranks()
	for d, ds := range s.Datasets {
		sweepDatasetRows(&t, s, d, ranks[d], nParams)
		sweepSelectedRows(&t, s, ds, nParams, pres)
	}
	sweepPooledRows(&t, s, meanRank, nParams)
	t.Notes = []string{
		"Each point is one configuration, evaluated on every fold and repeat: mean ± population standard deviation (ddof 0) over them; rules, antecedents (all conditions of the rulebase), rulebase size and fit time are means. Bold accuracy and rank = the best configuration of the dataset by mean accuracy; Rank = its rank among the configurations by mean accuracy (1 = best, ties averaged).",
		"Pooled rows: means over the datasets of the per-dataset means, and the mean rank over datasets (N = datasets; only configurations present on every dataset); bold = the lowest mean rank.",
	}
	if len(s.Selected) > 0 {
		t.Notes = append(t.Notes, "Rows 'selected:' are the reported numbers of the method and of its variants in these results (one configuration chosen per fold by the rule in brackets), for comparison; they are not ranked.")
	}
	if anyTestSweep(s) {
		t.Notes = append(t.Notes, "Under the paper protocol every configuration is scored on the test fold that also chooses the reported one: the sweep shows all of them, the selected row is the per-fold maximum (optimistic).")
	}
	return t
}

// sweepDatasetRows adds the points run on dataset d with their ranks
// there, the best in bold.
func sweepDatasetRows(t *Table, s analysis.Sweep, d int, ranks []float64, nParams int) {
	ds := s.Datasets[d]
	for i, p := range s.Points[d] {
		if p.N == 0 {
			continue
		}
		isBest := s.TiedBest(d, i)
		row := []Entry{{Text: ds}}
		row = append(row, paramEntries(s, i)...)
		row = append(row, pointEntries(p)...)
		row = append(row, Entry{Text: fixed(ranks[i], 1)})
		if isBest {
			row[1+nParams].Bold, row[len(row)-1].Bold = true, true
		}
		t.Rows = append(t.Rows, row)
		t.CSVRows = append(t.CSVRows, pointCSV(s.Protocol, ds, s.Method, s.Label(i), p, csvNum(ranks[i]), isBest))
	}
}

// sweepSelectedRows adds the reported numbers of the method's variants on
// dataset ds, unranked.
func sweepSelectedRows(t *Table, s analysis.Sweep, ds string, nParams int, pres results.Presentation) {
	for _, p := range s.Selected {
		if p.Dataset != ds {
			continue
		}
		what := "selected: " + pres.DisplayName(p.Method) + " (" + p.Selection + ")"
		row := []Entry{{Text: ds}, {Text: what}}
		for j := 1; j < nParams; j++ {
			row = append(row, Entry{Text: ""})
		}
		row = append(row, pointEntries(p)...)
		row = append(row, Entry{Text: "—"})
		t.Rows = append(t.Rows, row)
		t.CSVRows = append(t.CSVRows, pointCSV(s.Protocol, ds, p.Method, what, p, "", false))
	}
}

// sweepPooledRows adds the pooled block: means over datasets of the
// configurations present on every dataset, the lowest mean rank in bold.
func sweepPooledRows(t *Table, s analysis.Sweep, meanRank []float64, nParams int) {
	pooledBest := s.PooledBest()
	for i := range s.Configs {
		if math.IsNaN(meanRank[i]) {
			continue
		}
		m, _ := s.Pooled(i)
		row := []Entry{{Text: "Pooled"}}
		row = append(row, paramEntries(s, i)...)
		row = append(row, Entry{Text: pct(m.Accuracy)}, Entry{Text: pct(m.BalancedAccuracy)},
			Entry{Text: fixed(m.Rules, 1)}, Entry{Text: fixed(m.Antecedents, 1)}, Entry{Text: fixed(m.RulebaseSize, 1)},
			Entry{Text: fixed(m.FitSeconds*1000, 2)}, Entry{Text: strconv.Itoa(m.N)}, Entry{Text: fixed(meanRank[i], 2)})
		if i == pooledBest {
			row[1+nParams].Bold, row[len(row)-1].Bold = true, true
		}
		t.Rows = append(t.Rows, row)
		t.CSVRows = append(t.CSVRows, []string{s.Protocol, "pooled", s.Method, s.Label(i), s.Configs[i], "", strconv.Itoa(m.N),
			csvNum(m.Accuracy * 100), "", csvNum(m.BalancedAccuracy * 100), "",
			csvNum(m.Rules), csvNum(m.Antecedents), csvNum(m.RulebaseSize), csvNum(m.FitSeconds), csvNum(meanRank[i]), strconv.FormatBool(i == pooledBest)})
	}
}

func anyTestSweep(s analysis.Sweep) bool {
	for _, pts := range s.Points {
		for _, p := range pts {
			if strings.Contains(p.Selection, "test") {
				return true
			}
		}
	}
	return false
}

func sweptText(params []string) string {
	if len(params) == 0 {
		return "one configuration"
	}
	return strings.Join(params, " × ")
}

func headerParams(params []string) []string {
	if len(params) == 0 {
		return []string{"Configuration"}
	}
	return params
}

func paramEntries(s analysis.Sweep, i int) []Entry {
	if len(s.Params) == 0 {
		return []Entry{{Text: "(one configuration)"}}
	}
	out := make([]Entry, len(s.Params))
	for j := range s.Params {
		out[j] = Entry{Text: s.Values[i][j]}
	}
	return out
}

func pointEntries(p analysis.Point) []Entry {
	return []Entry{
		{Text: pct(p.Accuracy) + " ± " + pct(p.AccuracyStd)},
		{Text: pct(p.BalancedAccuracy) + " ± " + pct(p.BalancedAccuracyStd)},
		{Text: fixed(p.Rules, 1)}, {Text: fixed(p.Antecedents, 1)}, {Text: fixed(p.RulebaseSize, 1)},
		{Text: fixed(p.FitSeconds*1000, 2)}, {Text: strconv.Itoa(p.N)},
	}
}

func pointCSV(protocol, dataset, method, point string, p analysis.Point, rank string, best bool) []string {
	return []string{protocol, dataset, method, point, p.Config, p.Selection, strconv.Itoa(p.N),
		csvNum(p.Accuracy * 100), csvNum(p.AccuracyStd * 100), csvNum(p.BalancedAccuracy * 100), csvNum(p.BalancedAccuracyStd * 100),
		csvNum(p.Rules), csvNum(p.Antecedents), csvNum(p.RulebaseSize), csvNum(p.FitSeconds), rank, strconv.FormatBool(best)}
}

// sweepSection writes the "Hyperparameter sweeps" section of REPORT.md: a
// line per sweep and its table; the tables are appended to rep.Tables so
// that Write stores them in the three formats.
func sweepSection(rep *Report, sweeps []analysis.Sweep, pres results.Presentation) []byte {
	if len(sweeps) == 0 {
		return nil
	}
	var b bytes.Buffer
	b.WriteString("## Hyperparameter sweeps\n\n")
	b.WriteString("Every configuration of a swept method (selection `sweep`, or a grid whose configurations are all scored on each fold) is a result of its own. ")
	b.WriteString("One line per sweep below: its grid, and the configuration with the best mean rank over the datasets (pooled mean accuracy and rulebase size); the full per-configuration tables are in report/sweeps/, linked. Figures of the sweeps follow under Figures.\n\n")
	b.WriteString("| Sweep | Protocol | Grid | Points | Best configuration | Mean rank | Accuracy (%) | Rulebase size | Table |\n|---|---|---|---:|---|---:|---:|---:|---|\n")
	for _, s := range sweeps {
		t := SweepTable(s, pres)
		t.Dir, t.Linked = "sweeps", true
		rep.Tables = append(rep.Tables, t)
		best, rank, acc, size := "—", "—", "—", "—"
		if i := s.PooledBest(); i >= 0 {
			_, mean := s.Ranks()
			best, rank = s.Label(i), fixed(mean[i], 2)
			if pp, ok := s.Pooled(i); ok {
				acc, size = pct(pp.Accuracy), fixed(pp.RulebaseSize, 1)
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %d × %d | %s | %s | %s | %s | [md](sweeps/%s.md), [csv](sweeps/%s.csv) |\n",
			mdEscape(pres.DisplayName(s.Method)), mdEscape(s.Protocol), mdEscape(sweepValuesText(s)), len(s.Configs), len(s.Datasets), mdEscape(best), rank, acc, size, t.Name, t.Name)
	}
	b.WriteString("\n")
	return b.Bytes()
}

// sweepValuesText lists each swept parameter's distinct values.
func sweepValuesText(s analysis.Sweep) string {
	if len(s.Params) == 0 {
		return "one configuration"
	}
	var parts []string
	for j, p := range s.Params {
		seen := map[string]bool{}
		var vals []string
		for i := range s.Configs {
			if v := s.Values[i][j]; !seen[v] {
				seen[v] = true
				vals = append(vals, v)
			}
		}
		sortNumeric(vals)
		parts = append(parts, p+" ∈ {"+strings.Join(vals, ", ")+"}")
	}
	return strings.Join(parts, ", ")
}

// sortNumeric sorts values numerically when every one is a number (else
// leaves the grid's order).
func sortNumeric(vals []string) {
	nums := make(map[string]float64, len(vals))
	for _, v := range vals {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return
		}
		nums[v] = f
	}
	sort.SliceStable(vals, func(i, j int) bool { return nums[vals[i]] < nums[vals[j]] })
}
