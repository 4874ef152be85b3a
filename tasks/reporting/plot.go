package reporting

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/bench/manifest"
	"github.com/fgrtbench/fgrtbench/plots"
	"github.com/fgrtbench/fgrtbench/reports"
	"github.com/fgrtbench/fgrtbench/results"
	"github.com/fgrtbench/fgrtbench/results/runtimecsv"
)

// PlotAll draws every figure the results.csv (and runtime.csv) of dir
// support into target ("" = DIR/report/figures), from the study's one
// analysis as the report draws them. It returns the figures drawn, with
// paths as the user names them (target's parent joined), even when it
// fails part way. Once ctx is done (a first signal) it stops before drawing
// with ErrPlotInterrupted.
func PlotAll(ctx context.Context, dir, target string) ([]plots.Figure, error) {
	if target == "" {
		target = filepath.Join(dir, "report", "figures")
		if err := reports.CheckDirs(dir); err != nil {
			return nil, err // never draw through a planted report/ link
		}
	}
	in, err := plotInputs(dir)
	if err != nil {
		return nil, err
	}
	if ctx.Err() != nil {
		return nil, ErrPlotInterrupted
	}
	figs, err := plots.RenderAll(target, in)
	for i := range figs {
		figs[i].Path = filepath.Join(filepath.Dir(target), figs[i].Path)
	}
	if err == nil && len(figs) == 0 {
		return nil, fmt.Errorf("nothing to draw from %s: %s", dir, plots.NothingToDraw)
	}
	return figs, err
}

// plotInputs reads what the figures of dir draw: the analysis of its
// results.csv (none when absent: runtime.csv alone), the presentation of
// its methods and its runtime.csv.
func plotInputs(dir string) (plots.Inputs, error) {
	recs, recErr := results.ReadFile(filepath.Join(dir, results.FileName))
	m, err := manifest.Read(dir)
	switch {
	case err != nil:
		m = nil
	case recErr == nil:
		if err := onlyStudyRows(dir, m, recs); err != nil {
			return plots.Inputs{}, err
		}
	}
	methods := Presentation(m, recordLabels(recs))
	if recErr != nil && !errors.Is(recErr, fs.ErrNotExist) {
		return plots.Inputs{}, recErr
	}
	var a *analysis.Analysis
	if recErr == nil {
		if len(recs) == 0 {
			return plots.Inputs{}, fmt.Errorf("nothing to draw from %s: its %s holds no rows; %s", dir, results.FileName, plots.NothingToDraw)
		}
		if a, err = analyse(recs, m, "", Options{}, nil); err != nil {
			return plots.Inputs{}, err
		}
	}
	return figureInputs(dir, a, methods)
}

// figureInputs loads what the figures of dir draw besides the analysis a
// (nil when dir has no results.csv): the timings of its runtime.csv, when
// there is one. methods presents runtime.csv's labels when a is nil.
func figureInputs(dir string, a *analysis.Analysis, methods results.Presentation) (plots.Inputs, error) {
	in := plots.Inputs{Analysis: a, Methods: methods}
	path := filepath.Join(dir, runtimecsv.FileName)
	if st, err := os.Stat(path); err != nil || st.IsDir() {
		if a == nil {
			return in, fmt.Errorf("%s has neither %s nor %s", dir, results.FileName, runtimecsv.FileName)
		}
		return in, nil
	}
	rt, err := runtimecsv.ReadFile(path)
	if err != nil {
		return in, err
	}
	in.Runtime = rt
	return in, nil
}
