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
	var rows []complexityRow
	covered := map[string]bool{}
	for _, m := range analysis.MethodsOf(cells, pres) {
		if col, ok := analysis.PaperColumn(m); ok {
			covered[col] = true
		}
		cm, _ := a.ComplexityOf(protocol, m)
		rows = append(rows, complexityRow{method: m, display: pres.DisplayName(m), ours: &cm, paper: paperComplexity(m), notInPaper: notInPaper(m)})
	}
	t := Table{
		Name:  "complexity-" + protocol,
		Title: fmt.Sprintf("Model complexity averaged over datasets, %s protocol", protocol),
		Notes: []string{
			"Rules: one per leaf or rule-list entry; Antecedents/rule: mean conditions per rule (per-fold ratio, averaged); Rulebase size: total antecedents. Leaves and internal nodes are the counts the authors' driver records (its N_Rules and N_Unique_Conditions).",
		},
	}
	cols := complexityColumns(protocol)
	if paperColumns {
		// The paper's figures are comparable under its protocol, on its
		// datasets, only.
		rows = append(rows, paperOnlyRows(covered)...)
		cols = append(cols, complexityPaperColumns()...)
		t.Notes = append(t.Notes, "The paper's FGRT row (10.40 rules, 2.28 conditions/rule) equals the authors' mean leaves and mean internal nodes, not antecedents per rule; its CART and C4.5 rows match no committed result. Paper size = paper rules × paper conditions/rule.")
	}
	declare(&t, cols, rows)
	return t
}

// complexityRow is one method's row: the analysis's averages (nil in a
// row of the paper's only) and the paper's figures (nil where there are
// none to compare).
type complexityRow struct {
	method, display string
	ours            *analysis.ComplexityMean
	paper           *paper.ComplexityRow
	// notInPaper marks a learner the paper never ran (FuzzyCART, the
	// majority baseline): the paper's first column says so, rather than
	// dashes that read as missing numbers.
	notInPaper bool
}

// complexityColumns declares the complexity table's columns of ours; the
// paper's follow where they are comparable (complexityPaperColumns).
func complexityColumns(protocol string) []Column[complexityRow] {
	average := func(header, csv string, of func(analysis.ComplexityMean) float64) Column[complexityRow] {
		return Column[complexityRow]{Header: header, Align: 'r', CSV: csv,
			Show: func(r complexityRow) Entry {
				if r.ours == nil {
					return Entry{Text: "—"}
				}
				return Entry{Text: fixed(of(*r.ours), 2)}
			},
			Write: func(r complexityRow) string {
				if r.ours == nil {
					return ""
				}
				return csvNum(of(*r.ours))
			}}
	}
	datasets := func(r complexityRow) string {
		if r.ours == nil {
			return "0"
		}
		return strconv.Itoa(r.ours.Datasets)
	}
	return []Column[complexityRow]{
		{CSV: "protocol", Write: func(complexityRow) string { return protocol }},
		{CSV: "method", Write: func(r complexityRow) string { return r.method }},
		{Header: "Method", Show: func(r complexityRow) Entry { return Entry{Text: r.display} },
			CSV: "display_name", Write: func(r complexityRow) string { return r.display }},
		{Header: "Datasets", Align: 'r', CSV: "datasets", Write: datasets,
			Show: func(r complexityRow) Entry {
				if r.ours == nil {
					return Entry{Text: "—"}
				}
				return Entry{Text: datasets(r)}
			}},
		average("Rules", "rules", func(c analysis.ComplexityMean) float64 { return c.Rules }),
		average("Antecedents/rule", "antecedents_per_rule", func(c analysis.ComplexityMean) float64 { return c.AntecedentsPerRule }),
		average("Rulebase size", "rulebase_size", func(c analysis.ComplexityMean) float64 { return c.RulebaseSize }),
		average("Leaves", "leaves", func(c analysis.ComplexityMean) float64 { return c.Leaves }),
		average("Internal nodes", "internal_nodes", func(c analysis.ComplexityMean) float64 { return c.InternalNodes }),
	}
}

// complexityPaperColumns declares the paper's figures beside ours.
func complexityPaperColumns() []Column[complexityRow] {
	figure := func(header, csv string, first bool, of func(paper.ComplexityRow) float64) Column[complexityRow] {
		return Column[complexityRow]{Header: header, Align: 'r', CSV: csv,
			Show: func(r complexityRow) Entry {
				switch {
				case r.paper != nil:
					return Entry{Text: fixed(of(*r.paper), 2)}
				case first && r.notInPaper:
					return Entry{Text: notInPaperText}
				}
				return Entry{Text: "—"}
			},
			Write: func(r complexityRow) string {
				if r.paper == nil {
					return ""
				}
				return fixed(of(*r.paper), 2)
			}}
	}
	return []Column[complexityRow]{
		figure("Paper rules", "paper_rules", true, func(p paper.ComplexityRow) float64 { return p.Rules }),
		figure("Paper cond./rule", "paper_conditions_per_rule", false, func(p paper.ComplexityRow) float64 { return p.ConditionsPerRule }),
		figure("Paper size", "paper_rulebase_size", false, func(p paper.ComplexityRow) float64 { return p.RulebaseSize }),
	}
}

// paperOnlyRows are the paper's figures of the methods the study did not
// run (FRR), each in a row of its own.
func paperOnlyRows(covered map[string]bool) []complexityRow {
	var rows []complexityRow
	for _, col := range paper.ComplexityColumns {
		if covered[col] {
			continue
		}
		p, _ := paper.Complexity(col)
		rows = append(rows, complexityRow{method: "paper:" + col, display: col + " (paper only)", paper: &p})
	}
	return rows
}

// paperComplexity is the paper's figures for a method: nil for a variant
// (a grid point is not the paper's configuration) or a learner the paper
// never ran.
func paperComplexity(method string) *paper.ComplexityRow {
	if _, variant := results.SplitVariant(method); variant != "" {
		return nil
	}
	col, ok := analysis.PaperColumn(method)
	if !ok {
		return nil
	}
	if p, ok := paper.Complexity(col); ok {
		return &p
	}
	return nil
}
