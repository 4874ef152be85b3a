// Package externaltry is the work of 'fgrtbench external try': it runs one
// job of a spec's external method on one fold of one dataset, in the
// foreground, and writes what the adapter received (its files, the
// command line or job message), what it printed, what it returned (its
// outputs, the accuracy, the timings) to one writer, so that an adapter
// can be debugged without running a study.
package externaltry

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fgrtbench/fgrtbench/bench/external"
	"github.com/fgrtbench/fgrtbench/bench/spec"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/datasets"
)

// Options say which job to try and where its account goes.
type Options struct {
	Spec     string // the study specification
	Label    string // the external method's label ("": the spec's only one)
	Dataset  string // "": the spec's first, resolved from the spec's directory
	Protocol string // "": the spec's first
	Fold     int    // the fold of repeat 0 to fit and predict
	Mode     string // process or worker ("": the spec's)
	// Keep is the directory to keep the job's files under; "" shows them,
	// then deletes them.
	Keep string
	// Load reads a dataset named name from path.
	Load func(ctx context.Context, name, path string) (*datasets.Dataset, error)
	Out  io.Writer
}

// Run tries one job as the options say and writes its account to o.Out.
func Run(ctx context.Context, o Options) (retErr error) {
	st, err := spec.LoadContext(ctx, o.Spec)
	if err != nil {
		return err
	}
	ms, err := externalMethod(st, o)
	if err != nil {
		return err
	}
	ext := *ms.External
	if o.Mode != "" {
		ext.Mode = o.Mode
	}
	if ext.Mode == "" {
		ext.Mode = external.ModeProcess
	}
	dir, err := jobParent(o.Keep)
	if err != nil {
		return err
	}
	if o.Keep == "" {
		defer os.RemoveAll(dir)
		defer func() { retErr = deletedFiles(retErr, dir) }()
	}
	ext.KeepDirs = dir
	j := &job{label: ms.ResultLabel(), mode: ext.Mode, dir: dir, keep: o.Keep != ""}
	if err := j.configure(ext, *ms); err != nil {
		return err
	}
	if err := j.loadFold(ctx, o, st); err != nil {
		return err
	}
	return j.run(o.Out)
}

// externalMethod is the external method of st that o names (its only
// one when o names none).
func externalMethod(st study.Study, o Options) (*study.MethodSpec, error) {
	var ms *study.MethodSpec
	var labels []string
	for i, m := range st.Methods {
		if m.External == nil {
			continue
		}
		labels = append(labels, m.ResultLabel())
		if o.Label == m.ResultLabel() || (o.Label == "" && ms == nil) {
			ms = &st.Methods[i]
		}
	}
	switch {
	case len(labels) == 0:
		return nil, fmt.Errorf("%s has no external method", o.Spec)
	case o.Label == "" && len(labels) > 1:
		return nil, fmt.Errorf("%s has several external methods (%s): choose one with --method", o.Spec, strings.Join(labels, ", "))
	case ms == nil:
		return nil, fmt.Errorf("%s has no external method %q (external methods: %s)", o.Spec, o.Label, strings.Join(labels, ", "))
	}
	return ms, nil
}

// jobParent makes the directory the job's own directory goes into, in
// keep (created if need be) or the system's temporary directory, so that
// the job's files can be shown after the run.
func jobParent(keep string) (string, error) {
	if keep != "" {
		if err := os.MkdirAll(keep, 0o755); err != nil {
			return "", err
		}
	}
	return os.MkdirTemp(keep, "try-")
}

// deletedFiles rewords a job's error that says where its files were kept
// when they are deleted on return (under dir): it says that instead.
func deletedFiles(err error, dir string) error {
	var kept *external.KeptError
	if errors.As(err, &kept) && strings.HasPrefix(kept.Dir, dir+string(filepath.Separator)) {
		return fmt.Errorf("%s (the job's files were shown above and deleted; --keep-unit-dirs DIR keeps them)", strings.Replace(err.Error(), " (job files kept in "+kept.Dir+")", "", 1))
	}
	return err
}

// configure makes the method of ext and resolves its configuration: the
// spec's parameters, and the first value of each swept one.
func (j *job) configure(ext external.Spec, ms study.MethodSpec) error {
	m, err := ext.Method()
	if err != nil {
		return fmt.Errorf("method %s: %v", j.label, err)
	}
	overrides := map[string]string{}
	for k, v := range ms.Params {
		overrides[k] = v
	}
	for k, vs := range ms.Sweep {
		if len(vs) > 0 {
			overrides[k] = vs[0]
			j.swept = append(j.swept, k)
		}
	}
	sort.Strings(j.swept)
	if j.cfg, err = m.Resolve(overrides); err != nil {
		return fmt.Errorf("method %s: %v", j.label, err)
	}
	j.method = m
	return nil
}
