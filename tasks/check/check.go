// Package check is the work of 'fgrtbench check': it holds a study's
// results (read from a results directory, or made by running the study a
// baseline records) against the committed baseline, row by row and, with
// Paper, against the authors' published numbers; or, with Update, rewrites
// the baseline from them. Before any row it compares the experiment (each
// dataset's table, each learner's version, the study's canonical form)
// with the one the baseline records, and refuses a difference with a
// gate.ChangedError that names it. Predictions compares the stored
// test-row predictions of two results directories.
//
// Running a study is the caller's (its flags, progress and output
// directory): check reaches it through a Runner.
package check

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/fgrtbench/fgrtbench/bench/spec"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/gate"
	"github.com/fgrtbench/fgrtbench/results"
)

// A Runner runs the study check compares when no results are given.
type Runner interface {
	// Shard is the slice of the study's units a run covers.
	Shard() (study.Shard, error)
	// Prepare applies the run's settings that change the study (its
	// missing-value policy), before its identity is compared.
	Prepare(s *study.Study) error
	// Run runs s into the directory out, vetting each dataset with
	// checkData (when not nil) as it loads, before any unit runs.
	Run(ctx context.Context, s study.Study, out string, checkData func(name string, d *datasets.Dataset) error) error
}

// Options say what to check against which baseline.
type Options struct {
	Baseline string // the baseline's JSON file
	Results  string // a results directory to check; "" runs the study
	Spec     string // a study to run (or, with Update, to record) instead of the baseline's own
	Out      string // where the study runs; "" a temporary directory, removed afterwards
	Update   bool   // rewrite the baseline from the results instead of comparing
	Paper    bool   // also compare with the authors' published numbers
	// TimingRatio flags fit times above this multiple of the baseline's
	// (0: timing is ignored).
	TimingRatio float64
	Runner      Runner
	// Note receives what check says on the side (a note, the part of the
	// baseline a shard covers, results without artifacts).
	Note func(string)
}

// An Outcome is what check found. With Updated, the baseline was
// rewritten from the results; otherwise Diffs are the rows that differ
// from it and Paper the paper-protocol cells compared with the authors'.
type Outcome struct {
	Baseline *gate.Baseline[study.Study]
	Updated  bool
	Diffs    []gate.Diff
	Paper    []gate.PaperDiff
}

// errMoved is the failure of a check whose rows moved: the table says how.
var errMoved = errors.New("results moved; see the table above (update a baseline deliberately with --update)")

// Run checks the results against the baseline, or updates it. The
// Outcome comes back with the error that its rows moved or a paper
// comparison failed, so that the caller can show them first.
func Run(ctx context.Context, o Options) (*Outcome, error) {
	b, err := loadBaseline(o)
	if err != nil {
		return nil, err
	}
	var specStudy *study.Study
	if o.Spec != "" {
		s, err := spec.LoadContext(ctx, o.Spec)
		if err != nil {
			return nil, err
		}
		specStudy = &s
	}
	recs, dir, cleanup, err := gather(ctx, o, b, specStudy)
	defer cleanup()
	if err != nil {
		return nil, err
	}
	if o.Update {
		return update(o, b, specStudy, dir, recs)
	}
	if err := rederive(o, dir, recs); err != nil {
		return nil, err
	}
	return compare(o, b, recs)
}

// loadBaseline reads the baseline (a missing one is empty for Update),
// resolves its study's relative paths from its directory, and refuses a
// baseline that records no experiment before anything is compared.
func loadBaseline(o Options) (*gate.Baseline[study.Study], error) {
	b, err := gate.Load[study.Study](o.Baseline)
	if err != nil {
		if !o.Update || !os.IsNotExist(err) {
			return nil, err
		}
		b = &gate.Baseline[study.Study]{}
	}
	// The baseline's relative paths mean the same from any directory.
	setStudyDir(&b.Study, filepath.Join(filepath.Dir(o.Baseline), b.DataDir))
	if o.Update {
		if o.Results == "" {
			return b, wholeStudyOnly(o.Runner)
		}
		return b, nil
	}
	if b.Identity == nil {
		return nil, &gate.ChangedError{Changes: []gate.Change{{Kind: gate.StudyChanged,
			What: o.Baseline + " records no identity of its data, learners and study (a baseline of an earlier fgrtbench): record it once with --update and review the diff"}}}
	}
	noteOtherBuild(o, b)
	return b, nil
}

// wholeStudyOnly refuses to update a baseline from a shard's run before
// it runs: a baseline is the whole study.
func wholeStudyOnly(r Runner) error {
	shard, err := r.Shard()
	if err != nil {
		return err
	}
	if !shard.All() {
		return fmt.Errorf("--update: this is shard %s of the study; a baseline must hold every unit: run it unsharded (--shard 0/1), or merge the shards and use --results", shard)
	}
	return nil
}

// gather reads the results from Options.Results, or runs the study into
// Options.Out (a temporary directory when ""); it returns them with the
// directory they are in and what removes a temporary one.
func gather(ctx context.Context, o Options, b *gate.Baseline[study.Study], specStudy *study.Study) (recs []results.Record, dir string, cleanup func(), err error) {
	cleanup = func() {}
	if o.Results != "" {
		recs, err = results.ReadFile(filepath.Join(o.Results, results.FileName))
		if err == nil && !o.Update {
			// What made the results, against what the baseline
			// records, before any row.
			err = sameExperiment(b, o.Results, recs)
		}
		return recs, o.Results, cleanup, err
	}
	s := b.Study
	if specStudy != nil {
		s = *specStudy
	}
	if len(s.Methods) == 0 {
		return nil, "", cleanup, fmt.Errorf("%s has no study to run; give --results or --spec", o.Baseline)
	}
	if err := o.Runner.Prepare(&s); err != nil {
		return nil, "", cleanup, err
	}
	var vet *experimentVet
	var checkData func(string, *datasets.Dataset) error
	if !o.Update {
		// The study and its learners before running it; each dataset as
		// it is loaded, before any unit runs; every difference named at
		// once (experimentVet).
		changes, err := studyChanges(b, s, specStudy == nil)
		if err != nil {
			return nil, "", cleanup, err
		}
		vet = newExperimentVet(b, s, changes)
		checkData = vet.checkData
	}
	dir = o.Out
	if dir == "" {
		if dir, err = os.MkdirTemp("", "fgrtbench-check-*"); err != nil {
			return nil, "", cleanup, err
		}
		cleanup = func() { os.RemoveAll(dir) }
	}
	recs, err = runStudy(ctx, o, b, s, dir, checkData)
	if vet != nil && ctx.Err() == nil {
		if refused := vet.refusal(); refused != nil {
			return nil, dir, cleanup, refused
		}
	}
	return recs, dir, cleanup, err
}

// runStudy runs s into dir and reads the rows it wrote; a shard's check
// keeps only the baseline rows of its units.
func runStudy(ctx context.Context, o Options, b *gate.Baseline[study.Study], s study.Study, dir string, checkData func(string, *datasets.Dataset) error) ([]results.Record, error) {
	if err := o.Runner.Run(ctx, s, dir, checkData); err != nil {
		return nil, err
	}
	if !o.Update {
		// A shard ran a slice of the study: compare the baseline rows of
		// its units only (the others are not missing, just elsewhere),
		// and say so.
		if err := restrictToShard(o, b, s); err != nil {
			return nil, err
		}
	}
	return results.ReadFile(filepath.Join(dir, results.FileName))
}

// compare holds the rows to the baseline's (and, with Paper, the
// paper-protocol cells to the authors' numbers).
func compare(o Options, b *gate.Baseline[study.Study], recs []results.Record) (*Outcome, error) {
	out := &Outcome{Baseline: b, Diffs: gate.Compare(b, recs, gate.Options{TimingRatio: o.TimingRatio})}
	failed := gate.Regressions(out.Diffs) > 0
	if o.Paper {
		pd, err := paperCompare(recs, b.PaperNotes)
		if err != nil {
			return out, err
		}
		if len(pd) == 0 {
			return out, fmt.Errorf("--paper: the results hold no paper-protocol rows of fgrt, fgrt-opt, cart or c45-entropy")
		}
		out.Paper = pd
		for _, d := range pd {
			failed = failed || !d.Explained
		}
	}
	if failed {
		return out, errMoved
	}
	return out, nil
}

// rederive holds the rows check compares to their directory's artifacts.
// A directory without artifacts is said so, never silently.
func rederive(o Options, dir string, recs []results.Record) error {
	_, _, present, err := results.ReadArtifacts(dir, recs)
	if err == nil && !present {
		o.Note(fmt.Sprintf("%s keeps no artifacts (run with --no-artifacts): its rows are checked without re-deriving them from predictions and models", dir))
	}
	return err
}
