package plots

import (
	"errors"
	"path/filepath"
	"sort"
	"sync/atomic"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/internal/par"
	"github.com/fgrtbench/fgrtbench/results"
	"github.com/fgrtbench/fgrtbench/results/runtimecsv"
)

// NothingToDraw says what the figures of RenderAll need, for a caller that
// got none.
const NothingToDraw = "the figures need per-fold rows in " + results.FileName + " (FGRT's 16-configuration grid, sweep points, fgrt and fgrt-opt, " +
	"or methods with rulebase sizes) or timings in " + runtimecsv.FileName

// Inputs are what the figures draw, loaded by the caller: RenderAll reads
// no file, so the figures show exactly the state of the results that the
// report's tables show.
type Inputs struct {
	// Analysis is the study's analysis (nil for a directory without
	// results.csv): every figure of the results draws its values, with its
	// presentation and label → method map.
	Analysis *analysis.Analysis
	// Runtime holds the rows of runtime.csv (nil when there is none).
	Runtime []runtimecsv.Row
	// Methods names and orders the method labels of runtime.csv when there
	// is no analysis (the manifest's method entries,
	// results.PresentationOf); the zero value shows labels as they are,
	// alphabetically. With an analysis, its presentation is used.
	Methods results.Presentation
	// Threads is how many figures RenderAll draws at once (0 or 1: one at
	// a time; the report passes its -j). The figures do not depend on it.
	Threads int
}

// source is the input a kind of figure draws from.
type source int

const (
	fromAnalysis source = iota
	fromRuntime
)

// scope says how many figures of a kind a study has.
type scope int

const (
	onePerStudy    scope = iota // one figure, named by the stem
	onePerProtocol              // one per protocol of the analysis, <stem>_<protocol>
	onePerSweep                 // one per sweep of the analysis, SweepFigureName
)

// instance is one figure of a kind: its protocol, or its sweep.
type instance struct {
	protocol string
	sweep    analysis.Sweep
}

// figureEntry is one kind of figure: its file stem, the input it needs,
// how many a study has, the function that draws it (ErrNoData when the
// input holds nothing for it) and its caption, which says what the figure
// shows (axes, marks, what is compared), never what a reader should
// conclude from it.
type figureEntry struct {
	stem    string
	needs   source
	scope   scope
	draw    func(dir, name string, in Inputs, at instance) error
	caption func(in Inputs, at instance) string
}

// figures lists every figure of a report, in the report's order.
var figures = []figureEntry{
	{"ablation_pooled", fromAnalysis, onePerStudy, drawPooledAblation, pooledAblationCaption},
	{"ablation_ofat", fromAnalysis, onePerProtocol, drawOFATAblation, ofatAblationCaption},
	{"sweep", fromAnalysis, onePerSweep, drawSweep, sweepCaption},
	{"front", fromAnalysis, onePerProtocol, drawFront, func(_ Inputs, at instance) string { return FrontCaption(at.protocol) }},
	{"partition_impact", fromAnalysis, onePerProtocol, drawPartitionImpact, partitionImpactCaption},
	{"cd", fromAnalysis, onePerProtocol, drawCD, cdCaption},
	{"runtime_scaling", fromRuntime, onePerStudy, func(dir, name string, in Inputs, _ instance) error {
		return RuntimeScaling(dir, name, in.Runtime, in.Methods)
	}, runtimeScalingCaption},
	{"runtime_real", fromRuntime, onePerStudy, func(dir, name string, in Inputs, _ instance) error {
		return RuntimeReal(dir, name, in.Runtime, in.Methods)
	}, runtimeRealCaption},
}

// RenderAll renders every figure the inputs support into outDir (usually
// <resultsDir>/report/figures): from the study's analysis (computed once by
// the caller from results.csv: the one every table of the report renders)
// the pooled and one-factor ablations, the sweeps, the fronts, the
// partition-optimisation impact and the critical-difference diagram of each
// protocol present; from runtime.csv's rows the runtime scaling figures.
// Figures without data are skipped. It returns the PNG files with captions,
// their paths relative to outDir's parent (e.g. "figures/ablation_pooled.png").
func RenderAll(outDir string, in Inputs) ([]Figure, error) {
	if in.Analysis != nil {
		in.Methods = in.Analysis.Presentation()
	}
	// Every label of the study gets its slot in the method order, so that
	// a method is drawn alike in every figure (see methodStyles).
	in.Methods = completePresentation(in.Methods, studyLabels(in.Analysis, in.Runtime))
	type job struct {
		entry figureEntry
		at    instance
		name  string
	}
	var jobs []job
	for _, f := range figures {
		for _, at := range f.instances(in) {
			jobs = append(jobs, job{f, at, f.nameOf(at)})
		}
	}
	// Each figure draws into its own canvases and files, so they are drawn
	// in parallel; the list is assembled in the report's order afterwards,
	// so it (and every file) is the same for any Threads. Once a figure
	// fails, the figures after it that have not started are not drawn:
	// the list ends before the first failure, as one at a time it did.
	errs := make([]error, len(jobs))
	var failedAt atomic.Int64
	failedAt.Store(int64(len(jobs)))
	budget := par.NewBudget(in.Threads)
	budget.Do(func() {
		budget.For(len(jobs), func(i int) {
			if int64(i) > failedAt.Load() {
				return
			}
			j := jobs[i]
			err := j.entry.draw(outDir, j.name, in, j.at)
			if err != nil && !errors.Is(err, ErrNoData) {
				for {
					at := failedAt.Load()
					if int64(i) >= at || failedAt.CompareAndSwap(at, int64(i)) {
						break
					}
				}
			}
			errs[i] = err
		})
	})
	rel := filepath.Base(outDir)
	var figs []Figure
	for i, j := range jobs {
		if errors.Is(errs[i], ErrNoData) {
			continue
		}
		if errs[i] != nil {
			return figs, errs[i]
		}
		figs = append(figs, Figure{Path: filepath.ToSlash(filepath.Join(rel, j.name+".png")), Caption: j.entry.caption(in, j.at)})
	}
	return figs, nil
}

// instances lists the figures of this kind that the inputs call for.
func (f figureEntry) instances(in Inputs) []instance {
	if (f.needs == fromAnalysis && in.Analysis == nil) || (f.needs == fromRuntime && in.Runtime == nil) {
		return nil
	}
	var out []instance
	switch f.scope {
	case onePerProtocol:
		for _, p := range studyProtocols(in.Analysis) {
			out = append(out, instance{protocol: p})
		}
	case onePerSweep:
		for _, sw := range in.Analysis.Sweeps {
			out = append(out, instance{sweep: sw})
		}
	default:
		out = append(out, instance{})
	}
	return out
}

// nameOf is the file stem of one figure of this kind.
func (f figureEntry) nameOf(at instance) string {
	switch f.scope {
	case onePerProtocol:
		return f.stem + "_" + at.protocol
	case onePerSweep:
		return SweepFigureName(at.sweep)
	}
	return f.stem
}

func drawPooledAblation(dir, name string, in Inputs, _ instance) error {
	return ablationFigureOf(dir, name, in.Analysis, "pooled", "paper", in.Methods)
}

func drawOFATAblation(dir, name string, in Inputs, at instance) error {
	return ablationFigureOf(dir, name, in.Analysis, "ofat", at.protocol, in.Methods)
}

func drawSweep(dir, name string, in Inputs, at instance) error {
	return SweepFigure(dir, name, at.sweep, in.Methods)
}

func drawFront(dir, name string, in Inputs, at instance) error {
	return FrontFigure(dir, name, "Accuracy against rulebase size ("+at.protocol+" protocol)", FrontPanelsOf(in.Analysis, at.protocol), in.Methods)
}

func drawPartitionImpact(dir, name string, in Inputs, at instance) error {
	e, _ := in.Analysis.PartitionEffectOf(at.protocol)
	return PartitionImpactFigure(dir, name, "Partition optimisation: FGRT vs FGRT* ("+at.protocol+" protocol)",
		PartitionImpactRowsOf(in.Analysis, at.protocol), e.MeanDiff)
}

func drawCD(dir, name string, in Inputs, at instance) error {
	cd, err := CDDataOf(in.Analysis, at.protocol)
	if err != nil {
		return err
	}
	return CDFigure(dir, name, cd, in.Methods)
}

func pooledAblationCaption(in Inputs, _ instance) string {
	return "Hyper-parameter ablation as the paper draws it: every row of the 16-configuration grid (paper protocol) grouped by one " +
		"parameter value, pooling all configurations that share it (groups differ in size and the other parameters vary); " +
		"mean +- std (ddof 1) of test accuracy (top) and rule count (bottom), one line per method: " + in.Methods.DisplayName("fgrt") +
		" (the reference implementation's quirks kept) and " + in.Methods.DisplayName("fgrt-fixed") + " (quirks fixed) where run."
}

func ofatAblationCaption(in Inputs, at instance) string {
	return "One-factor-at-a-time sweep (" + at.protocol + " protocol): each parameter varies with the other two at their baseline " +
		"(max_rules 15, coverage 0.01, min_improvement 0.01 in the registry's ofat grid); mean over data sets and folds, " +
		"error bars = std over folds of the data-set mean. Reference quirks (" + in.Methods.DisplayName("fgrt@ofat") + ") against fixed (" +
		in.Methods.DisplayName("fgrt-fixed@ofat") + ") where run."
}

func sweepCaption(in Inputs, at instance) string { return SweepCaption(at.sweep, in.Methods) }

func partitionImpactCaption(_ Inputs, at instance) string {
	return "Partition optimisation (" + at.protocol + " protocol): mean test accuracy of the selected configuration over folds with the default " +
		"quantile partitions (fgrt) and the optimised ones (fgrt-opt) per data set (top), and the difference (bottom)."
}

// cdCaption is drawn after drawCD succeeded, so the protocol's data exist.
func cdCaption(in Inputs, at instance) string {
	cd, _ := CDDataOf(in.Analysis, at.protocol)
	return CDCaption(at.protocol, cd)
}

func runtimeScalingCaption(Inputs, instance) string {
	return "Training time against the number of samples (a) and of features (b) on the authors' synthetic noise data " +
		"(labels independent of the features), log-log; lines are means and bands min-max over trials; the legend gives each method's fitted scaling exponent " +
		"(least-squares slope of log time on log size over all trials). FGA's sizes are capped (see timing.Options.MaxSamples)."
}

func runtimeRealCaption(Inputs, instance) string {
	return "Training time against subsample size on real data sets (one panel per data set; random subsamples of the complete " +
		"rows, 80% used for training, plus the whole data set), log-log, mean line and min-max band over trials; scaling exponents " +
		"fitted where a method has three sizes or more (two sizes give a line whatever the scaling), each panel's legend under it."
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
