package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fgrtbench/fgrtbench/bench/identity"
	"github.com/fgrtbench/fgrtbench/bench/manifest"
	"github.com/fgrtbench/fgrtbench/bench/outdir"
	"github.com/fgrtbench/fgrtbench/bench/runner"
	"github.com/fgrtbench/fgrtbench/bench/spec"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/gate"
	"github.com/fgrtbench/fgrtbench/results"
)

func init() { register(checkCommand) }

func checkCommand() *Command {
	c := &Command{Name: "check", Short: "compare results with a committed baseline (and the authors' numbers); non-zero exit on regression",
		UsageLine: "--baseline FILE [--results DIR | --spec FILE] [--update] [--paper] [flags] | --predictions --results DIR --against REFDIR",
		Long: `Check compares results with a committed baseline row by row and exits
non-zero when an accuracy moved (with --timing-ratio, also when a fit
slowed). It reads the results from --results, or, without --results, runs
the baseline's own study (or --spec) into --out, a temporary directory
removed afterwards unless --out is given. --update rewrites the baseline
from the results instead; --paper also compares with the authors' numbers.

Before any row, check compares the experiment with the one the baseline
records: each dataset's table (its content identity), each learner's
version and the study's canonical form. A difference is named and exits
with its own status, before any row is compared:

  0  every row matches (within declared tolerances)
  1  results moved (the table says which), or check could not run
  2  usage error
  3  data changed: a dataset's table is not the baseline's
  4  learner changed: a learner's version is not the baseline's
  5  study changed: another study (options, methods, configurations,
     datasets), or a baseline that records no experiment (an earlier
     fgrtbench)

The study and the learners are compared before the study runs, each
dataset as it loads; with several differences found together, the lowest
status wins. --update is the only way to accept a change. Relative paths in the baseline's study resolve from the baseline's
directory (data_dir in the baseline moves them), so check means the same
from any working directory.

--predictions --results DIR --against REFDIR compares the stored test-row
predictions (predictions.csv.gz) of two results directories instead and
lists every row whose predicted label changed (key, config, row, old ->
new), for the deterministic methods: a change that leaves every accuracy
unchanged still fails. Scores and timing are not compared.`}
	fs := &c.Flag
	var rf runFlags
	rf.add(fs, "")
	baselinePath := fs.String("baseline", "", "baseline JSON file")
	resultsDir := fs.String("results", "", "read results from this directory instead of running the baseline's study")
	specPath := fs.String("spec", "", "run this study instead of the baseline's own")
	update := fs.Bool("update", false, "rewrite the baseline's rows from the results (review the diff before committing)")
	paper := fs.Bool("paper", false, "also compare paper-protocol FGRT, FGRT*, CART and C4.5 with the authors' published numbers")
	timing := fs.Float64("timing-ratio", 0, "also flag fit times above this multiple of the baseline's, at least 1 (without it, timing is ignored)")
	limit := fs.Int("limit", 40, "print at most this many differences (0 = all)")
	preds := fs.Bool("predictions", false, "compare the stored predictions of --results with those of --against, row by row (deterministic methods); no baseline")
	against := fs.String("against", "", "with --predictions: the reference results directory")
	c.Run = func(ctx context.Context, env *Env, args []string) error {
		if *preds || *against != "" {
			if !*preds || *resultsDir == "" || *against == "" {
				return usageError("--predictions needs --results DIR and --against REFDIR")
			}
			return checkPredictions(env, *resultsDir, *against, *limit)
		}
		if *baselinePath == "" {
			return usageError("--baseline is required")
		}
		if *resultsDir != "" && *specPath != "" && !*update {
			// Nothing runs: the spec would be silently ignored.
			return fmt.Errorf("--spec names a study to run, but --results reads results instead (with --update, --spec names the study the new baseline records)")
		}
		b, err := gate.Load[study.Study](*baselinePath)
		if err != nil {
			if !*update || !os.IsNotExist(err) {
				return err
			}
			b = &gate.Baseline[study.Study]{}
		}
		// The baseline's relative paths mean the same from any directory.
		baseDir := filepath.Dir(*baselinePath)
		setStudyDir(&b.Study, filepath.Join(baseDir, b.DataDir))
		if !*update {
			if b.Identity == nil {
				return &gate.ChangedError{Changes: []gate.Change{{Kind: gate.StudyChanged,
					What: *baselinePath + " records no identity of its data, learners and study (a baseline of an earlier fgrtbench): record it once with --update and review the diff"}}}
			}
			// A development build's "(devel)" says nothing to compare.
			if _, version, _, _ := manifest.BuildInfo(); b.Fgrtbench != "" && b.Fgrtbench != "(devel)" && version != "(devel)" && b.Fgrtbench != version {
				fmt.Fprintf(env.Stderr, "fgrtbench check: note: %s was written by fgrtbench %s, this is %s (learners are compared by their own versions)\n", *baselinePath, b.Fgrtbench, version)
			}
		}
		if *update && *resultsDir == "" {
			// A baseline is the whole study: refuse before running a slice of it.
			if shard, err := rf.resolveShard(env); err != nil {
				return err
			} else if !shard.All() {
				return fmt.Errorf("--update: this is shard %s of the study; a baseline must hold every unit: run it unsharded (--shard 0/1), or merge the shards and use --results", shard)
			}
		}
		var recs []results.Record
		var specStudy *study.Study
		if *specPath != "" {
			s, err := spec.Load(*specPath)
			if err != nil {
				return err
			}
			specStudy = &s
		}
		if *resultsDir != "" {
			recs, err = results.ReadFile(filepath.Join(*resultsDir, runner.ResultsFile))
			if err != nil {
				return err
			}
			if !*update {
				// What made the results, against what the baseline records,
				// before any row.
				if err := sameExperiment(b, *resultsDir); err != nil {
					return err
				}
			}
		} else {
			study := b.Study
			if specStudy != nil {
				study = *specStudy
			}
			if len(study.Methods) == 0 {
				return fmt.Errorf("%s has no study to run; give --results or --spec", *baselinePath)
			}
			if err := rf.applyMissing(&study); err != nil {
				return err
			}
			if !*update {
				// The study and its learners before running it; each
				// dataset as it is loaded, before any unit runs.
				if err := sameStudy(b, study, specStudy == nil); err != nil {
					return err
				}
				rf.checkData = func(name string, d *datasets.Dataset) error {
					return sameData(b, name, datasets.Identity(d))
				}
			}
			if rf.out == "" {
				dir, err := os.MkdirTemp("", "fgrtbench-check-*")
				if err != nil {
					return err
				}
				defer os.RemoveAll(dir)
				rf.out = dir
			}
			if _, err := execute(ctx, env, &rf, study); err != nil {
				return err
			}
			if !*update {
				// A shard ran a slice of the study: compare the baseline
				// rows of its units only (the others are not missing, just
				// elsewhere), and say so.
				if err := restrictToShard(env, &rf, b, study); err != nil {
					return err
				}
			}
			if recs, err = results.ReadFile(filepath.Join(rf.out, runner.ResultsFile)); err != nil {
				return err
			}
		}
		if *update {
			dir := *resultsDir
			if dir == "" {
				dir = rf.out
			}
			if err := updateStudy(b, specStudy, *specPath, *baselinePath, *resultsDir); err != nil {
				return err
			}
			if err := checkComplete(b.Study, recs, *resultsDir); err != nil {
				return err
			}
			if err := rederive(env, *resultsDir, rf.out, recs); err != nil {
				return err
			}
			if err := recordExperiment(b, specStudy, dir); err != nil {
				return err
			}
			if err := b.Update(recs); err != nil {
				return err
			}
			if err := b.Save(*baselinePath); err != nil {
				return err
			}
			fmt.Fprintf(env.Stdout, "updated %s with %d rows; review 'git diff %s' before committing\n", *baselinePath, len(b.Rows), *baselinePath)
			return nil
		}
		if err := rederive(env, *resultsDir, rf.out, recs); err != nil {
			return err
		}
		diffs := gate.Compare(b, recs, gate.Options{TimingRatio: *timing})
		failed := gate.Regressions(diffs) > 0
		if len(diffs) > 0 {
			gate.WriteTable(env.Stdout, diffs, *limit)
		}
		fmt.Fprintln(env.Stdout, gate.Summary(b, diffs))
		if *paper {
			pd, err := paperCompare(recs, b.PaperNotes)
			if err != nil {
				return err
			}
			if len(pd) == 0 {
				return fmt.Errorf("--paper: the results hold no paper-protocol rows of fgrt, fgrt-opt, cart or c45-entropy")
			}
			gate.WritePaperTable(env.Stdout, pd)
			for _, d := range pd {
				if !d.Explained {
					failed = true
				}
			}
		}
		if failed {
			return fmt.Errorf("results moved; see the table above (update a baseline deliberately with --update)")
		}
		return nil
	}
	return c
}

// studyFromManifest recovers the study recorded in a run's manifest.
func studyFromManifest(dir string) (study.Study, error) {
	m, err := manifest.Read(dir)
	if err != nil {
		return study.Study{}, err
	}
	return manifestStudy(m)
}

// manifestStudy decodes the study a manifest records (stored untyped, as
// the runner wrote it).
func manifestStudy(m *manifest.Manifest) (study.Study, error) {
	var s study.Study
	data, err := json.Marshal(m.Study)
	if err != nil {
		return s, err
	}
	err = json.Unmarshal(data, &s)
	return s, err
}

// restrictToShard keeps the baseline rows of the units in this run's shard,
// and says how many of the baseline's rows the check covers.
func restrictToShard(env *Env, rf *runFlags, b *gate.Baseline[study.Study], st study.Study) error {
	shard, err := rf.resolveShard(env)
	if err != nil || shard.All() {
		return err
	}
	units, err := study.UnitsOf(st)
	if err != nil {
		return err
	}
	in := map[string]bool{}
	for i, u := range units {
		if shard.Contains(i) {
			in[fmt.Sprintf("%s/%s/%s/%d/%d", u.Protocol, u.Dataset, u.Label, u.Repeat, u.Fold)] = true
		}
	}
	var kept []gate.Row
	for _, r := range b.Rows {
		if in[fmt.Sprintf("%s/%s/%s/%d/%d", r.Protocol, r.Dataset, r.Method, r.Repeat, r.Fold)] {
			kept = append(kept, r)
		}
	}
	fmt.Fprintf(env.Stderr, "fgrtbench check: shard %s: comparing the %d of the baseline's %d rows that belong to its units; the other shards check the rest\n",
		shard, len(kept), len(b.Rows))
	b.Rows = kept
	return nil
}

// checkComplete refuses to write a baseline from results that miss units of
// the study the baseline will re-run (a shard, a partial merge, failures).
func checkComplete(st study.Study, recs []results.Record, dir string) error {
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
		present := map[string]bool{}
		for _, r := range recs {
			present[r.Key] = true
		}
		if err := outdir.CheckSelected(*m.Identity, recs, filepath.Join(dir, runner.ResultsFile)); err != nil {
			return fmt.Errorf("check --update: %v", err)
		}
		units := m.Identity.UnitList()
		for _, i := range outdir.Missing(*m.Identity, recs) {
			if u := units[i]; present[u.Key] {
				return fmt.Errorf("--update: unit %s in %s lacks some of its %d rows (an interrupted run: resume it first)",
					outdir.UnitName(*m.Identity, u), dir, m.Identity.Groups[u.Group].RowsPerUnit)
			}
		}
	}
	return nil
}

// setStudyDir makes the study's relative paths (data files, external
// commands and adapters) resolve from dir.
func setStudyDir(s *study.Study, dir string) {
	s.DataDir = dir
	for _, m := range s.Methods {
		if m.External != nil {
			m.External.BaseDir = dir
		}
	}
}

// canonical is a study's identity without the data and the learner
// versions (which a baseline records apart), rehashed: equal for two
// studies exactly when they are one study of (maybe) other data or
// learner versions.
func canonical(id identity.Study) identity.Study {
	groups := make([]identity.Group, len(id.Groups))
	for i, g := range id.Groups {
		g.DatasetSHA256, g.MethodVersion, g.Hash = "", 0, ""
		groups[i] = g
	}
	return identity.NewStudy(groups)
}

// recordOf is the record of the experiment a study identity describes.
func recordOf(id identity.Study) gate.Record {
	r := gate.Record{Data: map[string]string{}, Learners: map[string]gate.Learner{}, Spec: canonical(id).Hash}
	for _, g := range id.Groups {
		if g.DatasetSHA256 != "" {
			r.Data[g.Dataset] = g.DatasetSHA256
		}
		r.Learners[g.Label] = gate.Learner{Method: g.Method, Version: g.MethodVersion}
	}
	return r
}

// studyChange names how the study checked (cur) differs from the
// baseline's: the first slot (protocol/dataset/label) that differs, with
// what differs in it, or, when the baseline's own study no longer resolves
// to the canonical form it recorded, that.
func studyChange(b *gate.Baseline[study.Study], cur identity.Study) gate.Change {
	change := func(what string) gate.Change { return gate.Change{Kind: gate.StudyChanged, What: what} }
	base, err := study.IdentityOf(b.Study, nil)
	if err != nil {
		return change("the baseline's study no longer resolves: " + err.Error())
	}
	was, now := canonical(base), canonical(cur)
	if c := identity.Contains(now, was); c != nil {
		if c.Current == "" {
			return change(fmt.Sprintf("the baseline's study has %s, the checked one has not", c.Slot))
		}
		return change(fmt.Sprintf("%s: %s in the baseline, %s now", c.Slot, c.Stored, c.Current))
	}
	if c := identity.Contains(was, now); c != nil {
		return change(fmt.Sprintf("the checked study has %s, the baseline's has not", c.Slot))
	}
	return change(fmt.Sprintf("this build resolves the baseline's own study to canonical form %.20s…, the baseline recorded %.20s… (a default, a grid or the identity rules changed)", was.Hash, b.Identity.Spec))
}

// sameStudy compares the study check is about to run (and the learners
// this build would run it with) with the baseline's record, before
// anything runs. own says it is the baseline's own study.
func sameStudy(b *gate.Baseline[study.Study], s study.Study, own bool) error {
	id, err := study.IdentityOf(s, nil)
	if err != nil {
		return err
	}
	cur := recordOf(id)
	cur.Data = nil // compared as each dataset loads (sameData)
	changes := gate.CompareRecords(*b.Identity, cur)
	for i, c := range changes {
		if c.Kind == gate.StudyChanged && cur.Spec != b.Identity.Spec {
			changes[i] = studyChange(b, id)
			if own && !strings.HasPrefix(changes[i].What, "this build resolves") {
				changes[i].What = "the baseline's own study: " + changes[i].What
			}
		}
	}
	if len(changes) > 0 {
		return &gate.ChangedError{Changes: changes}
	}
	return nil
}

// sameData refuses a dataset whose table is not the one the baseline
// records (datasets.Identity: a byte-level difference that leaves the table
// the same passes, an edited value does not).
func sameData(b *gate.Baseline[study.Study], name, id string) error {
	want, ok := b.Identity.Data[name]
	if ok && want == id {
		return nil
	}
	base := gate.Record{Data: map[string]string{}}
	if ok {
		base.Data[name] = want
	}
	return &gate.ChangedError{Changes: gate.CompareRecords(base, gate.Record{Data: map[string]string{name: id}})}
}

// sameExperiment refuses results made by another experiment than the
// baseline records (other data, learner versions or study): their rows
// would show as moved values, or pass, when the experiment itself differs.
// The manifest's identity says what made them.
func sameExperiment(b *gate.Baseline[study.Study], dir string) error {
	m, err := manifest.Read(dir)
	if err != nil {
		return fmt.Errorf("%s: cannot tell which data and learners made these results (%v); check a results directory with its manifest.json", dir, err)
	}
	if m.Identity == nil {
		return fmt.Errorf("%s: its manifest.json records no study identity (an earlier fgrtbench): cannot tell which data and learners made these results; re-run the study", dir)
	}
	cur := recordOf(*m.Identity)
	changes := gate.CompareRecords(*b.Identity, cur)
	for i, c := range changes {
		if c.Kind == gate.StudyChanged && cur.Spec != b.Identity.Spec {
			changes[i] = studyChange(b, *m.Identity)
		}
	}
	if len(changes) > 0 {
		return &gate.ChangedError{Changes: changes}
	}
	return nil
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
		if study, err := studyFromManifest(resultsDir); err == nil {
			b.Study = study
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
		return fmt.Errorf("--update: the results in %s were made by another study than %s (%s)", dir, describeStudySource(specStudy), studyChange(&gate.Baseline[study.Study]{Study: b.Study, Identity: &gate.Record{}}, *m.Identity).What)
	}
	_, version, _, _ := manifest.BuildInfo()
	b.Identity, b.Fgrtbench = &rec, version
	return nil
}

func describeStudySource(specStudy *study.Study) string {
	if specStudy != nil {
		return "--spec's"
	}
	return "the baseline's"
}

// checkPredictions compares the predictions of dir with those of ref, both
// re-derived against their own results.csv first; it fails on any changed
// row of a deterministic method.
func checkPredictions(env *Env, dir, ref string, limit int) error {
	read := func(d string) (storedArtifacts, []results.Record, error) {
		recs, err := results.ReadFile(filepath.Join(d, runner.ResultsFile))
		if err != nil {
			return storedArtifacts{}, nil, err
		}
		a, err := readArtifacts(d, recs)
		if err == nil && !a.present {
			err = fmt.Errorf("%s has no %s (run with --no-artifacts): nothing to compare", d, results.PredictionsFile)
		}
		// The models were needed to check the directory against its
		// results.csv, not for the comparison: on large data (deep trees)
		// they are hundreds of MB that the second read can reuse.
		a.models = results.Models{}
		return a, recs, err
	}
	cur, recs, err := read(dir)
	if err != nil {
		return err
	}
	was, _, err := read(ref)
	if err != nil {
		return err
	}
	m, _ := manifest.Read(dir)
	stochastic := stochasticOf(m)
	bases := map[string]string{}
	if m != nil {
		bases = methodBases(m)
	}
	label := map[string]string{}
	for _, r := range recs {
		label[r.Key] = r.Method
	}
	deterministic := func(key string) bool {
		l := label[key]
		return !stochastic[l] && !stochastic[bases[l]]
	}
	diffs, compared, skipped := gate.ComparePredictions(was.predictions, cur.predictions, deterministic)
	if len(diffs) > 0 {
		gate.WritePredictionTable(env.Stdout, diffs, limit)
	}
	note := ""
	if skipped > 0 {
		note = fmt.Sprintf("; %d rows of stochastic methods not compared", skipped)
	}
	fmt.Fprintf(env.Stdout, "predictions: %d of %d compared rows differ%s\n", len(diffs), compared, note)
	if len(diffs) > 0 {
		return fmt.Errorf("predictions changed; see the table above")
	}
	return nil
}

// rederive holds the rows check compares (from --results, else from the
// run it made) to their directory's artifacts. A directory without
// artifacts is said so on stderr, never silently.
func rederive(env *Env, resultsDir, out string, recs []results.Record) error {
	dir := resultsDir
	if dir == "" {
		dir = out
	}
	a, err := readArtifacts(dir, recs)
	if err == nil && !a.present {
		fmt.Fprintf(env.Stderr, "fgrtbench check: %s keeps no artifacts (run with --no-artifacts): its rows are checked without re-deriving them from predictions and models\n", dir)
	}
	return err
}
