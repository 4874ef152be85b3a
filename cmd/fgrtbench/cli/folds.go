package cli

import (
	"context"
	"fmt"

	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/internal/command"
)

func init() { register(foldsCommand) }

func foldsCommand() *command.Command {
	c := &command.Command{Name: "folds", Short: "export a dataset's fold assignment (CSV + per-fold ARFF) for other tools", UsageLine: "--dataset NAME --protocol paper|clean|holdout [--seed S] [--out DIR]",
		Long: `Folds exports the fold assignment a protocol gives one dataset into --out:
a CSV of each row's fold, and each fold's training and test part as ARFF
(for Weka or any other tool).`}
	fs := &c.Flag
	var df dataFlags
	df.add(fs)
	name := fs.String("dataset", "", "dataset name, or the path of a .dat, .arff or .csv file")
	proto := fs.String("protocol", "paper", "paper (preprocessed as the authors' code), clean (raw rows) or holdout (the loader's 80/20 split: test part fold 0, training part -1)")
	seed := fs.Int64("seed", protocol.DefaultOptions().Seed, "fold seed (clean protocol)")
	k := fs.Int("folds", 5, "number of folds (clean protocol)")
	out := fs.String("out", "out", "output directory")
	c.Run = func(ctx context.Context, env *command.Env, args []string) error {
		if *name == "" {
			return usageError("--dataset is required")
		}
		if err := datasets.CheckName(*name); err != nil {
			return err
		}
		if _, err := protocol.Lookup(*proto); err != nil {
			return err
		}
		ds, err := loadDataset(ctx, df.fetcher(env), *name)
		if err != nil {
			return err
		}
		opts := protocol.DefaultOptions()
		opts.Seed, opts.Folds = *seed, *k
		files, rows, err := protocol.ExportFolds(ds, *proto, opts, *out)
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "wrote %d files to %s (%d rows)\n", len(files), *out, rows)
		return nil
	}
	return c
}
