// Package reporting is the work of the report and plot commands: it reads a
// results directory (results.csv, manifest.json and the stored artifacts),
// refuses one whose rows are not its study's, computes the study's one
// analysis and renders every view of it (figures, tables, REPORT.md,
// analysis.json and the HTML page) into DIR/report.
package reporting

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/bench/manifest"
	"github.com/fgrtbench/fgrtbench/internal/owned"
	"github.com/fgrtbench/fgrtbench/plots"
	"github.com/fgrtbench/fgrtbench/reports"
	"github.com/fgrtbench/fgrtbench/results"
	"github.com/fgrtbench/fgrtbench/results/artifacts"
)

// Options are the report's statistics options and where its notes go.
type Options struct {
	// Reference compares every method with this label only ("" = every
	// pair); Rope is the Bayesian tests' region of practical equivalence
	// (0 = the analysis's default).
	Reference string
	Rope      float64
	// RankBaselines ranks the baselines (the majority-class baseline and
	// methods a spec declares baseline: true) with the competitors;
	// KeepDuplicates ranks apart labels with identical results on every
	// fold. By default neither is (analysis.Options).
	RankBaselines  bool
	KeepDuplicates bool
	// Threads is the report's thread budget (its -j; 0 or 1: one thread):
	// the protocols' tests and the figures use up to that many at once.
	// The report does not depend on it.
	Threads int
	// Warn receives each note for the user (a partial study, the
	// analysis's warnings, a figure that could not be drawn); nil drops
	// them.
	Warn func(string)
}

// ErrInterrupted and ErrInterruptedAfterFigures are Render's errors when a
// signal stops it; both are context.Canceled to errors.Is.
var (
	ErrInterrupted             error = interrupted("interrupted before the report was written; the previous report, if any, is as it was")
	ErrInterruptedAfterFigures error = interrupted("interrupted after the report's figures were drawn; its tables and REPORT.md are the previous render's: run report again")
	// ErrPlotInterrupted is PlotAll's.
	ErrPlotInterrupted error = interrupted("interrupted before any figure was drawn")
)

// interrupted is a stop by a signal, worded for the user.
type interrupted string

func (e interrupted) Error() string        { return string(e) }
func (e interrupted) Is(target error) bool { return target == context.Canceled }

func (o Options) warn(msg string) {
	if o.Warn != nil {
		o.Warn(msg)
	}
}

// Render writes DIR/report from DIR/results.csv (and the manifest, when
// present) and returns the path of REPORT.md and the analysis every view of
// it rendered (the terminal's headline renders it too). Every reader
// re-derives n_test, correct and rules from the artifacts: a directory where
// they disagree with results.csv is refused, not reported.
//
// Once ctx is done (a first SIGINT or SIGTERM) Render stops before its next
// step with ErrInterrupted: before the figures, the previous report is
// left as it was; between the figures and the tables, the figures are
// new and the rest (REPORT.md included) is the previous render's.
func Render(ctx context.Context, dir string, o Options) (string, *analysis.Analysis, error) {
	stopped := func() error {
		if ctx.Err() != nil {
			return ErrInterrupted
		}
		return nil
	}
	if err := stopped(); err != nil {
		return "", nil, err
	}
	if err := reports.CheckDirs(dir); err != nil {
		return "", nil, err
	}
	defer artifactsGC(dir)()
	recs, err := results.ReadFile(filepath.Join(dir, results.FileName))
	if err != nil {
		return "", nil, err
	}
	if err := stopped(); err != nil {
		return "", nil, err
	}
	m, partial, facts, err := readManifest(dir, recs, o)
	if err != nil {
		return "", nil, err
	}
	if err := stopped(); err != nil {
		return "", nil, err
	}
	fact := artifactsFact(false, artifacts.Predictions{}, artifacts.Models{})
	load := func() (*analysis.Artifacts, error) {
		p, m, present, err := artifacts.Read(dir, recs)
		if err != nil || !present {
			return nil, err
		}
		fact = artifactsFact(present, p, m)
		return &analysis.Artifacts{Predictions: p, Models: m}, nil
	}
	a, err := analyse(recs, m, partial, o, load)
	if err != nil {
		return "", nil, err
	}
	if err := stopped(); err != nil {
		return "", nil, err
	}
	for _, w := range a.Warnings {
		o.warn(w)
	}
	opts := reports.Options{Dir: dir, Facts: append(facts, fact), Analysis: a}
	if opts.Datasets, err = datasetRows(a); err != nil {
		return "", nil, err
	}
	if opts.Figures, err = renderFigures(dir, a, o.Threads); err != nil {
		if fatalFigureError(err) {
			return "", nil, err
		}
		o.warn("figures: " + err.Error())
		opts.FiguresError = err.Error()
	}
	if err := stopped(); err != nil {
		return "", nil, ErrInterruptedAfterFigures
	}
	rep, err := writeFiles(opts, m)
	if err != nil {
		return "", nil, err
	}
	return filepath.Join(rep.Dir, "REPORT.md"), a, nil
}

// fatalFigureError tells the figure errors that stop the report (a write
// error such as a full disk, or a file of the user's in the way of a
// figure) from those the report records and goes on.
func fatalFigureError(err error) bool {
	var pathErr *fs.PathError
	return errors.As(err, &pathErr) || owned.IsRefusal(err)
}

// readManifest reads dir's manifest and returns it (nil when absent), how
// the results fall short of its study ("" when they do not) and the
// report's run facts. Results with rows of another study are refused.
func readManifest(dir string, recs []results.Record, o Options) (*manifest.Manifest, string, []reports.Fact, error) {
	m, err := manifest.Read(dir)
	if err != nil {
		partial, facts := absentManifest(dir, err)
		if partial != "" {
			o.warn(dir + " holds " + partial + "; the report says so")
		}
		return nil, partial, facts, nil
	}
	if err := onlyStudyRows(dir, m, recs); err != nil {
		return nil, "", nil, err
	}
	partial := partialNote(m, recs)
	if partial != "" {
		o.warn(dir + " holds " + partial + "; the report says so")
	}
	return m, partial, manifestFacts(m, partial), nil
}

// renderFigures draws the figures the analysis supports into
// DIR/report/figures; paths come back relative to DIR/report.
func renderFigures(dir string, a *analysis.Analysis, threads int) ([]reports.Figure, error) {
	in, err := figureInputs(dir, a, results.Presentation{})
	in.Threads = threads
	var figs []plots.Figure
	if err == nil {
		figs, err = plots.RenderAll(filepath.Join(dir, "report", "figures"), in)
	}
	out := make([]reports.Figure, 0, len(figs))
	for _, f := range figs {
		out = append(out, reports.Figure{Path: filepath.Join("report", f.Path), Caption: f.Caption})
	}
	return out, err
}
