package runner

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/manifest"
	"github.com/fgrtbench/fgrtbench/bench/outdir"
	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/results"
	"github.com/fgrtbench/fgrtbench/results/artifacts"
)

// sameArtifacts fails unless two directories hold byte-identical artifacts.
func sameArtifacts(t *testing.T, a, b, what string) {
	t.Helper()
	for _, n := range []string{artifacts.PredictionsFile, artifacts.ModelsFile} {
		x, errA := os.ReadFile(filepath.Join(a, n))
		y, errB := os.ReadFile(filepath.Join(b, n))
		if errA != nil || errB != nil {
			t.Fatalf("%s: %v %v", what, errA, errB)
		}
		if !bytes.Equal(x, y) {
			t.Fatalf("%s: %s differs", what, n)
		}
	}
}

// readChecked reads a directory's artifacts, cross-checked against its
// results.csv.
func readChecked(t *testing.T, dir string) (artifacts.Predictions, artifacts.Models) {
	t.Helper()
	recs, err := results.ReadFile(filepath.Join(dir, results.FileName))
	if err != nil {
		t.Fatal(err)
	}
	p, m, present, err := artifacts.Read(dir, recs)
	if err != nil || !present {
		t.Fatalf("artifacts of %s: present %v, %v", dir, present, err)
	}
	return p, m
}

func TestArtifactsIndependentOfJobs(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	runStudy(t, a, 1, study.Shard{})
	runStudy(t, b, 2, study.Shard{})
	sameArtifacts(t, a, b, "-j1 and -j2")
	p, m := readChecked(t, a)
	if len(m.Units) != 60 || len(p.Units) != 60 {
		t.Fatalf("%d and %d units in the artifacts, want 60", len(m.Units), len(p.Units))
	}
	if got := strings.Join(p.ScoreClasses, ","); got != "a,b,c" {
		t.Errorf("score classes %s", got)
	}
	// Every file row is tested once per (method, configuration, repeat):
	// the rows name the dataset's rows.
	count := map[string]int{}
	for _, r := range p.Rows {
		parts := strings.Split(r.Key, "/")
		count[fmt.Sprintf("%s|%d|%s|%d", r.Key[:strings.LastIndex(r.Key, "/f")], r.ConfigIndex, parts[1], r.Row)]++
	}
	for k, n := range count {
		if n != 1 {
			t.Fatalf("%s tested %d times", k, n)
		}
	}
	man, err := manifest.Read(a)
	if err != nil || man.Artifacts != outdir.ArtifactsKept {
		t.Errorf("manifest artifacts %q, %v", man.Artifacts, err)
	}
}

// TestArtifactsResume: a run killed between a unit's artifacts and its
// rows (simulated by dropping the last units' rows), or by SIGKILL, resumes
// to the artifacts of an uninterrupted run.
func TestArtifactsResume(t *testing.T) {
	if dir := os.Getenv("FGRT_ARTIFACTS_KILL_DIR"); dir != "" {
		after, _ := strconv.Atoi(os.Getenv("FGRT_ARTIFACTS_KILL_AFTER"))
		r := &Runner{Load: testLoader, OutDir: dir, Jobs: 2, afterUnit: func(done int) {
			if done == after {
				syscall.Kill(os.Getpid(), syscall.SIGKILL)
			}
		}}
		r.Run(context.Background(), testStudy())
		os.Exit(3) // not reached when the kill happened
	}
	ref := t.TempDir()
	runStudy(t, ref, 2, study.Shard{})

	dir := t.TempDir()
	runStudy(t, dir, 2, study.Shard{})
	data, _ := os.ReadFile(filepath.Join(dir, results.FileName))
	lines := strings.SplitAfter(string(data), "\n")
	os.WriteFile(filepath.Join(dir, results.FileName), []byte(strings.Join(lines[:len(lines)-30], "")), 0o644)
	if sum := runStudy(t, dir, 1, study.Shard{}); sum.Ran == 0 {
		t.Fatal("nothing ran again")
	}
	sameArtifacts(t, ref, dir, "rows dropped, then resumed")
	readChecked(t, dir)

	for _, after := range []string{"1", "33"} {
		dir := t.TempDir()
		cmd := exec.Command(os.Args[0], "-test.run=^TestArtifactsResume$")
		cmd.Env = append(os.Environ(), "FGRT_ARTIFACTS_KILL_DIR="+dir, "FGRT_ARTIFACTS_KILL_AFTER="+after)
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); !ok || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Fatalf("child was not killed: %v", err)
		}
		runStudy(t, dir, 1, study.Shard{})
		sameArtifacts(t, ref, dir, "kill -9 after "+after+" units, then resume")
		readChecked(t, dir)
	}

	// A torn tail (a crash inside the artifact write) is cut on resume.
	dir = t.TempDir()
	runStudy(t, dir, 2, study.Shard{})
	pred := filepath.Join(dir, artifacts.PredictionsFile)
	b, _ := os.ReadFile(pred)
	os.WriteFile(pred, b[:len(b)-5], 0o644)
	os.WriteFile(filepath.Join(dir, results.FileName), []byte(strings.Join(lines[:len(lines)-30], "")), 0o644)
	runStudy(t, dir, 1, study.Shard{})
	sameArtifacts(t, ref, dir, "torn tail, then resume")
}

func TestNoArtifacts(t *testing.T) {
	dir := t.TempDir()
	r := &Runner{Load: testLoader, OutDir: dir, Jobs: 2, NoArtifacts: true}
	if _, err := r.Run(context.Background(), testStudy()); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{artifacts.PredictionsFile, artifacts.ModelsFile} {
		if _, err := os.Stat(filepath.Join(dir, n)); !os.IsNotExist(err) {
			t.Errorf("%s written under --no-artifacts (%v)", n, err)
		}
	}
	recs, _ := results.ReadFile(filepath.Join(dir, results.FileName))
	if _, _, present, err := artifacts.Read(dir, recs); present || err != nil {
		t.Errorf("reader: present %v, %v", present, err)
	}
	// Resumed without the flag, the directory stays without artifacts
	// rather than holding them for some units only.
	data, _ := os.ReadFile(filepath.Join(dir, results.FileName))
	lines := strings.SplitAfter(string(data), "\n")
	os.WriteFile(filepath.Join(dir, results.FileName), []byte(strings.Join(lines[:len(lines)-30], "")), 0o644)
	runStudy(t, dir, 2, study.Shard{})
	if _, err := os.Stat(filepath.Join(dir, artifacts.PredictionsFile)); !os.IsNotExist(err) {
		t.Errorf("a directory without artifacts gained some on resume (%v)", err)
	}
	if man, err := manifest.Read(dir); err != nil || man.Artifacts != outdir.ArtifactsOff {
		t.Errorf("manifest artifacts %q, %v", man.Artifacts, err)
	}
	// A directory with artifacts refuses --no-artifacts before writing.
	kept := t.TempDir()
	runStudy(t, kept, 2, study.Shard{})
	before, _ := os.ReadFile(filepath.Join(kept, results.FileName))
	r = &Runner{Load: testLoader, OutDir: kept, Jobs: 2, NoArtifacts: true}
	if _, err := r.Run(context.Background(), testStudy()); err == nil || !strings.Contains(err.Error(), "keeps artifacts") {
		t.Errorf("--no-artifacts on a directory with artifacts: %v", err)
	}
	if after, _ := os.ReadFile(filepath.Join(kept, results.FileName)); !bytes.Equal(before, after) {
		t.Error("the refused run changed results.csv")
	}
}

// TestShardArtifactsMergeToOneRun: shards' artifacts merge to those of a
// single run, and the merged directory passes the cross-check; shards run
// without artifacts merge to a directory without them.
func TestShardArtifactsMergeToOneRun(t *testing.T) {
	ref := t.TempDir()
	runStudy(t, ref, 2, study.Shard{})
	var inputs, plain []string
	for i := 0; i < 3; i++ {
		dir := t.TempDir()
		runStudy(t, dir, 1, study.Shard{Index: i, Count: 3})
		inputs = append(inputs, dir)
		bare := t.TempDir()
		r := &Runner{Load: testLoader, OutDir: bare, Jobs: 1, Shard: study.Shard{Index: i, Count: 3}, NoArtifacts: true}
		if _, err := r.Run(context.Background(), testStudy()); err != nil {
			t.Fatal(err)
		}
		plain = append(plain, bare)
	}
	out := t.TempDir()
	if _, err := outdir.Merge(out, append(inputs, inputs[0]), outdir.MergeOptions{}); err != nil {
		t.Fatal(err)
	}
	sameArtifacts(t, ref, out, "merged shards")
	readChecked(t, out)
	if man, err := manifest.Read(out); err != nil || man.Artifacts != outdir.ArtifactsKept {
		t.Errorf("merged manifest artifacts %q, %v", man.Artifacts, err)
	}

	bare := t.TempDir()
	if _, err := outdir.Merge(bare, plain, outdir.MergeOptions{}); err != nil {
		t.Fatal(err)
	}
	if man, err := manifest.Read(bare); err != nil || man.Artifacts != outdir.ArtifactsOff {
		t.Errorf("merged manifest artifacts %q, %v", man.Artifacts, err)
	}
	// Shards with and without artifacts do not merge, and nothing is written.
	mixed := t.TempDir()
	if _, err := outdir.Merge(mixed, []string{inputs[0], plain[1], inputs[2]}, outdir.MergeOptions{}); err == nil || !strings.Contains(err.Error(), "merge shards run alike") {
		t.Errorf("mixed shards: %v", err)
	}
	if _, err := os.Stat(filepath.Join(mixed, results.FileName)); !os.IsNotExist(err) {
		t.Errorf("a refused merge wrote results.csv (%v)", err)
	}
	// A partial merge keeps the artifacts of the units it keeps.
	part := t.TempDir()
	if _, err := outdir.Merge(part, inputs[:2], outdir.MergeOptions{AllowPartial: true}); err != nil {
		t.Fatal(err)
	}
	recs, _ := results.ReadFile(filepath.Join(part, results.FileName))
	if _, _, present, err := artifacts.Read(part, recs); !present || err != nil {
		t.Errorf("partial merge: present %v, %v", present, err)
	}
}

// TestStoredModelsReproduceStoredPredictions: for the harness's learners
// under the paper and clean protocols, every model of models.jsonl.gz,
// rebuilt from its record alone (learn.Reconstruct), predicts and scores
// its fold's test rows exactly as predictions.csv.gz records, row by row
// (the rows named by their index in the dataset file).
func TestStoredModelsReproduceStoredPredictions(t *testing.T) {
	o := protocol.DefaultOptions()
	o.InnerFolds = 3
	s := study.Study{
		Protocols: []string{"paper", "clean"},
		Datasets:  []string{"alpha"},
		Methods:   []study.MethodSpec{{Name: "fgrt"}, {Name: "fgrt-opt"}, {Name: "cart"}, {Name: "c45"}, {Name: "ripper"}},
		Options:   o,
	}
	dir := t.TempDir()
	r := &Runner{Load: testLoader, OutDir: dir, Jobs: 2}
	if _, err := r.Run(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	p, _ := readChecked(t, dir)
	// A directory's readers drop each model's JSON once checked; the
	// models file read whole keeps it.
	mdata, err := os.ReadFile(filepath.Join(dir, artifacts.ModelsFile))
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := artifacts.ReadModels(mdata, false)
	if err != nil {
		t.Fatal(err)
	}
	type setID struct {
		key string
		ci  int
	}
	stored := map[setID][]artifacts.PredictionRow{}
	for _, row := range p.Rows {
		id := setID{row.Key, row.ConfigIndex}
		stored[id] = append(stored[id], row)
	}
	d, _ := testLoader(context.Background(), "alpha")
	plans := map[string]*protocol.Plan{}
	kinds := map[string]int{}
	for _, rec := range m.Records {
		kinds[rec.Kind]++
		parts := strings.Split(rec.Key, "/") // protocol/dataset/label#hash/rR/fF/sS
		proto := parts[0]
		plan := plans[proto]
		if plan == nil {
			pr, _ := protocol.Lookup(proto)
			var err error
			if plan, err = pr.Plan(d, o); err != nil {
				t.Fatal(err)
			}
			plans[proto] = plan
		}
		pr, _ := protocol.Lookup(proto)
		rep, _ := strconv.Atoi(strings.TrimPrefix(parts[3], "r"))
		fold, _ := strconv.Atoi(strings.TrimPrefix(parts[4], "f"))
		f := plan.Folds[rep*pr.Layout(o).Folds+fold]
		rebuilt, err := learn.Reconstruct(rec.Description())
		if err != nil {
			t.Fatalf("%s config %d: %v", rec.Key, rec.ConfigIndex, err)
		}
		_, xte := f.Matrices(nil) // a clean fold is a view: its rows are scaled on demand
		pred := rebuilt.Predict(xte)
		var scores [][]float64
		if sc, ok := rebuilt.(learn.Scorer); ok {
			scores = sc.Scores(xte)
		}
		rows := stored[setID{rec.Key, rec.ConfigIndex}]
		if len(rows) != len(pred) {
			t.Fatalf("%s config %d: %d stored rows, %d test rows", rec.Key, rec.ConfigIndex, len(rows), len(pred))
		}
		for i, row := range rows {
			want := ""
			if pred[i] >= 0 {
				want = rec.Classes[pred[i]]
			}
			if row.Row != f.TestRows[i] || row.YPred != want || row.YTrue != rec.Classes[f.YTest[i]] {
				t.Fatalf("%s config %d test row %d: stored %+v, rebuilt model predicts %q for file row %d", rec.Key, rec.ConfigIndex, i, row, want, f.TestRows[i])
			}
			if (scores == nil) != (row.Scores == nil) {
				t.Fatalf("%s config %d: stored scores %v, rebuilt scorer %v", rec.Key, rec.ConfigIndex, row.Scores != nil, scores != nil)
			}
			for k, c := range rec.Classes {
				if scores == nil {
					break
				}
				j := slices.Index(p.ScoreClasses, c)
				if math.Float64bits(row.Scores[j]) != math.Float64bits(scores[i][k]) {
					t.Fatalf("%s config %d row %d class %s: stored score %v, rebuilt %v", rec.Key, rec.ConfigIndex, i, c, row.Scores[j], scores[i][k])
				}
			}
		}
	}
	for _, k := range []string{"fgrt.tree/1", "cart.tree/1", "c45.tree/1", "ripper.rulesets/1"} {
		if kinds[k] == 0 {
			t.Errorf("no model of kind %s checked (%v)", k, kinds)
		}
	}
}
