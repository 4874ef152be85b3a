package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/fgrtbench/fgrtbench/bench/external"
	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/bench/spec"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/learn"
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

func externalCommand() *Command {
	return &Command{Name: "external", Short: "external methods: 'external try' runs one job of a spec's external method in the foreground and shows it",
		UsageLine: "try [flags]",
		Commands:  []*Command{externalTryCommand()},
		Long: `External holds the tools for external methods (docs/external.md).
'external try' runs one job of a spec's external method in the foreground
and prints what the adapter received and returned.`}
}

func externalTryCommand() *Command {
	c := &Command{Name: "try", Short: "run one job of a spec's external method in the foreground and show its inputs, messages and outputs",
		UsageLine: "--spec FILE [--method LABEL] [--dataset D] [--protocol P] [--fold I] [--mode process|worker] [--keep-unit-dirs DIR]",
		Long: `Try runs one job of an external method of --spec on one fold of one
dataset, in the foreground, and prints the files the adapter received, the
command line (process mode) or job message (worker mode), what the adapter
printed on stderr, its answer, its outputs, the accuracy and the timings.
The job's directory is deleted afterwards unless --keep-unit-dirs names a
directory to keep it in.`}
	fs := &c.Flag
	var df dataFlags
	df.add(fs)
	specPath := fs.String("spec", "", "study specification (.json, .yaml or .yml)")
	label := fs.String("method", "", "the external method's label (default: the spec's only external method)")
	dataset := fs.String("dataset", "", "dataset (default: the spec's first)")
	proto := fs.String("protocol", "", "protocol (default: the spec's first)")
	fold := fs.Int("fold", 0, "index of the fold to fit and predict (repeat 0 first)")
	mode := fs.String("mode", "", "process or worker (default: the spec's mode)")
	keep := fs.String("keep-unit-dirs", "", "keep the job's directory under `DIR` (default: shown, then deleted)")
	c.Run = func(ctx context.Context, env *Env, args []string) error {
		if *specPath == "" {
			return usageError("--spec is required")
		}
		return externalTry(ctx, env, tryOptions{spec: *specPath, label: *label, dataset: *dataset, protocol: *proto, fold: *fold, mode: *mode, keep: *keep, data: &df})
	}
	return c
}

type tryOptions struct {
	spec, label, dataset, protocol, mode, keep string
	fold                                       int
	data                                       *dataFlags
}

// externalTry runs one job of an external method on one fold, printing
// what the adapter received (the files, the command or job message), what
// it printed, and what it returned.
func externalTry(ctx context.Context, env *Env, o tryOptions) (retErr error) {
	st, err := spec.Load(o.spec)
	if err != nil {
		return err
	}
	var ms *study.MethodSpec
	var labels []string
	for i, m := range st.Methods {
		if m.External == nil {
			continue
		}
		labels = append(labels, m.ResultLabel())
		if o.label == m.ResultLabel() || (o.label == "" && ms == nil) {
			ms = &st.Methods[i]
		}
	}
	switch {
	case len(labels) == 0:
		return fmt.Errorf("%s has no external method", o.spec)
	case o.label == "" && len(labels) > 1:
		return fmt.Errorf("%s has several external methods (%s): choose one with --method", o.spec, strings.Join(labels, ", "))
	case ms == nil:
		return fmt.Errorf("%s has no external method %q (external methods: %s)", o.spec, o.label, strings.Join(labels, ", "))
	}
	ext := *ms.External
	if o.mode != "" {
		ext.Mode = o.mode
	}
	if ext.Mode == "" {
		ext.Mode = external.ModeProcess
	}
	// The job's directory goes into a directory of the try's own, so that
	// it can be shown after the run; it is removed unless asked to keep.
	parent := o.keep
	if parent != "" {
		if err := os.MkdirAll(parent, 0o755); err != nil {
			return err
		}
	}
	keep, err := os.MkdirTemp(parent, "try-")
	if err != nil {
		return err
	}
	if o.keep == "" {
		defer os.RemoveAll(keep)
		// The job's error says where its files were kept; they are
		// deleted on return, so say that instead.
		defer func() {
			var kept *external.KeptError
			if errors.As(retErr, &kept) && strings.HasPrefix(kept.Dir, keep+string(filepath.Separator)) {
				retErr = fmt.Errorf("%s (the job's files were shown above and deleted; --keep-unit-dirs DIR keeps them)", strings.Replace(retErr.Error(), " (job files kept in "+kept.Dir+")", "", 1))
			}
		}()
	}
	ext.KeepDirs = keep
	m, err := ext.Method()
	if err != nil {
		return fmt.Errorf("method %s: %v", ms.ResultLabel(), err)
	}
	overrides := map[string]string{}
	for k, v := range ms.Params {
		overrides[k] = v
	}
	var swept []string
	for k, vs := range ms.Sweep {
		if len(vs) > 0 {
			overrides[k] = vs[0]
			swept = append(swept, k)
		}
	}
	sort.Strings(swept)
	cfg, err := m.Resolve(overrides)
	if err != nil {
		return fmt.Errorf("method %s: %v", ms.ResultLabel(), err)
	}

	// The spec's own datasets resolve from its directory; one given on the
	// command line, from the current one.
	dsName, dsPath := o.dataset, o.dataset
	if dsName == "" {
		dsName = st.Datasets[0]
		dsPath = st.DataPath(dsName)
	}
	protoName := o.protocol
	if protoName == "" {
		protoName = st.Protocols[0]
	}
	p, err := protocol.Lookup(protoName)
	if err != nil {
		return err
	}
	d, err := loadDatasetFrom(ctx, o.data.fetcher(env), dsName, dsPath)
	if err != nil {
		return err
	}
	if st.Options.Missing == protocol.MissingError {
		if err := d.MissingError(); err != nil {
			return err
		}
	}
	plan, err := p.Plan(d, st.Options)
	if err != nil {
		return err
	}
	if o.fold < 0 || o.fold >= len(plan.Folds) {
		return fmt.Errorf("--fold %d: the %s protocol has folds 0 to %d on %s", o.fold, protoName, len(plan.Folds)-1, dsName)
	}
	f := plan.Folds[o.fold]
	seed := f.Seed
	// Clean folds are index views over one matrix; the try needs the
	// scaled rows themselves.
	xTrain, xTest := f.Matrices(nil)

	w := env.Stdout
	fmt.Fprintf(w, "method %s (%s mode) on %s, %s protocol, repeat %d fold %d: %d training rows, %d test rows\n",
		ms.ResultLabel(), ext.Mode, dsName, protoName, f.Repeat, f.Index, f.NTrain(), f.NTest())
	fmt.Fprintf(w, "configuration: %s\n", m.Canonical(cfg))
	if len(swept) > 0 {
		fmt.Fprintf(w, "  (the first value of the swept %s)\n", strings.Join(swept, ", "))
	}
	fmt.Fprintf(w, "seed: %d (a study's unit derives its own from its fold)\n", seed)
	t, err := m.New(cfg, seed)
	if err != nil {
		return err
	}
	tr := t.(*external.Trainer).WithTrace(w)
	defer tr.Close()
	var trainer learn.Trainer = tr
	if plan.PrepareX != nil {
		if trainer, err = tr.Prepare(plan.PrepareX, plan.PrepareY, plan.Schema); err != nil {
			return err
		}
	}
	start := time.Now()
	model, err := trainer.Fit(xTrain, f.YTrain, plan.Schema)
	if err != nil {
		return err
	}
	pred, fit, err := learn.PredictChecked(model, xTest, plan.Schema.NumClasses())
	wall := time.Since(start)
	showOutputs(env, keep)
	if err != nil {
		return err
	}
	correct := 0
	for i, y := range f.YTest {
		if pred[i] == y {
			correct++
		}
	}
	cx := model.Complexity()
	fmt.Fprintf(w, "returned: %d predictions, %d correct (accuracy %.4f); fit %.4fs, wall %.3fs\n",
		len(pred), correct, float64(correct)/float64(len(f.YTest)), fit, wall.Seconds())
	fmt.Fprintf(w, "complexity: %d rules, %d antecedents, %d leaves, %d internal nodes\n", cx.Rules, cx.Antecedents, cx.Leaves, cx.InternalNodes)
	if o.keep != "" {
		fmt.Fprintf(w, "files kept in %s\n", keep)
	}
	return nil
}

// showOutputs prints the outputs of the job kept in dir: the start of
// predictions.txt and result.json.
func showOutputs(env *Env, dir string) {
	jobs, _ := filepath.Glob(filepath.Join(dir, "job-*"))
	if len(jobs) != 1 {
		return
	}
	for _, name := range []string{external.PredictionsFile, external.ResultFile} {
		path := filepath.Join(jobs[0], name)
		st, err := os.Lstat(path)
		if errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(env.Stdout, "  %-16s (not written)\n", name)
			continue
		}
		if err != nil || !st.Mode().IsRegular() {
			fmt.Fprintf(env.Stdout, "  %-16s (not a regular file)\n", name)
			continue
		}
		f, err := os.Open(path)
		if err != nil {
			continue
		}
		buf := make([]byte, 300)
		n, _ := f.Read(buf)
		f.Close()
		text := strings.ReplaceAll(strings.TrimRight(string(buf[:n]), "\n"), "\n", "\\n")
		if st.Size() > int64(n) {
			text += "..."
		}
		fmt.Fprintf(env.Stdout, "  %-16s %8d bytes  %s\n", name, st.Size(), text)
	}
}
