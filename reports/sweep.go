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
	}
	nParams := max(1, len(s.Params))
	ranks, meanRank := s.Ranks()
	var lines []sweepLine
	for d, ds := range s.Datasets {
		lines = append(lines, sweepDatasetRows(s, d, ranks[d])...)
		lines = append(lines, sweepSelectedRows(s, ds, nParams, pres)...)
	}
	lines = append(lines, sweepPooledRows(s, meanRank)...)
	declare(&t, sweepColumns(s, nParams), lines)
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

// sweepLine is one row of a sweep table: a point run on a dataset, a
// selected point beside them (unranked), or a configuration's pooled
// means over the datasets.
type sweepLine struct {
	// label is the grid's first cell (the dataset, or Pooled); dataset
	// the CSV's.
	label, dataset string
	method         string
	// point names the configuration in the CSV; params shows it in the
	// grid, one cell per swept parameter.
	point, config, selection string
	params                   []Entry
	analysis.Point
	// pooled shows the means without their deviations.
	pooled bool
	// rankShown and rankWritten are the rank, "—" and empty for a
	// selected point; best marks the dataset's (or the pool's) best.
	rankShown, rankWritten string
	best                   bool
}

// sweepColumns declares a sweep table: the configuration (one grid column
// per swept parameter), the means over folds and repeats, and the rank
// (the best's accuracy and rank in bold).
func sweepColumns(s analysis.Sweep, nParams int) []Column[sweepLine] {
	type line = sweepLine
	headers := headerParams(s.Params)
	cols := []Column[line]{
		{CSV: "protocol", Write: func(line) string { return s.Protocol }},
		{Header: "Dataset", Show: func(l line) Entry { return Entry{Text: l.label} },
			CSV: "dataset", Write: func(l line) string { return l.dataset }},
		{CSV: "method", Write: func(l line) string { return l.method }},
	}
	for j := range nParams {
		cols = append(cols, Column[line]{Header: headers[j], Align: 'r', Show: func(l line) Entry { return l.params[j] }})
	}
	spread := func(mean, std func(line) float64) func(line) Entry {
		return func(l line) Entry {
			if l.pooled {
				return Entry{Text: pct(mean(l))}
			}
			return Entry{Text: pct(mean(l)) + " ± " + pct(std(l))}
		}
	}
	percent := func(of func(line) float64) func(line) string {
		return func(l line) string { return csvNum(of(l) * 100) }
	}
	deviation := func(of func(line) float64) func(line) string {
		return func(l line) string {
			if l.pooled {
				return ""
			}
			return csvNum(of(l) * 100)
		}
	}
	mean := func(header, csv string, of func(line) float64) Column[line] {
		return Column[line]{Header: header, Align: 'r', Show: func(l line) Entry { return Entry{Text: fixed(of(l), 1)} },
			CSV: csv, Write: func(l line) string { return csvNum(of(l)) }}
	}
	accuracy, accuracyStd := func(l line) float64 { return l.Accuracy }, func(l line) float64 { return l.AccuracyStd }
	balanced, balancedStd := func(l line) float64 { return l.BalancedAccuracy }, func(l line) float64 { return l.BalancedAccuracyStd }
	accuracyShown := spread(accuracy, accuracyStd)
	return append(cols, []Column[line]{
		{CSV: "point", Write: func(l line) string { return l.point }},
		{CSV: "config", Write: func(l line) string { return l.config }},
		{CSV: "selection", Write: func(l line) string { return l.selection }},
		{CSV: "n", Write: func(l line) string { return strconv.Itoa(l.N) }},
		{Header: "Accuracy (%)", Align: 'r', Show: func(l line) Entry { e := accuracyShown(l); e.Bold = l.best; return e },
			CSV: "accuracy_mean", Write: percent(accuracy)},
		{CSV: "accuracy_std", Write: deviation(accuracyStd)},
		{Header: "Balanced acc. (%)", Align: 'r', Show: spread(balanced, balancedStd),
			CSV: "balanced_accuracy_mean", Write: percent(balanced)},
		{CSV: "balanced_accuracy_std", Write: deviation(balancedStd)},
		mean("Rules", "rules_mean", func(l line) float64 { return l.Rules }),
		mean("Antecedents", "antecedents_mean", func(l line) float64 { return l.Antecedents }),
		mean("Rulebase size", "rulebase_size_mean", func(l line) float64 { return l.RulebaseSize }),
		{Header: "Fit (ms)", Align: 'r', Show: func(l line) Entry { return Entry{Text: fixed(l.FitSeconds*1000, 2)} },
			CSV: "fit_seconds_mean", Write: func(l line) string { return csvNum(l.FitSeconds) }},
		{Header: "N", Align: 'r', Show: func(l line) Entry { return Entry{Text: strconv.Itoa(l.N)} }},
		{Header: "Rank", Align: 'r', Show: func(l line) Entry { return Entry{Text: l.rankShown, Bold: l.best} },
			CSV: "rank", Write: func(l line) string { return l.rankWritten }},
		{CSV: "best", Write: func(l line) string { return strconv.FormatBool(l.best) }},
	}...)
}

// sweepDatasetRows are the points run on dataset d with their ranks
// there, the best marked.
func sweepDatasetRows(s analysis.Sweep, d int, ranks []float64) []sweepLine {
	ds := s.Datasets[d]
	var lines []sweepLine
	for i, p := range s.Points[d] {
		if p.N == 0 {
			continue
		}
		lines = append(lines, sweepLine{label: ds, dataset: ds, method: s.Method, point: s.Label(i), config: p.Config, selection: p.Selection,
			params: paramEntries(s, i), Point: p, rankShown: fixed(ranks[i], 1), rankWritten: csvNum(ranks[i]), best: s.TiedBest(d, i)})
	}
	return lines
}

// sweepSelectedRows are the reported numbers of the method's variants on
// dataset ds, unranked.
func sweepSelectedRows(s analysis.Sweep, ds string, nParams int, pres results.Presentation) []sweepLine {
	var lines []sweepLine
	for _, p := range s.Selected {
		if p.Dataset != ds {
			continue
		}
		what := "selected: " + pres.DisplayName(p.Method) + " (" + p.Selection + ")"
		params := []Entry{{Text: what}}
		for j := 1; j < nParams; j++ {
			params = append(params, Entry{Text: ""})
		}
		lines = append(lines, sweepLine{label: ds, dataset: ds, method: p.Method, point: what, config: p.Config, selection: p.Selection,
			params: params, Point: p, rankShown: "—"})
	}
	return lines
}

// sweepPooledRows are the pooled block: means over datasets of the
// configurations present on every dataset, the lowest mean rank marked.
func sweepPooledRows(s analysis.Sweep, meanRank []float64) []sweepLine {
	pooledBest := s.PooledBest()
	var lines []sweepLine
	for i := range s.Configs {
		if math.IsNaN(meanRank[i]) {
			continue
		}
		m, _ := s.Pooled(i)
		lines = append(lines, sweepLine{label: "Pooled", dataset: "pooled", method: s.Method, point: s.Label(i), config: s.Configs[i],
			params: paramEntries(s, i), Point: m, pooled: true, rankShown: fixed(meanRank[i], 2), rankWritten: csvNum(meanRank[i]), best: i == pooledBest})
	}
	return lines
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
