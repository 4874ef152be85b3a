package cli

import (
	"context"
	"flag"
	"fmt"

	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/bench/spec"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/internal/command"
)

func init() { register(reproduceCommand) }

func reproduceCommand() *command.Command {
	c := &command.Command{Name: "reproduce", Short: "run the paper's experiment (paper and/or clean protocol) and write the report",
		UsageLine: "[--protocol paper|clean|holdout|both] [--methods a,b] [--datasets x,y] [--out DIR] [flags]",
		Long: `Reproduce runs the paper's own study (every registered method on the ten
datasets under the paper and the clean protocol, with the variants) and
writes results.csv, manifest.json and report/ to --out. --protocol, --methods
and --datasets narrow it; it resumes and shards like run.

The registered methods include the majority-class baseline (majority),
against which a cell at chance shows, and fuzzycart (Ex-Fuzzy's FuzzyCART,
not in the paper) under the clean protocol only, so that the paper
protocol's rows stay the paper's. The variants are extra labels the
paper's discussion needs: the paper-text grids (cart@text, c45@text,
c45-entropy@text), FGRT with quirks Q1 and Q2 fixed (fgrt-fixed) and
one-factor-at-a-time sweeps of FGRT (fgrt@ofat, fgrt-fixed@ofat). So
--methods fgrt,fgrt-opt runs five labels; add --no-variants to run only
each method's default grid (docs/specs-and-sweeps.md).`}
	fs := &c.Flag
	var rf runFlags
	rf.add(fs, "out")
	addStatsFlags(fs, &rf.report, "else fgrt")
	var pf paperFlags
	pf.add(fs)
	noReport := fs.Bool("no-report", false, "do not render the report after running")
	c.Run = func(ctx context.Context, env *command.Env, args []string) error {
		study, err := pf.study(fs)
		if err != nil {
			return err
		}
		if err := rf.applyMissing(&study); err != nil {
			return err
		}
		return runAndReport(ctx, env, &rf, study, *noReport)
	}
	return c
}

// paperFlags choose the part of the paper's study that reproduce runs.
type paperFlags struct {
	protocol          string
	methods, datasets listFlag
	noVariants        bool
	repeats           int
	seed              int64
}

func (p *paperFlags) add(fs *flag.FlagSet) {
	fs.StringVar(&p.protocol, "protocol", "both", "paper, clean, holdout, or both (= paper and clean)")
	p.methods = newListFlag(fs, "methods", "", "comma-separated methods (default: all registered)")
	p.datasets = newListFlag(fs, "datasets", "", "comma-separated datasets: registry names or paths of .dat, .arff or .csv files (default: the ten of the paper)")
	fs.BoolVar(&p.noVariants, "no-variants", false, "skip the variants (CART/C4.5 paper-text grids, FGRT with quirks fixed, OFAT sweeps)")
	fs.IntVar(&p.repeats, "repeats", 1, "repetitions: of the clean protocol's k-fold (different fold seeds), or learner seeds of the holdout split")
	fs.Int64Var(&p.seed, "seed", protocol.DefaultOptions().Seed, "fold seed of the clean protocol's first repeat")
}

// study is the paper's study (spec.Paper) the flags of fs choose.
func (p *paperFlags) study(fs *flag.FlagSet) (study.Study, error) {
	if err := checkListFlags(fs, "datasets", "methods"); err != nil {
		return study.Study{}, err
	}
	protocols := []string{"paper", "clean"}
	if p.protocol != "both" {
		if _, err := protocol.Lookup(p.protocol); err != nil {
			return study.Study{}, err
		}
		protocols = []string{p.protocol}
	}
	datasets, err := p.datasets.items()
	if err != nil {
		return study.Study{}, err
	}
	methods, err := p.methods.items()
	if err != nil {
		return study.Study{}, err
	}
	st, err := spec.Paper(protocols, datasets, methods, !p.noVariants)
	if err != nil {
		return st, err
	}
	// A flag no chosen protocol reads would be silently ignored
	// (--repeats 5 under paper still runs one repeat): refuse it.
	var given []string
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "repeats" || f.Name == "seed" {
			given = append(given, f.Name)
		}
	})
	if err := spec.UnreadOption(given, protocols); err != nil {
		return st, fmt.Errorf("--%w", err)
	}
	st.Options.Repeats, st.Options.Seed = p.repeats, p.seed
	return st, nil
}
