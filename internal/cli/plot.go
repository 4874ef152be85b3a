package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/fgrtbench/fgrtbench/bench/manifest"
	"github.com/fgrtbench/fgrtbench/bench/paperprep"
	"github.com/fgrtbench/fgrtbench/bench/runner"
	"github.com/fgrtbench/fgrtbench/internal/safename"
	"github.com/fgrtbench/fgrtbench/plots"
	"github.com/fgrtbench/fgrtbench/reports"
	"github.com/fgrtbench/fgrtbench/results"
)

func init() {
	c := &command{name: "plot", summary: "render figures: 'plot all' from a results directory, 'plot partitions' for one feature",
		usage: "all --results DIR [--out DIR] | partitions --dataset NAME --feature NAME [--protocol paper|raw] [--out DIR]"}
	c.run = func(ctx context.Context, env *Env, args []string) error {
		if len(args) == 0 || (args[0] != "all" && args[0] != "partitions") {
			if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
				printUsage(env.Stdout, c, nil)
				return nil
			}
			fmt.Fprintln(env.Stderr, "fgrtbench plot: need a subcommand: all or partitions (see 'fgrtbench plot -h')")
			return errUsage
		}
		if args[0] == "all" {
			return plotAll(env, c, args[1:])
		}
		return plotPartitions(ctx, env, c, args[1:])
	}
	register(c)
}

func plotAll(env *Env, c *command, args []string) error {
	fs := newFlags(env, c)
	dir := fs.String("results", "", "results directory holding results.csv (and optionally runtime.csv)")
	out := fs.String("out", "", "figure directory (default DIR/report/figures)")
	if err := parse(env, c, fs, args); err != nil {
		return err
	}
	if *dir == "" {
		fmt.Fprintln(env.Stderr, "fgrtbench plot all: --results is required (see 'fgrtbench plot -h')")
		return errUsage
	}
	target := *out
	if target == "" {
		target = filepath.Join(*dir, "report", "figures")
		if err := reports.CheckDirs(*dir); err != nil {
			return err // never draw through a planted report/ link
		}
	}
	var opts plots.RenderOptions
	if m, err := manifest.Read(*dir); err == nil {
		if recs, err := results.ReadFile(filepath.Join(*dir, runner.ResultsFile)); err == nil {
			if err := onlyStudyRows(*dir, m, recs); err != nil {
				return err
			}
		}
		opts.MethodBase = methodBases(m)
	}
	figs, err := plots.RenderAllWith(*dir, target, opts)
	for _, f := range figs {
		fmt.Fprintf(env.Stdout, "%s\t%s\n", filepath.Join(filepath.Dir(target), f.Path), f.Caption)
	}
	if err == nil && len(figs) == 0 {
		return fmt.Errorf("plot all: nothing to draw from %s: %s", *dir, plots.NothingToDraw)
	}
	return err
}

func plotPartitions(ctx context.Context, env *Env, c *command, args []string) error {
	fs := newFlags(env, c)
	var df dataFlags
	df.add(fs)
	dataset := fs.String("dataset", "", "dataset name (e.g. wine), or the path of a .dat, .arff or .csv file")
	feature := fs.String("feature", "", "numeric feature name (e.g. proline)")
	protocol := fs.String("protocol", "paper", "paper = partitions on all rows of the paper protocol's prepared (standardised) matrix; raw = on the complete rows, unscaled")
	out := fs.String("out", "figures", "output directory")
	if err := parse(env, c, fs, args); err != nil {
		return err
	}
	if *dataset == "" || *feature == "" {
		fmt.Fprintln(env.Stderr, "fgrtbench plot partitions: --dataset and --feature are required (see 'fgrtbench plot -h')")
		return errUsage
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
		if d, err = plots.FeaturePartitions(prep.X, prep.Y, prep.Schema, *feature); err != nil {
			return err
		}
		d.XLabel = d.Feature + " (paper protocol: standardised on the 64% training part)"
	case "raw":
		complete, _ := ds.CompleteRows()
		if d, err = plots.FeaturePartitions(complete.X, complete.Y, complete.Schema(), *feature); err != nil {
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
