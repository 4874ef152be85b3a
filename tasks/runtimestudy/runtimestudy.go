// Package runtimestudy is the runtime command's work as one function: the
// training-time study (package timing/paperruntime) on the authors' synthetic data and
// on subsamples of real datasets, written to an output directory as
// runtime.csv and the figures runtime_scaling and runtime_real.
package runtimestudy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/fgrtbench/fgrtbench/bench/methods"
	"github.com/fgrtbench/fgrtbench/internal/owned"
	"github.com/fgrtbench/fgrtbench/plots"
	"github.com/fgrtbench/fgrtbench/results"
	"github.com/fgrtbench/fgrtbench/results/runtimecsv"
	"github.com/fgrtbench/fgrtbench/timing/paperruntime"
)

// Options configure a runtime study.
type Options struct {
	// Timing is the study; empty Methods means the default methods that
	// this build registers (the others are named on Warn and skipped).
	Timing paperruntime.Options
	// Out is the output directory.
	Out string
	// Datasets, when not empty, are also timed on subsamples, read by Load.
	Datasets []string
	Load     paperruntime.Loader
	// Present gives the figures their method labels and colours.
	Present func([]runtimecsv.Row) results.Presentation
	// Stdout receives a line per file written, Warn one per skipped method.
	Stdout io.Writer
	Warn   io.Writer
}

// figures are the files the study may write besides runtime.csv.
var figures = []string{"runtime_scaling.png", "runtime_scaling.svg", "runtime_real.png", "runtime_real.svg"}

// Run times the study and writes what it measured, even when a later fit
// failed (that error is then returned after the files are written). A
// file of the user's in the way of an output is refused before anything
// is timed.
func Run(ctx context.Context, o Options) error {
	if len(o.Timing.Methods) == 0 {
		o.Timing.Methods = registered(o.Warn)
	}
	outs, err := owned.Open(o.Out)
	if err != nil {
		return err
	}
	if err := outs.Check(append([]string{runtimecsv.FileName}, figures...)...); err != nil {
		return err
	}
	if o.Timing.Threads > 1 && o.Warn != nil {
		// runtime.csv has no column for it (its format is the results
		// contract's): say it where the run is seen.
		fmt.Fprintf(o.Warn, "fgrtbench runtime: each fit may keep %d threads busy (-j %d); runtime.csv does not record it, and the paper's timings are -j 1\n", o.Timing.Threads, o.Timing.Threads)
	}
	rows, runErr := paperruntime.Run(ctx, o.Timing)
	if len(o.Datasets) > 0 && runErr == nil {
		var more []runtimecsv.Row
		more, runErr = paperruntime.RunReal(ctx, o.Load, o.Datasets, o.Timing)
		rows = append(rows, more...)
	}
	if len(rows) > 0 {
		if err := write(o, rows); err != nil {
			return err
		}
	}
	return runErr
}

// registered returns the methods.Timed methods that this build registers.
func registered(warn io.Writer) []string {
	var out []string
	for _, m := range methods.Timed() {
		if _, err := methods.Lookup(m); err == nil {
			out = append(out, m)
		} else if warn != nil {
			fmt.Fprintf(warn, "fgrtbench runtime: %s is not registered in this build; skipped\n", m)
		}
	}
	return out
}

// write writes runtime.csv and the figures its rows have data for.
func write(o Options, rows []runtimecsv.Row) error {
	path := filepath.Join(o.Out, runtimecsv.FileName)
	if err := runtimecsv.WriteFile(path, rows); err != nil {
		return err
	}
	fmt.Fprintf(o.Stdout, "wrote %s (%d fits)\n", path, len(rows))
	pres := o.Present(rows)
	for _, fig := range []struct {
		name string
		draw func(dir, name string, rows []runtimecsv.Row, pres results.Presentation) error
	}{{"runtime_scaling", plots.RuntimeScaling}, {"runtime_real", plots.RuntimeReal}} {
		err := fig.draw(o.Out, fig.name, rows, pres)
		if errors.Is(err, plots.ErrNoData) {
			continue
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(o.Stdout, "wrote %s.png and .svg\n", filepath.Join(o.Out, fig.name))
	}
	return nil
}
