package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/fgrtbench/fgrtbench/bench/identity"
	"github.com/fgrtbench/fgrtbench/bench/manifest"
	"github.com/fgrtbench/fgrtbench/bench/outdir"
	"github.com/fgrtbench/fgrtbench/bench/runner"
	"github.com/fgrtbench/fgrtbench/bench/spec"
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
		b, err := gate.Load[runner.Study](*baselinePath)
		if err != nil {
			if !*update || !os.IsNotExist(err) {
				return err
			}
			b = &gate.Baseline[runner.Study]{}
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
		if *resultsDir != "" {
			recs, err = results.ReadFile(filepath.Join(*resultsDir, runner.ResultsFile))
			if err != nil {
				return err
			}
			if !*update {
				if err := sameStudyAsBaseline(b, *resultsDir); err != nil {
					return err
				}
			}
		} else {
			study := b.Study
			if *specPath != "" {
				if study, err = spec.Load(*specPath); err != nil {
					return err
				}
				b.Study = study
			}
			if len(study.Methods) == 0 {
				return fmt.Errorf("%s has no study to run; give --results or --spec", *baselinePath)
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
			if *resultsDir != "" && *specPath == "" {
				// Keep the study that produced the results, so the baseline
				// can re-run itself.
				if study, err := studyFromManifest(*resultsDir); err == nil {
					b.Study = study
				}
			} else if *resultsDir != "" {
				if b.Study, err = spec.Load(*specPath); err != nil {
					return err
				}
			}
			if err := checkComplete(b.Study, recs, *resultsDir); err != nil {
				return err
			}
			if err := rederive(env, *resultsDir, rf.out, recs); err != nil {
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
func studyFromManifest(dir string) (runner.Study, error) {
	m, err := manifest.Read(dir)
	if err != nil {
		return runner.Study{}, err
	}
	return manifestStudy(m)
}

// manifestStudy decodes the study a manifest records (stored untyped, as
// the runner wrote it).
func manifestStudy(m *manifest.Manifest) (runner.Study, error) {
	var s runner.Study
	data, err := json.Marshal(m.Study)
	if err != nil {
		return s, err
	}
	err = json.Unmarshal(data, &s)
	return s, err
}

// restrictToShard keeps the baseline rows of the units in this run's shard,
// and says how many of the baseline's rows the check covers.
func restrictToShard(env *Env, rf *runFlags, b *gate.Baseline[runner.Study], study runner.Study) error {
	shard, err := rf.resolveShard(env)
	if err != nil || shard.All() {
		return err
	}
	units, err := runner.UnitsOf(study)
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
func checkComplete(study runner.Study, recs []results.Record, dir string) error {
	if len(study.Methods) == 0 {
		return fmt.Errorf("--update: cannot tell whether %s holds the whole study (no study in its manifest.json); give --spec", dir)
	}
	missing, err := runner.MissingUnits(study, recs)
	if err != nil {
		return err
	}
	if len(missing) > 0 {
		units, _ := runner.UnitsOf(study)
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
		for _, i := range runner.Missing(*m.Identity, recs) {
			if u := units[i]; present[u.Key] {
				return fmt.Errorf("--update: unit %s in %s lacks some of its %d rows (an interrupted run: resume it first)",
					runner.UnitName(*m.Identity, u), dir, m.Identity.Groups[u.Group].RowsPerUnit)
			}
		}
	}
	return nil
}

// sameStudyAsBaseline refuses results made by another study than the
// baseline's (other options, parameters, data or learner versions): their
// rows would show as moved values when the experiment itself differs. The
// baseline's identity is computed with the checksums of the data the
// results' manifest records.
func sameStudyAsBaseline(b *gate.Baseline[runner.Study], dir string) error {
	m, err := manifest.Read(dir)
	if err != nil || m.Identity == nil || len(b.Study.Methods) == 0 {
		return nil // nothing to compare with: the row comparison stands alone
	}
	checksums := map[string]string{}
	for _, d := range m.Datasets {
		checksums[d.Name] = d.NormalizedSHA256
	}
	want, err := runner.IdentityOf(b.Study, checksums)
	if err != nil {
		return err
	}
	if c := identity.Contains(*m.Identity, want); c != nil {
		if c.Current == "" {
			return fmt.Errorf("the results in %s do not include %s of the baseline's study; check them against a baseline of their own study", dir, c.Slot)
		}
		return fmt.Errorf("the results in %s were made with %s; the baseline's study has %s (%s): they are results of another experiment (update the baseline deliberately with --update)", dir, c.Current, c.Stored, c.Slot)
	}
	return nil
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
