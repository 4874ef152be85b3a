package cli

import (
	"context"
	"fmt"

	"github.com/fgrtbench/fgrtbench/internal/command"
	"github.com/fgrtbench/fgrtbench/tasks/partitions"
	"github.com/fgrtbench/fgrtbench/tasks/reporting"
)

func init() { register(plotCommand) }

func plotCommand() *command.Command {
	return &command.Command{Name: "plot", Short: "render figures: 'plot all' from a results directory, 'plot partitions' for one feature",
		UsageLine: "all|partitions [flags]",
		Commands:  []*command.Command{plotAllCommand(), plotPartitionsCommand()},
		Long: `Plot renders figures: 'plot all' every figure a results directory
supports, 'plot partitions' the fuzzy partitions of one feature.`}
}

func plotAllCommand() *command.Command {
	c := &command.Command{Name: "all", Short: "draw every figure the results of a directory support", UsageLine: "[--results DIR] [--out DIR]",
		Long: `All draws every figure the results.csv (and runtime.csv) of the --results
directory support, as PNG and SVG, into --out.`}
	fs := &c.Flag
	dir := fs.String("results", "out", "results directory holding results.csv (and optionally runtime.csv)")
	out := fs.String("out", "", "figure directory (default DIR/report/figures)")
	c.Run = func(ctx context.Context, env *command.Env, args []string) error {
		if *dir == "" {
			return usageError("--results is required")
		}
		figs, err := reporting.PlotAll(ctx, *dir, *out)
		for _, f := range figs {
			fmt.Fprintf(env.Stdout, "%s\t%s\n", f.Path, f.Caption)
		}
		return err
	}
	return c
}

func plotPartitionsCommand() *command.Command {
	c := &command.Command{Name: "partitions", Short: "draw the fuzzy partitions FGRT builds for one feature of a dataset",
		UsageLine: "--dataset NAME --feature NAME [--protocol paper|raw] [--units data|standardised] [--out DIR]",
		Long: `Partitions draws the fuzzy partitions FGRT builds for one numeric feature
of a dataset, on the paper protocol's standardised matrix or on the raw
values, as PNG and SVG into --out. The value axis is in the data's own
units (the paper protocol's standardisation undone); --units standardised
draws the values the learner sees.`}
	fs := &c.Flag
	var df dataFlags
	df.add(fs)
	var r partitions.Request
	fs.StringVar(&r.Name, "dataset", "", "dataset name (e.g. wine), or the path of a .dat, .arff or .csv file")
	fs.StringVar(&r.Feature, "feature", "", "numeric feature name (e.g. proline)")
	fs.StringVar(&r.Protocol, "protocol", "paper", "paper = partitions on all rows of the paper protocol's prepared (standardised) matrix; raw = on the complete rows, unscaled")
	fs.StringVar(&r.Out, "out", "out", "output directory")
	units := fs.String("units", "data", "value axis of the paper protocol's partitions: data = the data's own units (the standardisation undone), standardised = as the learner sees them")
	c.Run = func(ctx context.Context, env *command.Env, args []string) error {
		if *units != "data" && *units != "standardised" {
			return usageError(fmt.Sprintf("--units: %q is not data or standardised", *units))
		}
		if r.Name == "" || r.Feature == "" {
			return usageError("--dataset and --feature are required")
		}
		var err error
		if r.Data, err = loadDataset(ctx, df.fetcher(env), r.Name); err != nil {
			return err
		}
		r.Standardised = *units == "standardised"
		path, err := partitions.Draw(r)
		if err == nil {
			fmt.Fprintf(env.Stdout, "wrote %s.png and .svg\n", path)
		}
		return err
	}
	return c
}
