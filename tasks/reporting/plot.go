package reporting

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/fgrtbench/fgrtbench/bench/manifest"
	"github.com/fgrtbench/fgrtbench/bench/runner"
	"github.com/fgrtbench/fgrtbench/plots"
	"github.com/fgrtbench/fgrtbench/reports"
	"github.com/fgrtbench/fgrtbench/results"
)

// PlotAll draws every figure the results.csv (and runtime.csv) of dir
// support into target ("" = DIR/report/figures), from the study's one
// analysis as the report draws them. It returns the figures drawn, with
// paths as the user names them (target's parent joined), even when it
// fails part way.
func PlotAll(dir, target string) ([]plots.Figure, error) {
	if target == "" {
		target = filepath.Join(dir, "report", "figures")
		if err := reports.CheckDirs(dir); err != nil {
			return nil, err // never draw through a planted report/ link
		}
	}
	opts, err := plotOptions(dir)
	if err != nil {
		return nil, err
	}
	figs, err := plots.RenderAll(dir, target, opts)
	for i := range figs {
		figs[i].Path = filepath.Join(filepath.Dir(target), figs[i].Path)
	}
	if err == nil && len(figs) == 0 {
		return nil, fmt.Errorf("nothing to draw from %s: %s", dir, plots.NothingToDraw)
	}
	return figs, err
}

// plotOptions reads what the figures of dir draw: the analysis of its
// results.csv (none when absent: runtime.csv alone) and the presentation
// of its methods.
func plotOptions(dir string) (plots.RenderOptions, error) {
	var opts plots.RenderOptions
	recs, recErr := results.ReadFile(filepath.Join(dir, runner.ResultsFile))
	m, err := manifest.Read(dir)
	switch {
	case err != nil:
		m = nil
	case recErr == nil:
		if err := onlyStudyRows(dir, m, recs); err != nil {
			return opts, err
		}
	}
	opts.Methods = Presentation(m, recordLabels(recs))
	if recErr != nil && !errors.Is(recErr, fs.ErrNotExist) {
		return opts, recErr
	}
	if recErr != nil {
		return opts, nil
	}
	if len(recs) == 0 {
		return opts, fmt.Errorf("nothing to draw from %s: its %s holds no rows; %s", dir, runner.ResultsFile, plots.NothingToDraw)
	}
	opts.Analysis, err = analyse(recs, m, "", Options{}, nil)
	return opts, err
}
