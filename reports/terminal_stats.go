package reports

import (
	"fmt"
	"io"
	"strings"

	"github.com/fgrtbench/fgrtbench/analysis"
)

// writeStatsSummary prints each protocol's plain-language account of its
// statistics (analysis.Tests.Summary, the sentences REPORT.md and
// index.html print), headline protocol first, wrapped for a terminal.
func writeStatsSummary(w io.Writer, a *analysis.Analysis) {
	order := []string{a.Headline}
	for _, p := range a.Protocols {
		if p != a.Headline {
			order = append(order, p)
		}
	}
	for _, p := range order {
		t, ok := a.TestsOf(p)
		if !ok || len(t.Summary) == 0 {
			continue
		}
		fmt.Fprintf(w, "statistics, %s protocol:\n", p)
		for _, s := range t.Summary {
			for _, line := range wrapWords(s, 100) {
				fmt.Fprintln(w, "    "+line)
			}
		}
	}
}

// wrapWords breaks s into lines of at most width runes at spaces (a
// longer word keeps a line of its own).
func wrapWords(s string, width int) []string {
	var lines []string
	var cur []string
	n := 0
	for _, word := range strings.Fields(s) {
		l := len([]rune(word))
		if n > 0 && n+1+l > width {
			lines = append(lines, strings.Join(cur, " "))
			cur, n = nil, 0
		}
		if n > 0 {
			n++
		}
		cur = append(cur, word)
		n += l
	}
	if len(cur) > 0 {
		lines = append(lines, strings.Join(cur, " "))
	}
	return lines
}
