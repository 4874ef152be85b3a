package reports

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/fgrtbench/fgrtbench/analysis"
)

// mainProtocol is the protocol the headline shows: clean (every test fold
// used once) when the study ran it, else the first.
func mainProtocol(a *analysis.Analysis) string {
	for _, p := range a.Protocols {
		if p == "clean" {
			return p
		}
	}
	if len(a.Protocols) > 0 {
		return a.Protocols[0]
	}
	return ""
}

// headline is the first screen of REPORT.md: what was studied, the
// accuracy and rulebase size of every method on every dataset with mean
// ranks, the significance verdict in one sentence and the front figure.
func headline(a *analysis.Analysis, opts Options, lg *legend) []byte {
	var b bytes.Buffer
	pres := a.Presentation()
	p := mainProtocol(a)
	cells := filterProtocol(a.Cells, p)
	datasets, methods := datasetsOf(cells), methodsOf(cells, pres)
	study := a.Study.Name
	if study == "" {
		study = "(unnamed)"
	}
	fmt.Fprintf(&b, "Study **%s**: %d datasets, %d methods, protocols %s", mdEscape(study), len(a.Study.Datasets), len(a.Methods), strings.Join(a.Protocols, ", "))
	if a.Study.Command != "" {
		fmt.Fprintf(&b, "; command `%s`", strings.ReplaceAll(a.Study.Command, "`", "'"))
	}
	b.WriteString(".\n\n")
	if p == "" {
		return b.Bytes()
	}
	t, _ := a.TestsOf(p)
	fmt.Fprintf(&b, "## Headline (%s protocol)\n\n", mdEscape(p))
	b.WriteString("Accuracy (%) and, in parentheses, rulebase size (conditions) of each method's selected configuration, mean over folds; ")
	b.WriteString("methods ordered by mean rank of accuracy over the datasets every method has (1 = best).\n\n")
	order := append([]string(nil), methods...)
	sort.SliceStable(order, func(i, j int) bool {
		ri, rj := t.MeanRank(order[i]), t.MeanRank(order[j])
		if math.IsNaN(ri) != math.IsNaN(rj) {
			return !math.IsNaN(ri)
		}
		return ri < rj
	})
	ix := newCellIndex(cells)
	b.WriteString("| Method | Mean rank |")
	for _, d := range datasets {
		b.WriteString(" " + mdEscape(d) + " |")
	}
	b.WriteString("\n|---|---:|" + strings.Repeat("---:|", len(datasets)) + "\n")
	for _, m := range order {
		lg.variant(m)
		r := t.MeanRank(m)
		rank := "—"
		if !math.IsNaN(r) {
			rank = fixed(r, 2)
		}
		fmt.Fprintf(&b, "| %s | %s |", mdEscape(pres.DisplayName(m)), rank)
		for _, d := range datasets {
			c, ok := ix.get(p, d, m)
			if !ok {
				b.WriteString(" — |")
				continue
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
			b.WriteString(" " + mdEscape(text) + " |")
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	b.WriteString(verdict(t, a) + "\n\n")
	if n := len(a.Chance); n > 0 {
		var names []string
		for _, c := range a.Chance {
			names = append(names, fmt.Sprintf("%s %s (%s)", pres.DisplayName(c.Method), c.Dataset, c.Protocol))
		}
		lg.use("§")
		fmt.Fprintf(&b, "At chance (§, balanced accuracy not above the majority-class baseline's): %s.\n\n", mdEscape(strings.Join(names, "; ")))
	}
	for _, f := range opts.Figures {
		if strings.Contains(f.Path, "front_"+p+".") {
			fmt.Fprintf(&b, "![Accuracy against rulebase size, %s protocol](%s)\n\n", p, figureLink(opts.Dir, f.Path))
			break
		}
	}
	b.WriteString("Details follow: protocols, run facts, the comparison with the paper where it applies, every table, the sweeps, the figures and a legend of the marks.\n\n")
	return b.Bytes()
}
