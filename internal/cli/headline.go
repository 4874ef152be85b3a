package cli

import (
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/fgrtbench/fgrtbench/bench/runner"
	"github.com/fgrtbench/fgrtbench/results"
	"github.com/fgrtbench/fgrtbench/stats"
)

// Headline is what a finished run says on its last lines, so that a run
// does not end without a result: per protocol, each method's mean rank of
// test accuracy over the datasets (1 = best) and on how many datasets it is
// the best. It is computed from results.csv rows alone, with the ranking
// of package stats: no learner and no method registry is involved, so it
// reads any results directory, merged shards and external methods
// included.
type Headline struct {
	Protocols []ProtocolHeadline
}

// ProtocolHeadline is the headline of one protocol.
type ProtocolHeadline struct {
	Protocol string
	// Datasets are those every ranked method has a cell on; a method
	// missing one would otherwise rank on fewer datasets than the others.
	Datasets []string
	// Methods are the ranked methods, best mean rank first (ties by name).
	Methods []MethodHeadline
	// Dropped counts the datasets left out because some method lacks them.
	Dropped int
}

// MethodHeadline is one method's line.
type MethodHeadline struct {
	Method   string
	MeanRank float64
	// Best counts the datasets where the method has the best accuracy (a
	// tie counts for each tied method).
	Best int
}

// headlineOf computes the headline of result rows. A cell is the mean
// accuracy of a method's selected rows on one dataset (every fold and
// repeat); the per-variant rows of a grid ("@" labels) and the unselected
// points of a sweep are details the report shows, not headline methods.
func headlineOf(recs []results.Record) Headline {
	type key struct{ protocol, dataset, method string }
	sum, n := map[key]float64{}, map[key]int{}
	for _, r := range recs {
		if !r.Selected || strings.Contains(r.Method, "@") {
			continue
		}
		k := key{r.Protocol, r.Dataset, r.Method}
		sum[k] += r.Accuracy
		n[k]++
	}
	byProtocol := map[string]map[string]map[string]float64{} // protocol → dataset → method → mean
	for k, c := range n {
		ds := byProtocol[k.protocol]
		if ds == nil {
			ds = map[string]map[string]float64{}
			byProtocol[k.protocol] = ds
		}
		if ds[k.dataset] == nil {
			ds[k.dataset] = map[string]float64{}
		}
		ds[k.dataset][k.method] = sum[k] / float64(c)
	}
	var h Headline
	for _, p := range slices.Sorted(maps.Keys(byProtocol)) {
		ds := byProtocol[p]
		seen := map[string]bool{}
		for _, cells := range ds {
			for m := range cells {
				seen[m] = true
			}
		}
		methods := slices.Sorted(maps.Keys(seen))
		ph := ProtocolHeadline{Protocol: p}
		var matrix [][]float64
		for _, d := range slices.Sorted(maps.Keys(ds)) {
			if len(ds[d]) != len(methods) {
				ph.Dropped++
				continue
			}
			row := make([]float64, len(methods))
			for j, m := range methods {
				row[j] = ds[d][m]
			}
			ph.Datasets = append(ph.Datasets, d)
			matrix = append(matrix, row)
		}
		if len(methods) < 2 || len(matrix) == 0 {
			continue // nothing to rank
		}
		mean, err := stats.AverageRanks(matrix, true)
		if err != nil {
			continue
		}
		best := make([]int, len(methods))
		for _, row := range matrix {
			ranks := stats.Rank(row, true)
			top := slices.Min(ranks)
			for j, r := range ranks {
				if r == top {
					best[j]++
				}
			}
		}
		for j, m := range methods {
			ph.Methods = append(ph.Methods, MethodHeadline{Method: m, MeanRank: mean[j], Best: best[j]})
		}
		sort.SliceStable(ph.Methods, func(a, b int) bool { return ph.Methods[a].MeanRank < ph.Methods[b].MeanRank })
		h.Protocols = append(h.Protocols, ph)
	}
	return h
}

// Write prints the headline, then the report's path when there is one.
func (h Headline) Write(w io.Writer, reportPath string) {
	if len(h.Protocols) > 0 {
		fmt.Fprintln(w, "headline: mean rank of test accuracy over the datasets (1 = best) and on how many datasets each is best (a tie counts for each)")
	}
	for _, p := range h.Protocols {
		dropped := ""
		if p.Dropped > 0 {
			dropped = fmt.Sprintf("; %d left out, some method lacks them", p.Dropped)
		}
		plural := "s"
		if len(p.Datasets) == 1 {
			plural = ""
		}
		fmt.Fprintf(w, "  %s protocol, %d dataset%s%s:\n", p.Protocol, len(p.Datasets), plural, dropped)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "    method\tmean rank\tbest on")
		for _, m := range p.Methods {
			fmt.Fprintf(tw, "    %s\t%.2f\t%d\n", m.Method, m.MeanRank, m.Best)
		}
		tw.Flush()
	}
	if reportPath != "" {
		fmt.Fprintf(w, "report: %s\n", reportPath)
	}
}

// writeHeadline ends a run or a report: the headline of DIR's results,
// then the report's path. The report was just rendered from the same
// results.csv, so a read error here is unexpected; it costs the headline,
// not the run.
func writeHeadline(env *Env, dir, reportPath string) {
	recs, err := results.ReadFile(filepath.Join(dir, runner.ResultsFile))
	if err != nil {
		fmt.Fprintf(env.Stderr, "fgrtbench: no headline: %v\n", err)
	}
	headlineOf(recs).Write(env.Stdout, reportPath)
}
