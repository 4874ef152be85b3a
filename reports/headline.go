package reports

import (
	"bytes"
	"fmt"
	"math"
	"strings"

	"github.com/fgrtbench/fgrtbench/analysis"
)

// headline is the first screen of REPORT.md: what was studied, the
// accuracy and rulebase size of every method on every dataset with mean
// ranks, the significance verdict in one sentence and the front figure.
func headline(a *analysis.Analysis, opts Options, lg *legend) []byte {
	var b bytes.Buffer
	b.WriteString(studyLine(a))
	b.Write(reproductionSection(a))
	p := a.Headline
	if p == "" {
		return b.Bytes()
	}
	t, _ := a.TestsOf(p)
	fmt.Fprintf(&b, "## Headline (%s protocol)\n\n", mdEscape(p))
	b.WriteString("Accuracy (%) and, in parentheses, rulebase size (conditions) of each method's selected configuration, mean over folds; ")
	b.WriteString("methods ordered by mean rank of accuracy over the datasets every method has (1 = best).\n\n")
	b.Write(headlineTable(a, p, lg))
	b.WriteString(verdict(t, a) + "\n\n")
	b.WriteString(chanceLine(a, lg))
	for _, f := range opts.Figures {
		if strings.Contains(f.Path, "front_"+p+".") {
			fmt.Fprintf(&b, "![Accuracy against rulebase size, %s protocol](%s)\n\n", p, figureLink(opts.Dir, f.Path))
			break
		}
	}
	if a.HasPaperDatasets() {
		b.WriteString("Details follow: protocols, run facts, the comparison with the paper where it applies, every table, the sweeps, the figures and a legend of the marks.\n\n")
	} else {
		b.WriteString("Details follow: protocols, run facts, every table, the sweeps, the figures and a legend of the marks.\n\n")
	}
	return b.Bytes()
}

// studyLine names the study, its datasets, methods, protocols and
// command.
func studyLine(a *analysis.Analysis) string {
	study := a.Study.Name
	if study == "" {
		study = "(unnamed)"
	}
	s := fmt.Sprintf("Study **%s**: %s, %s, protocols %s", mdEscape(study), plural(len(a.Study.Datasets), "dataset"), plural(len(a.ComparedMethods()), "method"), strings.Join(a.Protocols, ", "))
	if a.Study.Command != "" {
		s += fmt.Sprintf("; command `%s`", strings.ReplaceAll(a.Study.Command, "`", "'"))
	}
	return s + ".\n\n"
}

// headlineTable has a row per method of protocol p's ranking, its mean
// rank and its cell on each dataset.
func headlineTable(a *analysis.Analysis, p string, lg *legend) []byte {
	var b bytes.Buffer
	cells := analysis.FilterProtocol(a.Cells, p)
	datasets := analysis.DatasetsOf(cells)
	ranking, _ := a.RankingOf(p)
	ix := newCellIndex(cells)
	b.WriteString("| Method | Mean rank |")
	for _, d := range datasets {
		b.WriteString(" " + mdEscape(d) + " |")
	}
	b.WriteString("\n|---|---:|" + strings.Repeat("---:|", len(datasets)) + "\n")
	for _, rm := range ranking.Methods {
		lg.variant(rm.Label)
		rank := "—"
		if !math.IsNaN(rm.MeanRank) {
			rank = fixed(rm.MeanRank, 2)
		}
		fmt.Fprintf(&b, "| %s | %s |", mdEscape(rm.Display), rank)
		for _, d := range datasets {
			b.WriteString(" " + headlineCell(a, ix, p, d, rm.Label, lg) + " |")
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	return b.Bytes()
}

// headlineCell is one method's accuracy and rulebase size on a dataset,
// marked when selected on the test folds (†) or at chance (§).
func headlineCell(a *analysis.Analysis, ix cellIndex, p, d, m string, lg *legend) string {
	c, ok := ix.get(p, d, m)
	if !ok {
		return "—"
	}
	text := pct(c.Accuracy) + " (" + fixed(c.RulebaseSize, 0) + ")"
	if c.TestSelected() {
		text += " †"
		lg.use("†")
	}
	if _, chance := a.ChanceOf(p, d, m); chance {
		text += " §"
		lg.use("§")
	}
	return mdEscape(text)
}

// chanceLine lists the cells at chance ("" when none is).
func chanceLine(a *analysis.Analysis, lg *legend) string {
	if len(a.Chance) == 0 {
		return ""
	}
	pres := a.Presentation()
	var names []string
	for _, c := range a.Chance {
		names = append(names, fmt.Sprintf("%s %s (%s)", pres.DisplayName(c.Method), c.Dataset, c.Protocol))
	}
	lg.use("§")
	return fmt.Sprintf("At chance (§, balanced accuracy not above the majority-class baseline's): %s.\n\n", mdEscape(strings.Join(names, "; ")))
}

// plural writes a count with its noun: "1 dataset", "3 datasets".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
