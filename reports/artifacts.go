package reports

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/internal/safename"
	"github.com/fgrtbench/fgrtbench/results/artifacts"
)

// rulesFileName is the file of one dataset's stored rules, confusion
// matrices and rule stability, relative to report/.
func rulesFileName(dataset string) string {
	return "rules/" + safename.Component(dataset) + ".md"
}

// ArtifactsTable is, per protocol, what the stored predictions and models
// add to the accuracy: AUC and log-loss of the scores, and the rule
// stability beside the rule count (mean rules per model, distinct rules,
// mean pairwise Jaccard similarity of the rule sets across folds and
// seeds). Empty without artifacts. Rows go by dataset, then method in
// display order.
func ArtifactsTable(a *analysis.Analysis, protocol string) Table {
	t := Table{
		Name:  "artifacts-" + safename.Component(protocol),
		Title: fmt.Sprintf("Scores and rule stability, %s protocol", protocol),
		Notes: []string{
			"From predictions.csv.gz and models.jsonl.gz: the selected configuration's test rows of every fold and repeat, pooled. AUC: one-vs-rest, macro over classes, ties by average rank (scikit-learn's roc_auc_score per class); log-loss: scores clipped to [ε, 1−ε] with ε = 2.22e-16 (scikit-learn's eps=\"auto\") and renormalised per row; — where the method stores no scores.",
			"Jaccard: mean pairwise Jaccard similarity of the models' rule sets (rules compared as text, without printed statistics) across folds and repeats; 1 = the same rules every time.",
		},
	}
	stab := map[[2]string]analysis.Stability{}
	for _, s := range a.Stability {
		if s.Protocol == protocol {
			stab[[2]string{s.Dataset, s.Method}] = s
		}
	}
	var rows []artifactsRow
	for _, p := range a.PredictiveOf(protocol) {
		r := artifactsRow{Predictive: p}
		if s, ok := stab[[2]string{p.Dataset, p.Method}]; ok {
			r.stability = &s
		}
		rows = append(rows, r)
	}
	declare(&t, artifactsColumns(a), rows)
	// A row per dataset and method is too long to read inline in a study
	// of several datasets: REPORT.md then links it with a one-line summary.
	t.Linked = len(t.Rows) > 12
	t.Summary = artifactsSummary(a, protocol)
	return t
}

// artifactsRow is a cell's scores and, when its models record rules,
// their stability.
type artifactsRow struct {
	analysis.Predictive
	stability *analysis.Stability
}

// artifactsColumns declares the artifacts table: — in the grid, empty in
// the CSV, where a cell has no scores or no stability.
func artifactsColumns(a *analysis.Analysis) []Column[artifactsRow] {
	stable := func(shown, written func(analysis.Stability) string) (func(artifactsRow) Entry, func(artifactsRow) string) {
		return func(r artifactsRow) Entry {
				if r.stability == nil {
					return Entry{Text: "—"}
				}
				return Entry{Text: shown(*r.stability)}
			}, func(r artifactsRow) string {
				if r.stability == nil {
					return ""
				}
				return written(*r.stability)
			}
	}
	rulesShown, rulesWritten := stable(func(s analysis.Stability) string { return fixed(s.MeanRules, 1) }, func(s analysis.Stability) string { return fixed(s.MeanRules, 4) })
	distinct := func(s analysis.Stability) string { return fmt.Sprint(s.Distinct) }
	distinctShown, distinctWritten := stable(distinct, distinct)
	jaccardShown, jaccardWritten := stable(func(s analysis.Stability) string { return optFixed(s.Jaccard, 3) }, func(s analysis.Stability) string { return optCSV(s.Jaccard) })
	return []Column[artifactsRow]{
		{CSV: "protocol", Write: func(r artifactsRow) string { return r.Protocol }},
		{Header: "Dataset", Show: func(r artifactsRow) Entry { return Entry{Text: r.Dataset} },
			CSV: "dataset", Write: func(r artifactsRow) string { return r.Dataset }},
		{Header: "Method", Show: func(r artifactsRow) Entry { return Entry{Text: a.Display(r.Method)} },
			CSV: "method", Write: func(r artifactsRow) string { return r.Method }},
		{Header: "AUC (macro OvR)", Align: 'r', Show: func(r artifactsRow) Entry { return Entry{Text: optFixed(r.AUC, 4)} },
			CSV: "auc_macro_ovr", Write: func(r artifactsRow) string { return optCSV(r.AUC) }},
		{Header: "Log-loss", Align: 'r', Show: func(r artifactsRow) Entry { return Entry{Text: optFixed(r.LogLoss, 4)} },
			CSV: "log_loss", Write: func(r artifactsRow) string { return optCSV(r.LogLoss) }},
		{Header: "Rules", Align: 'r', Show: rulesShown, CSV: "rules_mean", Write: rulesWritten},
		{Header: "Distinct rules", Align: 'r', Show: distinctShown, CSV: "distinct_rules", Write: distinctWritten},
		{Header: "Jaccard", Align: 'r', Show: jaccardShown, CSV: "mean_jaccard", Write: jaccardWritten},
		{Header: "Rules file", Show: func(r artifactsRow) Entry { return Entry{Text: rulesFileName(r.Dataset)} }},
		{CSV: "models", Write: func(r artifactsRow) string {
			if r.stability == nil {
				return ""
			}
			return fmt.Sprint(r.stability.Models)
		}},
	}
}

// optFixed shows an optional value with dec decimals, — when absent.
func optFixed(v *float64, dec int) string {
	if v == nil {
		return "—"
	}
	return fixed(*v, dec)
}

// optCSV writes an optional value for CSV, empty when absent.
func optCSV(v *float64) string {
	if v == nil {
		return ""
	}
	return fixed(*v, 6)
}

// artifactsSummary says in one sentence what the linked table holds.
func artifactsSummary(a *analysis.Analysis, protocol string) string {
	n := 0
	for _, p := range a.Predictive {
		if p.Protocol == protocol {
			n++
		}
	}
	if n == 0 {
		return "No stored scores or rules."
	}
	return fmt.Sprintf("%d rows, one per dataset and method: AUC (macro one-vs-rest) and log-loss of the stored scores, mean rules per model, distinct rules and the mean pairwise Jaccard similarity of the rule sets across folds and seeds.", n)
}

// RuleUnitsNote says, after a list of a cell's rules, in which units
// their numeric thresholds are: the learner's (scaled) units for a study
// stored before readable rules were recorded, the data's units where the
// rules are readable ones (thresholds to 4 significant digits;
// models.jsonl.gz keeps them at full precision), nothing for rules
// without thresholds.
func RuleUnitsNote(s analysis.Stability) string {
	if s.LearnerUnits {
		return " (numeric thresholds in the units the learner saw: this study was stored before rules were recorded in the data's units)"
	}
	if s.DataUnits {
		return " (numeric thresholds in the data's units, to 4 significant digits)"
	}
	return ""
}

// RulesFiles renders report/rules/<dataset>.md per dataset: for each
// protocol and method, the confusion matrix (summed over the folds of the
// selected configuration), AUC and log-loss, rule stability with the
// recurring rules, and the representative fold's rules (the fold whose
// accuracy is the median) with the partitions they use.
func RulesFiles(a *analysis.Analysis) map[string][]byte {
	bufs := map[string]*bytes.Buffer{}
	stab := map[[3]string]analysis.Stability{}
	for _, s := range a.Stability {
		stab[[3]string{s.Protocol, s.Dataset, s.Method}] = s
	}
	for _, p := range a.Predictive {
		b, ok := bufs[p.Dataset]
		if !ok {
			b = &bytes.Buffer{}
			fmt.Fprintf(b, "# %s: predictions and rules\n\nFrom the study's predictions.csv.gz and models.jsonl.gz ([report](../REPORT.md)).\n\n", mdEscape(p.Dataset))
			bufs[p.Dataset] = b
		}
		fmt.Fprintf(b, "## %s, %s protocol\n\n", mdEscape(a.Display(p.Method)), mdEscape(p.Protocol))
		writeConfusion(b, p)
		s, ok := stab[[3]string{p.Protocol, p.Dataset, p.Method}]
		if !ok {
			b.WriteString("\nThe models record no rules.\n\n")
			continue
		}
		writeStability(b, s)
		writeRepresentative(b, s)
	}
	files := map[string][]byte{}
	for d, b := range bufs {
		files[rulesFileName(d)] = b.Bytes()
	}
	return files
}

// writeConfusion writes a cell's confusion matrix, its unpredicted rows
// and its AUC and log-loss.
func writeConfusion(b *bytes.Buffer, p analysis.Predictive) {
	fmt.Fprintf(b, "Confusion matrix over %d test rows (rows: true class, columns: predicted):\n\n", p.Rows)
	b.WriteString("| true \\\\ predicted |")
	for _, c := range p.Classes {
		b.WriteString(" " + mdEscape(c) + " |")
	}
	b.WriteString("\n|---|" + strings.Repeat("---:|", len(p.Classes)) + "\n")
	for i, c := range p.Classes {
		b.WriteString("| " + mdEscape(c) + " |")
		for _, n := range p.Confusion[i] {
			fmt.Fprintf(b, " %d |", n)
		}
		b.WriteString("\n")
	}
	if p.Unpredicted > 0 {
		fmt.Fprintf(b, "\n%d test rows have no prediction.\n", p.Unpredicted)
	}
	if p.AUC == nil && p.LogLoss == nil {
		b.WriteString("\nNo scores stored: no AUC or log-loss.\n")
		return
	}
	auc, ll := "—", "—"
	if p.AUC != nil {
		auc = fixed(*p.AUC, 4)
	}
	if p.LogLoss != nil {
		ll = fixed(*p.LogLoss, 4)
	}
	fmt.Fprintf(b, "\nAUC (one-vs-rest, macro) %s; log-loss %s.\n", auc, ll)
}

// writeStability writes the rule stability of a cell's models and its
// recurring rules and conditions.
func writeStability(b *bytes.Buffer, s analysis.Stability) {
	jac := "— (one model)"
	if s.Jaccard != nil {
		jac = fixed(*s.Jaccard, 3)
	}
	fmt.Fprintf(b, "\nRule stability over %d models: %.1f rules per model, %d distinct rules, mean pairwise Jaccard similarity %s.\n", s.Models, s.MeanRules, s.Distinct, jac)
	writeRecurring(b, "Recurring rule", s.Recurring, s.Models)
	writeRecurring(b, "Recurring condition", s.RecurringAntecedents, s.Models)
}

// writeRecurring lists the first ten recurring rules or conditions (none:
// nothing).
func writeRecurring(b *bytes.Buffer, header string, rules []analysis.RuleCount, models int) {
	if len(rules) == 0 {
		return
	}
	fmt.Fprintf(b, "\n| %s | Models |\n|---|---:|\n", header)
	for i, r := range rules {
		if i == 10 {
			fmt.Fprintf(b, "| … %d more | |\n", len(rules)-10)
			break
		}
		fmt.Fprintf(b, "| %s | %d of %d |\n", mdEscape(r.Rule), r.Models, models)
	}
}

// writeRepresentative writes the representative fold's rules and the
// partitions they use.
func writeRepresentative(b *bytes.Buffer, s analysis.Stability) {
	r := s.Representative
	lines := r.Rules
	if r.Default != "" {
		lines = append(lines[:len(lines):len(lines)], r.Default)
	}
	fmt.Fprintf(b, "\nRepresentative fold (accuracy %s %%, the median): repeat %d fold %d, config `%s`%s:\n\n```\n%s\n```\n",
		pct(r.Accuracy), r.Repeat, r.Fold, strings.ReplaceAll(r.Config, "`", "'"), RuleUnitsNote(s), strings.Join(lines, "\n"))
	if r.RulesOmitted > 0 {
		fmt.Fprintf(b, "\nThe first %d of its %d rules; `fgrtbench rules --results` on this study's directory prints them all (`--dataset` as in results.csv, `--method %s --protocol %s --repeat %d --fold %d`).\n",
			len(r.Rules), len(r.Rules)+r.RulesOmitted, s.Method, s.Protocol, r.Repeat, r.Fold)
	}
	if len(r.Partitions) > 0 {
		fmt.Fprintf(b, "\nPartitions these rules use, in the data's units:\n\n```\n%s\n```\n", artifacts.FormatPartitions(r.Partitions))
	}
	b.WriteString("\n")
}
