package plots

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/results"
)

// File names RenderAll reads in the results directory (defined by the
// results contract).
const (
	ResultsFile = results.FileName
	RuntimeFile = results.RuntimeFile
)

// NothingToDraw says what the figures of RenderAll need, for a caller that
// got none.
const NothingToDraw = "the figures need per-fold rows in " + ResultsFile + " (FGRT's 16-configuration grid, sweep points, fgrt and fgrt-opt, " +
	"or methods with rulebase sizes) or timings in " + RuntimeFile

// RenderOptions carry the study's analysis and, for a directory with
// runtime.csv only, the presentation of its method labels.
type RenderOptions struct {
	// Analysis is the study's analysis (nil for a directory without
	// results.csv): every figure of the results draws its values, with its
	// presentation and label → method map.
	Analysis *analysis.Analysis
	// Methods names and orders the method labels of runtime.csv when there
	// is no analysis (the manifest's method entries,
	// results.PresentationOf); the zero value shows labels as they are,
	// alphabetically.
	Methods results.Presentation
}

// RenderAll renders every figure the study supports into outDir (usually
// <resultsDir>/report/figures): from the study's analysis (opts.Analysis,
// computed once from resultsDir's results.csv by the caller: the one every
// table of the report renders) the pooled and one-factor ablations, the
// sweeps, the fronts, the partition-optimisation impact and the
// critical-difference diagram of each protocol present; from runtime.csv,
// when it exists, the runtime scaling figures. Figures without data are
// skipped. It returns the PNG files with captions, their paths relative to
// outDir's parent (e.g. "figures/ablation_pooled.png").
//
// A directory with a results.csv and no analysis is refused: the figures
// never compute an analysis of their own, so they cannot disagree with the
// tables.
func RenderAll(resultsDir, outDir string, opts RenderOptions) ([]Figure, error) {
	a := opts.Analysis
	if a == nil && fileExists(filepath.Join(resultsDir, ResultsFile)) {
		return nil, fmt.Errorf("plots: %s holds %s but no analysis of it was given (the figures draw the report's analysis)", resultsDir, ResultsFile)
	}
	var rt []results.RuntimeRow
	haveRuntime := false
	if path := filepath.Join(resultsDir, RuntimeFile); fileExists(path) {
		r, err := results.ReadRuntimeFile(path)
		if err != nil {
			return nil, err
		}
		rt, haveRuntime = r, true
	}
	if a == nil && !haveRuntime {
		return nil, fmt.Errorf("plots: %s has neither %s nor %s", resultsDir, ResultsFile, RuntimeFile)
	}
	if a != nil {
		opts.Methods = a.Presentation()
	}
	// Every label of the study gets its slot in the method order, so that
	// a method is drawn alike in every figure (see methodStyles).
	opts.Methods = completePresentation(opts.Methods, studyLabels(a, rt))
	rel := filepath.Base(outDir)
	var figs []Figure
	// add runs one figure, recording it unless it had no data.
	add := func(name, caption string, render func() error) error {
		err := render()
		if errors.Is(err, ErrNoData) {
			return nil
		}
		if err != nil {
			return err
		}
		figs = append(figs, Figure{Path: filepath.ToSlash(filepath.Join(rel, name+".png")), Caption: caption})
		return nil
	}
	protocols := studyProtocols(a)
	steps := []struct {
		name, caption string
		render        func() error
	}{
		{"ablation_pooled",
			"Hyper-parameter ablation as the paper draws it: every row of the 16-configuration grid (paper protocol) grouped by one " +
				"parameter value, pooling all configurations that share it (groups differ in size and the other parameters vary); " +
				"mean +- std (ddof 1) of test accuracy (top) and rule count (bottom). " + opts.Methods.DisplayName("fgrt") + " keeps the reference quirks, " +
				opts.Methods.DisplayName("fgrt-fixed") + " fixes them: the accuracy drop at max_rules = 30 comes from the stale root prediction (quirk Q2).",
			func() error { return ablationFigureOf(outDir, "ablation_pooled", a, "pooled", "paper", opts.Methods) }},
	}
	for _, s := range steps {
		if err := add(s.name, s.caption, s.render); err != nil {
			return figs, err
		}
	}
	for _, p := range protocols {
		p := p
		if err := add("ablation_ofat_"+p,
			"One-factor-at-a-time sweep ("+p+" protocol): each parameter varies with the other two at their baseline "+
				"(max_rules 15, coverage 0.01, min_improvement 0.01 in the registry's ofat grid); mean over data sets and folds, "+
				"error bars = std over folds of the data-set mean. Reference quirks ("+opts.Methods.DisplayName("fgrt@ofat")+") against fixed ("+opts.Methods.DisplayName("fgrt-fixed@ofat")+") where run.",
			func() error { return ablationFigureOf(outDir, "ablation_ofat_"+p, a, "ofat", p, opts.Methods) }); err != nil {
			return figs, err
		}
	}
	var sweeps []analysis.Sweep
	if a != nil {
		sweeps = a.Sweeps
	}
	for _, sw := range sweeps {
		sw := sw
		name := SweepFigureName(sw)
		if err := add(name, SweepCaption(sw, opts.Methods), func() error { return SweepFigure(outDir, name, sw, opts.Methods) }); err != nil {
			return figs, err
		}
	}
	for _, p := range protocols {
		p := p
		if err := add("front_"+p, FrontCaption(p), func() error {
			if a == nil {
				return ErrNoData
			}
			return FrontFigure(outDir, "front_"+p, "Accuracy against rulebase size ("+p+" protocol)", FrontPanelsOf(a, p), opts.Methods)
		}); err != nil {
			return figs, err
		}
	}
	for _, p := range protocols {
		p := p
		if err := add("partition_impact_"+p,
			"Partition optimisation ("+p+" protocol): mean test accuracy of the selected configuration over folds with the default "+
				"quantile partitions (fgrt) and the optimised ones (fgrt-opt) per data set (top), and the difference (bottom).",
			func() error {
				if a == nil {
					return ErrNoData
				}
				e, _ := a.PartitionEffectOf(p)
				return PartitionImpactFigure(outDir, "partition_impact_"+p, "Partition optimisation: FGRT vs FGRT* ("+p+" protocol)", PartitionImpactRowsOf(a, p), e.MeanDiff)
			}); err != nil {
			return figs, err
		}
	}
	for _, p := range protocols {
		p := p
		var cd CDData
		caption := func() string { return CDCaption(p, cd) }
		name := "cd_" + p
		var err error
		render := func() error {
			if a == nil {
				return ErrNoData
			}
			if cd, err = CDDataOf(a, p); err != nil {
				return err
			}
			return CDFigure(outDir, name, cd, opts.Methods)
		}
		if err := render(); errors.Is(err, ErrNoData) {
			continue
		} else if err != nil {
			return figs, err
		}
		figs = append(figs, Figure{Path: filepath.ToSlash(filepath.Join(rel, name+".png")), Caption: caption()})
	}
	if err := add("runtime_scaling",
		"Training time against the number of samples (a) and of features (b) on the authors' synthetic noise data, log-log; "+
			"lines are means and bands min-max over trials; the legend gives each method's fitted scaling exponent "+
			"(least-squares slope of log time on log size over all trials). The labels are independent of the features (pure noise), "+
			"so rule learners can stop early; FGA is capped in size (see timing.Options.MaxSamples).",
		func() error { return RuntimeScaling(outDir, "runtime_scaling", rt, opts.Methods) }); err != nil {
		return figs, err
	}
	if err := add("runtime_real",
		"Training time against subsample size on real data sets (one panel per data set; random subsamples of the complete "+
			"rows, 80% used for training, plus the whole data set), log-log, mean line and min-max band over trials; scaling exponents "+
			"fitted where a method has three sizes or more (two sizes give a line whatever the scaling), each panel's legend under it.",
		func() error { return RuntimeReal(outDir, "runtime_real", rt, opts.Methods) }); err != nil {
		return figs, err
	}
	return figs, nil
}

func fileExists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir()
}

// studyProtocols lists the protocols of the analysis, those with sweep
// points only included, "paper" first.
func studyProtocols(a *analysis.Analysis) []string {
	if a == nil {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, p := range a.Protocols {
		add(p)
	}
	for _, p := range a.Points {
		add(p.Protocol)
	}
	sort.Slice(out, func(i, j int) bool {
		if (out[i] == "paper") != (out[j] == "paper") {
			return out[i] == "paper"
		}
		return out[i] < out[j]
	})
	return out
}
