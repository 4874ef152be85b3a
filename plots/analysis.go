package plots

import (
	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/results"
)

// The figures of a report draw values of its analysis: the functions below
// hand each figure exactly the numbers the tables show, so that a figure
// and a table cannot disagree.

// CDDataOf is the critical-difference diagram of one protocol: the methods
// the ranks table ranks, their mean ranks, the Nemenyi CD at α = 0.05 and
// the omnibus verdict (the test that decided, its p-value, whether the
// Nemenyi comparisons are exploratory), as computed by the analysis.
// ErrNoData when the protocol has no statistics.
func CDDataOf(a *analysis.Analysis, protocol string) (CDData, error) {
	t, ok := a.TestsOf(protocol)
	if !ok || t.NA != "" || len(t.Methods) < 2 {
		return CDData{}, ErrNoData
	}
	var names map[string]string
	for _, g := range t.Merged {
		if names == nil {
			names = map[string]string{}
		}
		names[g[0]] = t.EntryName(g[0], a.Presentation())
	}
	var baselines []string
	for _, m := range t.Baselines {
		baselines = append(baselines, a.Presentation().DisplayName(m))
	}
	var refs []CDReference
	for _, r := range t.BaselineRanks {
		refs = append(refs, CDReference{Name: a.Presentation().DisplayName(r.Method), Rank: r.MeanRank})
	}
	return CDData{Methods: append([]string(nil), t.Methods...), Names: names, Baselines: baselines, References: refs, AvgRanks: append([]float64(nil), t.Friedman.AvgRanks...),
		CD: t.CD05, Cliques: t.Cliques, Alpha: 0.05, NDatasets: len(t.Datasets), FriedmanP: t.Decision.P,
		Test: t.Decision.Name, Verdict: verdictOf(t.Decision), Exploratory: t.PostHoc == analysis.PostHocExploratory}, nil
}

func verdictOf(d analysis.Decision) string {
	if d.Significant {
		return "significant"
	}
	return "not significant"
}

// FrontPanelsOf converts the analysis's front of one protocol to the
// figure's panels (nil when there is none).
func FrontPanelsOf(a *analysis.Analysis, protocol string) []analysis.FrontPanel {
	f, ok := a.FrontOf(protocol)
	if !ok {
		return nil
	}
	return append([]analysis.FrontPanel(nil), f.Panels...)
}

// PartitionImpactRowsOf returns the analysis's fgrt/fgrt-opt pairs of one
// protocol (datasets with both, in the analysis's order) as the figure's
// rows.
func PartitionImpactRowsOf(a *analysis.Analysis, protocol string) []PartitionImpactRow {
	e, _ := a.PartitionEffectOf(protocol)
	var out []PartitionImpactRow
	for _, p := range e.Pairs {
		out = append(out, PartitionImpactRow{Dataset: p.Dataset, Default: p.Default, Optimised: p.Optimised, Diff: p.Diff})
	}
	return out
}

// ablationFigureOf draws the analysis's ablation of one kind ("pooled": the
// 16-configuration grid of the paper protocol; "ofat": one factor at a time)
// and protocol.
func ablationFigureOf(dir, name string, a *analysis.Analysis, kind, protocol string, pres results.Presentation) error {
	if a == nil {
		return ErrNoData
	}
	ab, ok := a.AblationOf(kind, protocol)
	if !ok {
		return ErrNoData
	}
	title := "Pooled grouping of the 16-configuration grid (paper protocol; mean +- std over pooled rows)"
	if kind == "ofat" {
		title = "One factor at a time (" + protocol + " protocol; mean +- std over folds of the data-set mean)"
	}
	return AblationFigure(dir, name, title, ab.Groups, pres)
}
