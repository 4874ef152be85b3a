package externaltry

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fgrtbench/fgrtbench/bench/external"
	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/learn"
)

// A job is the one fit a try runs: the method and configuration, and the
// fold of the dataset it fits and predicts.
type job struct {
	label, mode string
	dir         string // the directory the job's own directory goes into
	keep        bool   // dir is kept afterwards
	method      *learn.Spec
	cfg         learn.Values
	swept       []string // the swept parameters, at their first value
	dataset     string
	protocol    string
	plan        *protocol.Plan
	fold        *protocol.Fold
}

// loadFold loads the dataset and plans the protocol's folds on it. The
// spec's own datasets resolve from its directory; one given in the
// options, from the current one.
func (j *job) loadFold(ctx context.Context, o Options, st study.Study) error {
	dsName, dsPath := o.Dataset, o.Dataset
	if dsName == "" {
		dsName = st.Datasets[0]
		dsPath = st.DataPath(dsName)
	}
	protoName := o.Protocol
	if protoName == "" {
		protoName = st.Protocols[0]
	}
	p, err := protocol.Lookup(protoName)
	if err != nil {
		return err
	}
	d, err := o.Load(ctx, dsName, dsPath)
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
	if o.Fold < 0 || o.Fold >= len(plan.Folds) {
		return fmt.Errorf("--fold %d: the %s protocol has folds 0 to %d on %s", o.Fold, protoName, len(plan.Folds)-1, dsName)
	}
	plan = plan.ForFold(o.Fold) // the fold's schema when its codes are its own
	j.dataset, j.protocol, j.plan, j.fold = dsName, protoName, plan, &plan.Folds[o.Fold]
	return nil
}

// run fits and predicts the fold with the adapter's exchange traced to w,
// then shows the job's outputs and what came back.
func (j *job) run(w io.Writer) error {
	f := j.fold
	fmt.Fprintf(w, "method %s (%s mode) on %s, %s protocol, repeat %d fold %d: %d training rows, %d test rows\n",
		j.label, j.mode, j.dataset, j.protocol, f.Repeat, f.Index, f.NTrain(), f.NTest())
	fmt.Fprintf(w, "configuration: %s\n", j.method.Canonical(j.cfg))
	if len(j.swept) > 0 {
		fmt.Fprintf(w, "  (the first value of the swept %s)\n", strings.Join(j.swept, ", "))
	}
	fmt.Fprintf(w, "seed: %d (a study's unit derives its own from its fold)\n", f.Seed)
	t, err := j.method.New(j.cfg, f.Seed)
	if err != nil {
		return err
	}
	tr := t.(*external.Trainer).WithTrace(w)
	defer tr.Close()
	var trainer learn.Trainer = tr
	if j.plan.PrepareX != nil {
		if trainer, err = tr.Prepare(j.plan.PrepareX, j.plan.PrepareY, j.plan.Schema); err != nil {
			return err
		}
	}
	return j.fitAndPredict(w, trainer)
}

// fitAndPredict fits the fold's training rows and predicts its test rows,
// then shows the job's outputs, the accuracy and the timings.
func (j *job) fitAndPredict(w io.Writer, trainer learn.Trainer) error {
	f := j.fold
	// Clean folds are index views over one matrix; the try needs the
	// scaled rows themselves.
	xTrain, xTest := f.Matrices(nil)
	start := time.Now()
	model, err := trainer.Fit(xTrain, f.YTrain, j.plan.Schema)
	if err != nil {
		return err
	}
	pred, fit, err := learn.PredictChecked(model, xTest, j.plan.Schema.NumClasses())
	wall := time.Since(start)
	showOutputs(w, j.dir)
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
	if j.keep {
		fmt.Fprintf(w, "files kept in %s\n", j.dir)
	}
	return nil
}

// showOutputs writes the outputs of the job kept in dir: the start of
// predictions.txt and result.json.
func showOutputs(w io.Writer, dir string) {
	jobs, _ := filepath.Glob(filepath.Join(dir, "job-*"))
	if len(jobs) != 1 {
		return
	}
	for _, name := range []string{external.PredictionsFile, external.ResultFile} {
		path := filepath.Join(jobs[0], name)
		st, err := os.Lstat(path)
		if errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(w, "  %-16s (not written)\n", name)
			continue
		}
		if err != nil || !st.Mode().IsRegular() {
			fmt.Fprintf(w, "  %-16s (not a regular file)\n", name)
			continue
		}
		text, ok := fileStart(path, st.Size())
		if ok {
			fmt.Fprintf(w, "  %-16s %8d bytes  %s\n", name, st.Size(), text)
		}
	}
}

// fileStart is the first 300 bytes of the file at path (of size bytes) on
// one line, with "..." when there is more.
func fileStart(path string, size int64) (string, bool) {
	f, err := os.Open(path)
	if err != nil {
		return "", false
	}
	buf := make([]byte, 300)
	n, _ := f.Read(buf)
	f.Close()
	text := strings.ReplaceAll(strings.TrimRight(string(buf[:n]), "\n"), "\n", "\\n")
	if size > int64(n) {
		text += "..."
	}
	return text, true
}
