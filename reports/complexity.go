package reports

import (
	"fmt"
	"strconv"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/paper"
	"github.com/fgrtbench/fgrtbench/results"
)

// ComplexityTable builds the complexity table of one protocol: per method,
// rules, antecedents per rule and rulebase size as a reader counts them,
// plus the authors' tree counts (leaves, internal nodes), each averaged over
// folds and then over datasets; the paper's figures alongside. Paper-only
// methods (FRR) get a row with the paper's figures only. The paper's
// figures (means over its ten datasets) stand beside ours under the paper
// protocol of a study with some of the paper's datasets only. The averages
// are the analysis's complexity[].
func ComplexityTable(a *analysis.Analysis, protocol string) Table {
	pres := a.Presentation()
	paperColumns := protocol == "paper" && a.HasPaperDatasets()
	cells := analysis.FilterProtocol(a.Cells, protocol)
	methods := analysis.MethodsOf(cells, pres)
	t := Table{
		Name:      "complexity-" + protocol,
		Title:     fmt.Sprintf("Model complexity averaged over datasets, %s protocol", protocol),
		Header:    []string{"Method", "Datasets", "Rules", "Antecedents/rule", "Rulebase size", "Leaves", "Internal nodes", "Paper rules", "Paper cond./rule", "Paper size"},
		Align:     "lrrrrrrrrr",
		CSVHeader: []string{"protocol", "method", "display_name", "datasets", "rules", "antecedents_per_rule", "rulebase_size", "leaves", "internal_nodes", "paper_rules", "paper_conditions_per_rule", "paper_rulebase_size"},
	}
	covered := map[string]bool{}
	for _, m := range methods {
		row, csvRow := complexityRow(a, protocol, m)
		if col, ok := analysis.PaperColumn(m); ok {
			covered[col] = true
		}
		t.Rows = append(t.Rows, row)
		t.CSVRows = append(t.CSVRows, csvRow)
	}
	if paperColumns {
		paperOnlyRows(&t, protocol, covered)
	}
	t.Notes = []string{
		"Rules: one per leaf or rule-list entry; Antecedents/rule: mean conditions per rule (per-fold ratio, averaged); Rulebase size: total antecedents. Leaves and internal nodes are the counts the authors' driver records (its N_Rules and N_Unique_Conditions).",
		"The paper's FGRT row (10.40 rules, 2.28 conditions/rule) equals the authors' mean leaves and mean internal nodes, not antecedents per rule; its CART and C4.5 rows match no committed result. Paper size = paper rules × paper conditions/rule.",
	}
	if !paperColumns {
		// The paper's figures are comparable under its protocol, on its
		// datasets, only.
		t.Header, t.Align, t.CSVHeader = t.Header[:7], t.Align[:7], t.CSVHeader[:9]
		for i := range t.Rows {
			t.Rows[i], t.CSVRows[i] = t.Rows[i][:7], t.CSVRows[i][:9]
		}
		t.Notes = t.Notes[:1]
	}
	return t
}

// complexityRow is a method's averages, with the paper's figures for it
// (dashes for a variant; a note for a learner the paper never ran).
func complexityRow(a *analysis.Analysis, protocol, m string) ([]Entry, []string) {
	pres := a.Presentation()
	cm, _ := a.ComplexityOf(protocol, m)
	n := cm.Datasets
	vals := []float64{cm.Rules, cm.AntecedentsPerRule, cm.RulebaseSize, cm.Leaves, cm.InternalNodes}
	row := []Entry{{Text: pres.DisplayName(m)}, {Text: strconv.Itoa(n)}}
	csvRow := []string{protocol, m, pres.DisplayName(m), strconv.Itoa(n)}
	for _, v := range vals {
		row = append(row, Entry{Text: fixed(v, 2)})
		csvRow = append(csvRow, csvNum(v))
	}
	pRow, pCSV := paperComplexity(m)
	if _, variant := results.SplitVariant(m); variant != "" {
		pRow, pCSV = []Entry{{Text: "—"}, {Text: "—"}, {Text: "—"}}, []string{"", "", ""}
	} else if notInPaper(m) {
		// A learner the paper never ran (FuzzyCART, the majority
		// baseline): say so where the paper's figures would stand,
		// rather than dashes that read as missing numbers.
		pRow[0].Text = notInPaperText
	}
	return append(row, pRow...), append(csvRow, pCSV...)
}

// paperOnlyRows adds the paper's figures of the methods the study did not
// run (FRR), each in a row of its own.
func paperOnlyRows(t *Table, protocol string, covered map[string]bool) {
	for _, col := range paper.ComplexityColumns {
		if covered[col] {
			continue
		}
		p, _ := paper.Complexity(col)
		t.Rows = append(t.Rows, []Entry{{Text: col + " (paper only)"}, {Text: "—"}, {Text: "—"}, {Text: "—"}, {Text: "—"}, {Text: "—"}, {Text: "—"},
			{Text: fixed(p.Rules, 2)}, {Text: fixed(p.ConditionsPerRule, 2)}, {Text: fixed(p.RulebaseSize, 2)}})
		t.CSVRows = append(t.CSVRows, []string{protocol, "paper:" + col, col + " (paper only)", "0", "", "", "", "", "",
			fixed(p.Rules, 2), fixed(p.ConditionsPerRule, 2), fixed(p.RulebaseSize, 2)})
	}
}

func paperComplexity(method string) ([]Entry, []string) {
	col, ok := analysis.PaperColumn(method)
	if ok {
		if p, ok := paper.Complexity(col); ok {
			return []Entry{{Text: fixed(p.Rules, 2)}, {Text: fixed(p.ConditionsPerRule, 2)}, {Text: fixed(p.RulebaseSize, 2)}},
				[]string{fixed(p.Rules, 2), fixed(p.ConditionsPerRule, 2), fixed(p.RulebaseSize, 2)}
		}
	}
	return []Entry{{Text: "—"}, {Text: "—"}, {Text: "—"}}, []string{"", "", ""}
}
