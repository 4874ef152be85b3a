package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/fgrtbench/fgrtbench/bench/outdir"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/results/artifacts"

	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/results"
)

// unitArtifacts holds one unit's predictions and models, one per recorded
// configuration, compressed as they are recorded: the unit keeps neither
// the model nor its scores after add. A nil *unitArtifacts collects
// nothing.
type unitArtifacts struct {
	enc *artifacts.UnitEncoder
}

// add records the configuration ci of a unit from its outcome on fold f.
// xte is the fold's test rows as the model saw them (a clean fold holds
// no matrix of its own: protocol.Fold.Matrices builds them).
func (a *unitArtifacts) add(key string, ci int, s learn.Schema, f protocol.Fold, xte [][]float64, o outcome) error {
	if a == nil {
		return nil
	}
	ps, mr, err := artifacts.FromModel(key, ci, s, o.model, xte, f.TestRows, f.YTest, o.pred, f.Unscale)
	if err == nil {
		err = a.enc.AddSet(ps)
	}
	if err == nil {
		err = a.enc.AddModel(mr)
	}
	if err != nil {
		return fmt.Errorf("%s: artifacts: %w", key, err)
	}
	return nil
}

// artifactsMode decides whether this run keeps artifacts. A directory keeps
// the mode it was started with: one whose results were written without
// artifacts continues without (so that it never holds artifacts for some
// units only), and one with artifacts refuses --no-artifacts.
func artifactsMode(dir string, off bool, existing outdir.Existing) (bool, error) {
	_, perr := os.Stat(filepath.Join(dir, artifacts.PredictionsFile))
	_, merr := os.Stat(filepath.Join(dir, artifacts.ModelsFile))
	has := perr == nil || merr == nil
	switch {
	case has && off:
		return false, fmt.Errorf("%s keeps artifacts (%s, %s): resume it without --no-artifacts, or use another directory",
			dir, artifacts.PredictionsFile, artifacts.ModelsFile)
	case has:
		return true, nil
	case len(existing.Recs) > 0:
		return false, nil
	}
	return !off, nil
}

// scoreClasses lists the distinct class names of the study's datasets, in
// dataset then class order: the score columns of predictions.csv.gz.
func scoreClasses(ctx context.Context, s study.Study, plans *planCache) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, name := range s.Datasets {
		d, err := plans.dataset(ctx, name)
		if err != nil {
			return nil, err
		}
		sc := d.Schema()
		for k := range sc.Classes {
			if c := sc.ClassName(k); !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	return out, nil
}

// dropUnitsWithoutArtifacts removes from existing the rows of the units of
// todo whose artifacts are not whole in both files (an interrupted copy
// cut predictions.csv.gz's tail, a file was removed), so that resume runs
// them again; it returns how many units it dropped. The rows of units
// this run does not own (another shard's) are left as they are.
func dropUnitsWithoutArtifacts(dir string, existing outdir.Existing, todo []study.Unit) (outdir.Existing, int, error) {
	if len(existing.Recs) == 0 {
		return existing, 0, nil
	}
	whole, err := artifacts.WholeUnits(dir)
	if err != nil {
		return existing, 0, err
	}
	ours := map[string]bool{}
	for _, u := range todo {
		ours[u.Key] = true
	}
	dropped := map[string]bool{}
	keep := existing.Recs[:0:0]
	for _, rec := range existing.Recs {
		if ours[rec.Key] && !whole[rec.Key] {
			dropped[rec.Key] = true
			continue
		}
		keep = append(keep, rec)
	}
	if len(dropped) == 0 {
		return existing, 0, nil
	}
	// Truncated makes resume rewrite results.csv without the rows.
	return outdir.Existing{Recs: keep, Truncated: true}, len(dropped), nil
}

// retainArtifacts drops the artifacts of units that resume dropped or
// never recorded in results.csv (a run that died between writing a unit's
// artifacts and its rows), so that those units, run again, appear once.
func retainArtifacts(dir string, existing outdir.Existing, done map[string]bool, todo []study.Unit) error {
	ours := map[string]bool{}
	for _, u := range todo {
		ours[u.Key] = true
	}
	inFile := map[string]bool{}
	for _, r := range existing.Recs {
		inFile[r.Key] = true
	}
	_, err := artifacts.RetainUnits(dir, func(key string) bool {
		if ours[key] {
			return done[key]
		}
		return inFile[key]
	})
	return err
}

// artifactFiles is the run's open artifact files (nil: not kept).
type artifactFiles struct {
	a   *artifacts.Store
	dir string
}

func (r *Runner) openArtifacts(ctx context.Context, s study.Study, plans *planCache, keep bool) (*artifactFiles, error) {
	if !keep {
		return nil, nil
	}
	classes, err := scoreClasses(ctx, s, plans)
	if err != nil {
		return nil, err
	}
	a, _, err := artifacts.Open(r.OutDir, classes)
	if err != nil {
		return nil, &outdir.WriteError{Path: filepath.Join(r.OutDir, artifacts.PredictionsFile), Err: err}
	}
	return &artifactFiles{a: a, dir: r.OutDir}, nil
}

// append writes a unit's artifacts before its rows: a crash in between
// leaves artifacts that resume drops (retainArtifacts).
func (f *artifactFiles) append(u *unitArtifacts) error {
	if f == nil || u == nil {
		return nil
	}
	err := f.a.AppendUnit(u.enc)
	if err == nil {
		err = f.a.Sync() // as durable as the unit's rows, written next
	}
	if err != nil {
		return &outdir.WriteError{Path: filepath.Join(f.dir, artifacts.PredictionsFile), Err: err}
	}
	return nil
}

// writeUnit writes a unit's artifacts, then its rows.
func writeUnit(arts *artifactFiles, f *outdir.Appender, rows []results.Record, ua *unitArtifacts) error {
	if err := arts.append(ua); err != nil {
		return err
	}
	return f.AppendUnit(rows)
}

// finish closes the files and orders their units by key.
func (f *artifactFiles) finish() error {
	if f == nil {
		return nil
	}
	if err := f.a.Finish(); err != nil {
		return &outdir.WriteError{Path: filepath.Join(f.dir, artifacts.PredictionsFile), Err: err}
	}
	return nil
}

// header is the predictions header units are encoded under (nil: no
// artifacts).
func (f *artifactFiles) header() []string {
	if f == nil {
		return nil
	}
	return f.a.Header()
}

func (f *artifactFiles) close() {
	if f != nil {
		f.a.Close()
	}
}
