package reports

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/fgrtbench/fgrtbench/analysis"
)

// majorityRateMethods are the registry methods whose cells at the
// majority-class rate REPORT.md spells out per dataset: the paper's FGRT
// (which predicts the majority class on pima and saheart) and Ex-Fuzzy's
// FuzzyCART, the maintained fuzzy tree a user would compare it with.
var majorityRateMethods = []string{"fgrt", "fuzzycart"}

// majorityRateSection says, per dataset, which labels of FGRT or
// FuzzyCART sit at the majority-class rate (the analysis's Chance flags:
// balanced accuracy not above the majority baseline's) under which
// protocol. It is empty when the study has neither method. It reads the
// flags only; nothing is recomputed here.
func majorityRateSection(a *analysis.Analysis, lg *legend) []byte {
	watched, present := watchedMethods(a)
	if len(present) == 0 {
		return nil
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "## %s at the majority-class rate\n\n", mdEscape(strings.Join(present, " and ")))
	datasets := analysis.DatasetsOf(a.Cells)
	lines, clear := chanceLines(a, watched, datasets)
	if len(lines) == 0 {
		fmt.Fprintf(&b, "On none of the %s does %s sit at the majority-class rate (balanced accuracy not above the majority-class baseline's).\n\n", plural(len(datasets), "dataset"), mdEscape(strings.Join(present, " or ")))
		return b.Bytes()
	}
	lg.use("§")
	b.WriteString("Where a tree's balanced accuracy is not above the majority-class baseline's (§), it predicts no better than always answering the most frequent class:\n\n")
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	b.WriteString("\n")
	if len(clear) > 0 {
		fmt.Fprintf(&b, "Above the majority-class rate on every protocol: %s.\n\n", mdEscape(strings.Join(clear, ", ")))
	}
	return b.Bytes()
}

// watchedMethods are the methods of majorityRateMethods the study ran, by
// base name and by display name.
func watchedMethods(a *analysis.Analysis) (watched map[string]bool, present []string) {
	watched = map[string]bool{}
	for _, base := range majorityRateMethods {
		for _, m := range a.Methods {
			if m.Base == base {
				watched[base] = true
				present = append(present, a.Display(base))
				break
			}
		}
	}
	return watched, present
}

// chanceLines lists, per dataset, the watched methods' cells at chance;
// clear are the datasets without any.
func chanceLines(a *analysis.Analysis, watched map[string]bool, datasets []string) (lines, clear []string) {
	byDataset := map[string][]analysis.Chance{}
	base := a.MethodBase()
	for _, c := range a.Chance {
		if watched[analysis.BaseMethod(c.Method, base)] {
			byDataset[c.Dataset] = append(byDataset[c.Dataset], c)
		}
	}
	for _, d := range datasets {
		flags := byDataset[d]
		if len(flags) == 0 {
			clear = append(clear, d)
			continue
		}
		parts := make([]string, len(flags))
		for i, c := range flags {
			parts[i] = fmt.Sprintf("%s under %s (balanced accuracy %s, baseline %s from %s)",
				a.Display(c.Method), c.Protocol, pct(c.BalancedAccuracy), pct(c.Baseline), c.Source)
		}
		lines = append(lines, fmt.Sprintf("- **%s**: %s.", mdEscape(d), mdEscape(strings.Join(parts, "; "))))
	}
	return lines, clear
}
