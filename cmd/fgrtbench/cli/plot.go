package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/bench/manifest"
	"github.com/fgrtbench/fgrtbench/bench/paperprep"
	"github.com/fgrtbench/fgrtbench/bench/runner"
	"github.com/fgrtbench/fgrtbench/internal/safename"
	"github.com/fgrtbench/fgrtbench/plots"
	"github.com/fgrtbench/fgrtbench/reports"
	"github.com/fgrtbench/fgrtbench/results"
)

func init() { register(plotCommand) }

func plotCommand() *Command {
	return &Command{Name: "plot", Short: "render figures: 'plot all' from a results directory, 'plot partitions' for one feature",
		UsageLine: "all|partitions [flags]",
		Commands:  []*Command{plotAllCommand(), plotPartitionsCommand()},
		Long: `Plot renders figures: 'plot all' every figure a results directory
supports, 'plot partitions' the fuzzy partitions of one feature.`}
}

func plotAllCommand() *Command {
	c := &Command{Name: "all", Short: "draw every figure the results of a directory support", UsageLine: "[--results DIR] [--out DIR]",
		Long: `All draws every figure the results.csv (and runtime.csv) of the --results
directory support, as PNG and SVG, into --out.`}
	fs := &c.Flag
	dir := fs.String("results", "out", "results directory holding results.csv (and optionally runtime.csv)")
	out := fs.String("out", "", "figure directory (default DIR/report/figures)")
	c.Run = func(ctx context.Context, env *Env, args []string) error { return plotAll(env, dir, out) }
	return c
}

func plotAll(env *Env, dir, out *string) error {
	if *dir == "" {
		return usageError("--results is required")
	}
	target := *out
	if target == "" {
		target = filepath.Join(*dir, "report", "figures")
		if err := reports.CheckDirs(*dir); err != nil {
			return err // never draw through a planted report/ link
		}
	}
	var a *analysis.Analysis
	recs, recErr := results.ReadFile(filepath.Join(*dir, runner.ResultsFile))
	m, err := manifest.Read(*dir)
	if err == nil {
		if recErr == nil {
			if err := onlyStudyRows(*dir, m, recs); err != nil {
				return err
			}
		}
	} else {
		m = nil
	}
	methods := presentationOf(m, recordLabels(recs))
	if recErr != nil && !errors.Is(recErr, fs.ErrNotExist) {
		return recErr
	}
	if recErr == nil && len(recs) == 0 {
		return fmt.Errorf("nothing to draw from %s: its %s holds no rows; %s", *dir, runner.ResultsFile, plots.NothingToDraw)
	}
	if recErr == nil {
		// The figures of the study's one analysis, as the report draws them.
		if a, err = studyAnalysis(recs, m, "", reportOptions{}); err != nil {
			return err
		}
	}
	in, err := figureInputs(*dir, a, methods)
	if err != nil {
		return err
	}
	figs, err := plots.RenderAll(target, in)
	for _, f := range figs {
		fmt.Fprintf(env.Stdout, "%s\t%s\n", filepath.Join(filepath.Dir(target), f.Path), f.Caption)
	}
	if err == nil && len(figs) == 0 {
		return fmt.Errorf("nothing to draw from %s: %s", *dir, plots.NothingToDraw)
	}
	return err
}

func plotPartitionsCommand() *Command {
	c := &Command{Name: "partitions", Short: "draw the fuzzy partitions FGRT builds for one feature of a dataset",
		UsageLine: "--dataset NAME --feature NAME [--protocol paper|raw] [--units data|standardised] [--out DIR]",
		Long: `Partitions draws the fuzzy partitions FGRT builds for one numeric feature
of a dataset, on the paper protocol's standardised matrix or on the raw
values, as PNG and SVG into --out. The value axis is in the data's own
units (the paper protocol's standardisation undone); --units standardised
draws the values the learner sees.`}
	fs := &c.Flag
	var df dataFlags
	df.add(fs)
	dataset := fs.String("dataset", "", "dataset name (e.g. wine), or the path of a .dat, .arff or .csv file")
	feature := fs.String("feature", "", "numeric feature name (e.g. proline)")
	protocol := fs.String("protocol", "paper", "paper = partitions on all rows of the paper protocol's prepared (standardised) matrix; raw = on the complete rows, unscaled")
	out := fs.String("out", "out", "output directory")
	units := fs.String("units", "data", "value axis of the paper protocol's partitions: data = the data's own units (the standardisation undone), standardised = as the learner sees them")
	c.Run = func(ctx context.Context, env *Env, args []string) error {
		if *units != "data" && *units != "standardised" {
			return usageError(fmt.Sprintf("--units: %q is not data or standardised", *units))
		}
		return plotPartitions(ctx, env, &df, dataset, feature, protocol, out, *units == "standardised")
	}
	return c
}

func plotPartitions(ctx context.Context, env *Env, df *dataFlags, dataset, feature, protocol, out *string, standardised bool) error {
	if *dataset == "" || *feature == "" {
		return usageError("--dataset and --feature are required")
	}
	ds, err := loadDataset(ctx, df.fetcher(env), *dataset)
	if err != nil {
		return err
	}
	var d plots.MembershipData
	switch *protocol {
	case "paper":
		prep, err := paperprep.Prepare(ds)
		if err != nil {
			return err
		}
		if d, err = featurePartitions(prep.X, prep.Y, prep.Schema, *feature); err != nil {
			return err
		}
		d.StandardisedXLabel = d.Feature + " (paper protocol: standardised on the 64% training part)"
		d.XLabel = d.Feature + " (data units; partitions built on the paper protocol's standardised matrix)"
		d.ShowStandardised = standardised
		if st, ok := scalingOf(prep, d.Feature); ok {
			d.Standardisation = &st
		} else {
			d.XLabel = d.StandardisedXLabel // an unscaled column: its values are the data's
		}
	case "raw":
		complete, _ := ds.CompleteRows()
		if d, err = featurePartitions(complete.X, complete.Y, complete.Schema(), *feature); err != nil {
			return err
		}
		d.XLabel = d.Feature + " (raw values, complete rows)"
	default:
		return fmt.Errorf("--protocol: %q is not paper or raw", *protocol)
	}
	// A data file's figures are named after its stem (mine.csv → mine).
	stem := strings.TrimSuffix(filepath.Base(*dataset), filepath.Ext(*dataset))
	name := safename.Component("partitions_" + stem + "_" + d.Feature) // a header never decides the path
	if err := plots.MembershipFigure(*out, name, d); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "wrote %s.png and .svg\n", filepath.Join(*out, name))
	return nil
}

// scalingOf returns the paper protocol's standard scaling of a feature,
// false when the feature was not scaled.
func scalingOf(prep *paperprep.Prepared, feature string) (plots.Standardisation, bool) {
	if prep.Scaler == nil {
		return plots.Standardisation{}, false
	}
	for k, j := range prep.Scaler.Cols {
		if j < len(prep.Schema.Features) && prep.Schema.Features[j].Name == feature {
			return plots.Standardisation{Mean: prep.Scaler.Mean[k], Scale: prep.Scaler.Scale[k]}, true
		}
	}
	return plots.Standardisation{}, false
}
