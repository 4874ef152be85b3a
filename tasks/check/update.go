package check

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"

	"github.com/fgrtbench/fgrtbench/bench/identity"
	"github.com/fgrtbench/fgrtbench/bench/manifest"
	"github.com/fgrtbench/fgrtbench/bench/outdir"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/gate"
	"github.com/fgrtbench/fgrtbench/results"
)

// update rewrites the baseline from the rows in dir, once they are the
// whole study, re-derived from their artifacts and made by the study the
// baseline will record.
func update(o Options, b *gate.Baseline[study.Study], specStudy *study.Study, dir string, recs []results.Record) (*Outcome, error) {
	if err := updateStudy(b, specStudy, o.Spec, o.Baseline, o.Results); err != nil {
		return nil, err
	}
	if err := complete(b.Study, recs, o.Results); err != nil {
		return nil, err
	}
	if err := rederive(o, dir, recs); err != nil {
		return nil, err
	}
	if err := recordExperiment(b, specStudy, dir); err != nil {
		return nil, err
	}
	if err := b.Update(recs); err != nil {
		return nil, err
	}
	if err := b.Save(o.Baseline); err != nil {
		return nil, err
	}
	return &Outcome{Baseline: b, Updated: true}, nil
}

// updateStudy sets the study a baseline being updated records: --spec's,
// else the one that made --results, else the baseline's own; and where its
// relative paths resolve from, relative to the baseline.
func updateStudy(b *gate.Baseline[study.Study], specStudy *study.Study, specPath, baselinePath, resultsDir string) error {
	switch {
	case specStudy != nil:
		b.Study = *specStudy
		rel, err := relDir(filepath.Dir(baselinePath), filepath.Dir(specPath))
		if err != nil {
			return err
		}
		b.DataDir = rel
	case resultsDir != "":
		// Keep the study that produced the results, so the baseline can
		// re-run itself; its data files are looked for from the
		// baseline's directory (data_dir in the baseline moves them).
		if m, err := manifest.Read(resultsDir); err == nil {
			if s, err := study.FromManifest(m); err == nil {
				b.Study = s
			}
		}
	}
	return nil
}

// relDir is to relative to from, "" when they are one directory.
func relDir(from, to string) (string, error) {
	af, err := filepath.Abs(from)
	if err != nil {
		return "", err
	}
	at, err := filepath.Abs(to)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(af, at)
	if err != nil || rel == "." {
		return "", err
	}
	return filepath.ToSlash(rel), nil
}

// complete refuses to write a baseline from results that miss units of
// the study the baseline will re-run (a shard, a partial merge, failures).
// dir is the results directory ("" for a run check made).
func complete(st study.Study, recs []results.Record, dir string) error {
	if len(st.Methods) == 0 {
		return fmt.Errorf("--update: cannot tell whether %s holds the whole study (no study in its manifest.json); give --spec", dir)
	}
	missing, err := study.MissingUnits(st, recs)
	if err != nil {
		return err
	}
	if len(missing) > 0 {
		units, _ := study.UnitsOf(st)
		where := ""
		if m, err := manifest.Read(dir); dir != "" && err == nil && m.Shard != "" && m.Shard != "all" {
			where = " (" + dir + " is shard " + m.Shard + ")"
		}
		return fmt.Errorf("--update: the results hold %d of the study's %d units%s, e.g. %s is missing; a baseline must be complete: merge every shard (or re-run the failed units) first",
			len(units)-len(missing), len(units), where, missing[0])
	}
	// A unit present with fewer rows than it writes (a run killed while
	// appending it) is incomplete too; the identity knows its row count.
	if m, err := manifest.Read(dir); dir != "" && err == nil && m.Identity != nil {
		return wholeUnits(*m.Identity, recs, dir)
	}
	return nil
}

// wholeUnits refuses results in which a unit that is present lacks some
// of the rows the identity says it writes.
func wholeUnits(id identity.Study, recs []results.Record, dir string) error {
	present := map[string]bool{}
	for _, r := range recs {
		present[r.Key] = true
	}
	if err := outdir.CheckSelected(id, recs, filepath.Join(dir, results.FileName)); err != nil {
		return fmt.Errorf("check --update: %v", err)
	}
	units := id.UnitList()
	for _, i := range outdir.Missing(id, recs) {
		if u := units[i]; present[u.Key] {
			return fmt.Errorf("--update: unit %s in %s lacks some of its %d rows (an interrupted run: resume it first)",
				outdir.UnitName(id, u), dir, id.Groups[u.Group].RowsPerUnit)
		}
	}
	return nil
}

// recordExperiment records in the baseline what made the rows it takes:
// the identity in dir's manifest, which must be of the baseline's study.
func recordExperiment(b *gate.Baseline[study.Study], specStudy *study.Study, dir string) error {
	m, err := manifest.Read(dir)
	if err != nil || m.Identity == nil {
		return fmt.Errorf("--update: %s has no manifest.json with a study identity: the baseline could not record which data and learners made its rows", dir)
	}
	rec := recordOf(*m.Identity)
	for _, name := range slices.Sorted(maps.Keys(rec.Data)) {
		if datasets.ContentOf(rec.Data[name]) == "" {
			return fmt.Errorf("--update: %s identifies dataset %s by a file checksum (%.12s…), as fgrtbench did before it identified data by its table: re-run the study with this version to record the table's identity", dir, name, rec.Data[name])
		}
	}
	want, err := study.IdentityOf(b.Study, nil)
	if err != nil {
		return err
	}
	if canonical(want).Hash != rec.Spec {
		source := "the baseline's"
		if specStudy != nil {
			source = "--spec's"
		}
		return fmt.Errorf("--update: the results in %s were made by another study than %s (%s)", dir, source, studyChange(&gate.Baseline[study.Study]{Study: b.Study, Identity: &gate.Record{}}, *m.Identity).What)
	}
	_, version, _, _ := manifest.BuildInfo()
	b.Identity, b.Fgrtbench = &rec, version
	return nil
}
