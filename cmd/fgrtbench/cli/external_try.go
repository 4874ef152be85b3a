package cli

import (
	"context"
	"flag"
	"fmt"

	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/internal/command"
	"github.com/fgrtbench/fgrtbench/tasks/externaltry"
)

// externalFlags are the run flags that reach every external method of a
// study: execution only, outside every identity.
type externalFlags struct {
	keepUnitDirs string
	workerJobs   int
}

func (e *externalFlags) add(fs *flag.FlagSet) {
	fs.StringVar(&e.keepUnitDirs, "keep-unit-dirs", "", "keep every external job's directory (inputs, outputs, job.json) under `DIR` instead of deleting it")
	fs.IntVar(&e.workerJobs, "worker-jobs", 0, "start a fresh external worker every `N` jobs (0: a worker serves the whole run; for adapters that leak state between jobs)")
}

// apply sets the flags on the study's external methods.
func (e *externalFlags) apply(study study.Study) error {
	if e.workerJobs < 0 {
		return fmt.Errorf("--worker-jobs %d: need 0 (never recycle) or more", e.workerJobs)
	}
	for _, m := range study.Methods {
		if m.External == nil {
			continue
		}
		if e.keepUnitDirs != "" {
			m.External.KeepDirs = e.keepUnitDirs
		}
		if e.workerJobs > 0 {
			m.External.WorkerJobs = e.workerJobs
		}
	}
	return nil
}

func init() { register(externalCommand) }

func externalCommand() *command.Command {
	return &command.Command{Name: "external", Short: "external methods: 'external try' runs one job of a spec's external method in the foreground and shows it",
		UsageLine: "try [flags]",
		Commands:  []*command.Command{externalTryCommand()},
		Long: `External holds the tools for external methods (docs/external.md).
'external try' runs one job of a spec's external method in the foreground
and prints what the adapter received and returned.`}
}

func externalTryCommand() *command.Command {
	c := &command.Command{Name: "try", Short: "run one job of a spec's external method in the foreground and show its inputs, messages and outputs",
		UsageLine: "--spec FILE [--method LABEL] [--dataset D] [--protocol P] [--fold I] [--mode process|worker] [--keep-unit-dirs DIR]",
		Long: `Try runs one job of an external method of --spec on one fold of one
dataset, in the foreground, and prints the files the adapter received, the
command line (process mode) or job message (worker mode), what the adapter
printed on stderr, its answer, its outputs, the accuracy and the timings.
The job's directory is deleted afterwards unless --keep-unit-dirs names a
directory to keep it in.`}
	fs := &c.Flag
	var t tryFlags
	t.data.add(fs)
	fs.StringVar(&t.o.Spec, "spec", "", "study specification (.json, .yaml or .yml)")
	fs.StringVar(&t.o.Label, "method", "", "the external method's label (default: the spec's only external method)")
	fs.StringVar(&t.o.Dataset, "dataset", "", "dataset (default: the spec's first)")
	fs.StringVar(&t.o.Protocol, "protocol", "", "protocol (default: the spec's first)")
	fs.IntVar(&t.o.Fold, "fold", 0, "index of the fold to fit and predict (repeat 0 first)")
	fs.StringVar(&t.o.Mode, "mode", "", "process or worker (default: the spec's mode)")
	fs.StringVar(&t.o.Keep, "keep-unit-dirs", "", "keep the job's directory under `DIR` (default: shown, then deleted)")
	c.Run = func(ctx context.Context, env *command.Env, args []string) error { return runExternalTry(ctx, env, &t) }
	return c
}

// tryFlags are external try's flags.
type tryFlags struct {
	o    externaltry.Options
	data dataFlags
}

// runExternalTry runs one job of an external method on one fold, showing
// on stdout what the adapter received, printed and returned.
func runExternalTry(ctx context.Context, env *command.Env, t *tryFlags) error {
	if t.o.Spec == "" {
		return usageError("--spec is required")
	}
	o := t.o
	o.Load = func(ctx context.Context, name, path string) (*datasets.Dataset, error) {
		return loadDatasetFrom(ctx, t.data.fetcher(env), name, path)
	}
	o.Out = env.Stdout
	return externaltry.Run(ctx, o)
}
