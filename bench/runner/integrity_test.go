package runner

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fgrtbench/fgrtbench/bench/manifest"
	"github.com/fgrtbench/fgrtbench/bench/methods"
	"github.com/fgrtbench/fgrtbench/bench/outdir"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/results"
)

// editedLoader serves alpha with one value changed: an edited data file.
func editedLoader(ctx context.Context, name string) (*datasets.Dataset, error) {
	d, err := testLoader(ctx, name)
	if err == nil && name == "alpha" {
		d.X[7][2] += 0.5
	}
	return d, err
}

// snapshot returns the bytes of results.csv and manifest.json in dir.
func snapshot(t *testing.T, dir string) (string, string) {
	t.Helper()
	r, err := os.ReadFile(filepath.Join(dir, results.FileName))
	if err != nil {
		t.Fatal(err)
	}
	m, err := os.ReadFile(filepath.Join(dir, manifest.FileName))
	if err != nil {
		t.Fatal(err)
	}
	return string(r), string(m)
}

// TestResumeRefusesAnotherStudy runs a study into a directory, then a
// changed study into the same directory: every change that can alter a
// row must be refused with one line naming it, leaving the directory as it
// was.
func TestResumeRefusesAnotherStudy(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(*study.Study)
		load   Loader
		want   []string
	}{
		{"folds", func(s *study.Study) { s.Options.Folds = 3 }, nil, []string{"folds=5", "folds=3"}},
		{"inner folds", func(s *study.Study) { s.Options.InnerFolds = 4 }, nil, []string{"inner_folds=3", "inner_folds=4"}},
		{"seed", func(s *study.Study) { s.Options.Seed = 7 }, nil, []string{"seed=42", "seed=7"}},
		{"repeats", func(s *study.Study) { s.Options.Repeats = 1 }, nil, []string{"repeats=2", "repeats=1"}},
		{"parameter", func(s *study.Study) { s.Methods[1].Params = map[string]string{"jitter": "0.5"} }, nil, []string{"jitter=0.3", "jitter=0.5"}},
		{"grid", func(s *study.Study) { s.Methods[2].Sweep = map[string][]string{"k": {"4", "2"}} }, nil, []string{"k=1", "k=2"}},
		{"selection", func(s *study.Study) { s.Methods[2].Selection = "sweep" }, nil, []string{"selection=test", "selection=sweep"}},
		{"edited data", nil, editedLoader, []string{"dataset alpha sha256=content:"}},
		{"dropped method", func(s *study.Study) { s.Methods = s.Methods[:2] }, nil, []string{"centroid-test, which this study does not include"}},
		{"dropped dataset", func(s *study.Study) { s.Datasets = s.Datasets[:1] }, nil, []string{"clean/beta/test-centroid, which this study does not include"}},
	}
	base := t.TempDir()
	runStudy(t, base, 2, study.Shard{})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			copyDir(t, base, dir)
			wantRes, wantMan := snapshot(t, dir)
			s := testStudy()
			if c.mutate != nil {
				c.mutate(&s)
			}
			load := c.load
			if load == nil {
				load = testLoader
			}
			r := &Runner{Load: load, OutDir: dir, Jobs: 2}
			sum, err := r.Run(context.Background(), s)
			var mm *outdir.Mismatch
			if !errors.As(err, &mm) {
				t.Fatalf("want a study mismatch, got %v", err)
			}
			msg := err.Error()
			t.Log(msg)
			for _, w := range append(c.want, "--fresh", "--out") {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q lacks %q", msg, w)
				}
			}
			if strings.Contains(msg, "\n") {
				t.Errorf("message is not one line: %q", msg)
			}
			if sum.Ran != 0 || sum.Skipped != 0 {
				t.Errorf("ran %d, resumed %d", sum.Ran, sum.Skipped)
			}
			if gotRes, gotMan := snapshot(t, dir); gotRes != wantRes || gotMan != wantMan {
				t.Error("the refused run changed the directory")
			}
		})
	}
}

func TestResumeRefusesNewLearnerVersion(t *testing.T) {
	dir := t.TempDir()
	runStudy(t, dir, 2, study.Shard{})
	m, err := methods.Lookup("test-centroid")
	if err != nil {
		t.Fatal(err)
	}
	m.Version++
	defer func() { m.Version-- }()
	r := &Runner{Load: testLoader, OutDir: dir, Jobs: 2}
	_, err = r.Run(context.Background(), testStudy())
	if err == nil || !strings.Contains(err.Error(), "test-centroid version=1") || !strings.Contains(err.Error(), "test-centroid version=2") {
		t.Fatalf("want a version mismatch, got %v", err)
	}
}

// TestRowsIdentifyThemselves removes the manifest: the rows alone must be
// enough to refuse another study, including rows of an older fgrtbench
// whose keys lack the identity.
func TestRowsIdentifyThemselves(t *testing.T) {
	dir := t.TempDir()
	runStudy(t, dir, 2, study.Shard{})
	if err := os.Remove(filepath.Join(dir, manifest.FileName)); err != nil {
		t.Fatal(err)
	}
	s := testStudy()
	s.Options.Folds = 4
	r := &Runner{Load: testLoader, OutDir: dir, Jobs: 2}
	if _, err := r.Run(context.Background(), s); err == nil || !strings.Contains(err.Error(), "rows of another study") {
		t.Fatalf("want a refusal from the rows, got %v", err)
	}
	// The same study resumes without its manifest and writes a new one.
	if sum := runStudy(t, dir, 2, study.Shard{}); sum.Ran != 0 || sum.Skipped != 60 {
		t.Fatalf("ran %d, resumed %d", sum.Ran, sum.Skipped)
	}
	// A row in the key format of an older version is refused.
	path := filepath.Join(dir, results.FileName)
	data, _ := os.ReadFile(path)
	lines := strings.SplitAfter(string(data), "\n")
	fields := strings.Split(strings.TrimSuffix(lines[1], "\n"), ",")
	fields[len(fields)-1] = "clean/alpha/test-centroid#0123456789/r0/f0/s42"
	lines[1] = strings.Join(fields, ",") + "\n"
	os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644)
	if _, err := r.Run(context.Background(), testStudy()); err == nil || !strings.Contains(err.Error(), "#0123456789") {
		t.Fatalf("want a refusal naming the foreign key, got %v", err)
	}
}

// TestSupersetResumes adds a dataset and a method to a directory: the
// existing units are identical, so they resume and only the new ones run.
func TestSupersetResumes(t *testing.T) {
	dir := t.TempDir()
	small := testStudy()
	small.Datasets = small.Datasets[:1]
	small.Methods = small.Methods[:2]
	r := &Runner{Load: testLoader, OutDir: dir, Jobs: 2}
	first, err := r.Run(context.Background(), small)
	if err != nil {
		t.Fatal(err)
	}
	sum := runStudy(t, dir, 2, study.Shard{})
	if sum.Skipped != first.Units || sum.Ran != 60-first.Units {
		t.Fatalf("superset: ran %d, resumed %d (first run had %d units)", sum.Ran, sum.Skipped, first.Units)
	}
	ref := t.TempDir()
	runStudy(t, ref, 1, study.Shard{})
	if stripTiming(t, filepath.Join(dir, results.FileName)) != stripTiming(t, filepath.Join(ref, results.FileName)) {
		t.Fatal("superset resume differs from one run")
	}
	// Now the directory holds the bigger study; the small one is a subset.
	if _, err := r.Run(context.Background(), small); err == nil || !strings.Contains(err.Error(), "does not include") {
		t.Fatalf("subset after superset: %v", err)
	}
}

// TestManifestKeepsProvenance resumes a finished run (nothing loads a
// dataset for a unit then) and checks that the manifest still lists the
// datasets and the study, and records both invocations.
func TestManifestKeepsProvenance(t *testing.T) {
	dir := t.TempDir()
	runStudy(t, dir, 2, study.Shard{})
	runStudy(t, dir, 1, study.Shard{Index: 1, Count: 3})
	m, err := manifest.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Datasets) != 2 || m.Datasets[0].Name != "alpha" || !strings.HasPrefix(m.Datasets[0].NormalizedSHA256, "content:") || m.Datasets[1].Rows != 61 {
		t.Fatalf("datasets %+v", m.Datasets)
	}
	if m.Identity == nil || m.Identity.Units != 60 || len(m.Identity.Groups) != 6 || m.Study == nil {
		t.Fatalf("identity %+v", m.Identity)
	}
	if len(m.History) != 2 {
		t.Fatalf("history has %d entries, want 2", len(m.History))
	}
	h0, h1 := m.History[0], m.History[1]
	if h0.Status != "complete" || h0.Ran != 60 || h0.Shard != "all" || h0.Jobs != 2 || h0.End.IsZero() {
		t.Fatalf("first invocation %+v", h0)
	}
	if h1.Status != "complete" || h1.Ran != 0 || h1.Resumed != 20 || h1.Shard != "1/3" || h1.StudyHash != m.Identity.Hash {
		t.Fatalf("second invocation %+v", h1)
	}
	if m.Shard != "1/3" || m.Skipped != 20 {
		t.Fatalf("top level describes the latest run: shard %s resumed %d", m.Shard, m.Skipped)
	}
}

func TestFreshMovesAside(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "out")
	runStudy(t, dir, 2, study.Shard{})
	want, _ := snapshot(t, dir)
	moved, err := outdir.MoveAside(dir, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if moved != dir+".replaced-20260102T030405Z" {
		t.Fatalf("moved to %s", moved)
	}
	if got, _ := snapshot(t, moved); got != want {
		t.Fatal("moved results differ")
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatal("directory still there")
	}
	s := testStudy()
	s.Options.Folds = 3
	r := &Runner{Load: testLoader, OutDir: dir, Jobs: 2}
	if _, err := r.Run(context.Background(), s); err != nil {
		t.Fatalf("fresh directory: %v", err)
	}
	if moved, err := outdir.MoveAside(filepath.Join(parent, "none"), time.Now()); moved != "" || err != nil {
		t.Fatalf("absent directory: %q %v", moved, err)
	}
}

func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
