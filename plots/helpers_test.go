package plots

import (
	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/results"
)

// Helpers that only the tests use: no part of the package's API.

// AblationPooled draws the paper's pooled ablation of the 16-configuration
// grid (methods "fgrt" and, when present, "fgrt-fixed", protocol "paper").
func AblationPooled(dir, name string, recs []results.Record, pres results.Presentation) error {
	return ablationFigureFor(dir, name, "Pooled grouping of the 16-configuration grid (paper protocol; mean +- std over pooled rows)",
		recs, "paper", []string{"fgrt", "fgrt-fixed"}, analysis.PooledAblation, pres)
}

// AblationOFAT draws the one-factor-at-a-time sweep ("fgrt@ofat" and, when
// present, "fgrt-fixed@ofat", selection "sweep") of the given protocol.
func AblationOFAT(dir, name string, recs []results.Record, protocol string, pres results.Presentation) error {
	return ablationFigureFor(dir, name, "One factor at a time ("+protocol+" protocol; mean +- std over folds of the data-set mean)",
		recs, protocol, []string{"fgrt@ofat", "fgrt-fixed@ofat"}, analysis.OFATAblation, pres)
}

// ablationFigureFor draws the groups of every present variant.
func ablationFigureFor(dir, name, title string, recs []results.Record, protocol string, variants []string,
	group func([]results.Record, string, string) ([]analysis.AblationGroup, error), pres results.Presentation) error {
	var all []analysis.AblationGroup
	for _, m := range variants {
		g, err := group(recs, m, protocol)
		if err != nil {
			return err
		}
		all = append(all, g...)
	}
	return AblationFigure(dir, name, title, all, pres)
}
