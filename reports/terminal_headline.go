package reports

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"text/tabwriter"

	"github.com/fgrtbench/fgrtbench/analysis"
)

// WriteHeadline writes what ends a run or a report on the terminal, so
// that a run does not end without a result: for the paper study the
// reproduction verdict first (verdict.go), then the analysis's ranking of its
// headline protocol, the one REPORT.md's headline table prints, then the
// other protocols', each protocol's plain-language account of its
// statistics, and the report's path ("" = none). It renders the
// analysis the report was rendered from and computes nothing: the terminal
// and REPORT.md show the same methods, under the same names, with the same
// ranks, in the same order.
func WriteHeadline(w io.Writer, a *analysis.Analysis, reportPath string) {
	writeReproduction(w, a)
	if a != nil && len(a.Rankings) > 0 {
		fmt.Fprintln(w, "headline: mean rank of test accuracy over the datasets (1 = best) and on how many datasets each is best (a tie counts for each), as in REPORT.md")
		if r, ok := a.RankingOf(a.Headline); ok {
			writeRanking(w, r)
		}
		for _, r := range a.Rankings {
			if r.Protocol != a.Headline {
				writeRanking(w, r)
			}
		}
		writeStatsSummary(w, a)
	}
	if reportPath != "" {
		fmt.Fprintf(w, "report: %s\n", reportPath)
	}
}

// writeRanking prints one protocol's ranking as a terminal table.
func writeRanking(w io.Writer, r analysis.Ranking) {
	left := ""
	if n := len(r.Excluded); n > 0 {
		left = fmt.Sprintf("; %d left out, some method lacks them", n)
	}
	ds := fmt.Sprintf("%d datasets", len(r.Datasets))
	if len(r.Datasets) == 1 {
		ds = "1 dataset"
	}
	fmt.Fprintf(w, "  %s protocol, %s%s:\n", r.Protocol, ds, left)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "    method\tlabel\tmean rank\tbest on")
	for _, m := range r.Methods {
		rank, best := "—", "—"
		if !math.IsNaN(m.MeanRank) {
			rank, best = strconv.FormatFloat(m.MeanRank, 'f', 2, 64), strconv.Itoa(m.BestOn)
		}
		fmt.Fprintf(tw, "    %s\t%s\t%s\t%s\n", m.Display, m.Label, rank, best)
	}
	tw.Flush()
}
