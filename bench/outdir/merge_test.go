package outdir_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/manifest"
	"github.com/fgrtbench/fgrtbench/bench/outdir"
	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/bench/runner"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/results"
)

// The shards a merge joins are what the runner writes, so these tests make
// them with the runner (an external test package may import upward; the
// package itself does not).

// dataset is a small 3-class table that the learners separate in part.
func dataset(name string, n int) *datasets.Dataset {
	d := &datasets.Dataset{Name: name, Classes: []string{"a", "b", "c"}}
	for _, col := range []string{"x", "y"} {
		d.Inputs = append(d.Inputs, datasets.Attribute{Name: col, Type: "real", Min: math.NaN(), Max: math.NaN()})
	}
	for i := range n {
		c := i % 3
		d.X = append(d.X, []float64{float64(c) + float64(i%7)/4, float64(i%5) - float64(c)})
		d.Y = append(d.Y, c)
	}
	return d
}

// load knows the study's two datasets.
func load(ctx context.Context, name string) (*datasets.Dataset, error) {
	switch name {
	case "alpha":
		return dataset(name, 90), nil
	case "beta":
		return dataset(name, 61), nil
	}
	return nil, fmt.Errorf("unknown dataset %q", name)
}

// testStudy has 60 units: 2 datasets × 3 methods × 2 repeats × 5 folds.
func testStudy() study.Study {
	o := protocol.DefaultOptions()
	o.Repeats = 2
	o.InnerFolds = 3
	return study.Study{
		Protocols: []string{"clean"},
		Datasets:  []string{"alpha", "beta"},
		Methods: []study.MethodSpec{
			{Name: "cart"},
			{Name: "cart", Label: "cart-shallow", Params: map[string]string{"max_depth": "1"}},
			{Name: "majority"},
		},
		Options: o,
	}
}

// shardDirs runs s as n shards into fresh directories.
func shardDirs(t *testing.T, n int, s study.Study) []string {
	t.Helper()
	var dirs []string
	for i := 0; i < n; i++ {
		dir := t.TempDir()
		r := &runner.Runner{Load: load, OutDir: dir, Jobs: 2, Shard: study.Shard{Index: i, Count: n}}
		if _, err := r.Run(context.Background(), s); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, dir)
	}
	return dirs
}
func TestMergeRefuses(t *testing.T) {
	dirs := shardDirs(t, 3, testStudy())
	other := testStudy()
	other.Options.Folds = 3
	foreign := shardDirs(t, 3, other)
	four := shardDirs(t, 4, testStudy())

	// A copy of shard 1 whose row 3 says another number.
	conflict := t.TempDir()
	if err := os.CopyFS(conflict, os.DirFS(dirs[1])); err != nil {
		t.Fatal(err)
	}
	recs, err := results.ReadFile(filepath.Join(conflict, results.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if recs[3].Correct > 0 {
		recs[3].Correct--
	} else {
		recs[3].Correct++
	}
	recs[3].Accuracy = float64(recs[3].Correct) / float64(recs[3].NTest)
	var b bytes.Buffer
	results.Write(&b, recs)
	os.WriteFile(filepath.Join(conflict, results.FileName), b.Bytes(), 0o644)

	// A results file without its manifest.
	bare := t.TempDir()
	data, _ := os.ReadFile(filepath.Join(dirs[2], results.FileName))
	os.WriteFile(filepath.Join(bare, "r.csv"), data, 0o644)

	cases := []struct {
		name   string
		inputs []string
		want   []string
	}{
		{"missing shard", dirs[:2], []string{"20 of the study's 60 units are missing", "no input holds shard 2/3", "--allow-partial"}},
		{"foreign shard", []string{dirs[0], dirs[1], foreign[2]}, []string{"another study", "folds=3", "folds=5"}},
		{"different split", []string{dirs[0], dirs[1], dirs[2], four[3]}, []string{"shard 3/4", "shard of 3"}},
		{"conflicting rows", []string{dirs[0], dirs[1], dirs[2], conflict}, []string{"differs between", "correct"}},
		{"no manifest", []string{dirs[0], dirs[1], filepath.Join(bare, "r.csv")}, []string{"has no manifest.json"}},
	}
	for _, c := range cases {
		out := filepath.Join(t.TempDir(), "merged")
		_, err := outdir.Merge(out, c.inputs, outdir.MergeOptions{})
		if err == nil {
			t.Errorf("%s: merge accepted", c.name)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q lacks %q", c.name, err, w)
			}
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%s: a refused merge wrote %s", c.name, out)
		}
	}
}

func TestMergeWritesManifest(t *testing.T) {
	dirs := shardDirs(t, 3, testStudy())
	out := t.TempDir()
	// Inputs may be directories or results files; a duplicate is harmless.
	sum, err := outdir.Merge(out, []string{dirs[0], filepath.Join(dirs[1], results.FileName), dirs[2], dirs[0]}, outdir.MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Partial || sum.PresentUnits != 60 || sum.ExpectedUnits != 60 || sum.ResultsPath != filepath.Join(out, results.FileName) {
		t.Fatalf("summary %+v", sum)
	}
	m, err := manifest.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	shard0, _ := manifest.Read(dirs[0])
	if m.Identity == nil || m.Identity.Hash != shard0.Identity.Hash || len(m.Datasets) != 2 || m.Partial != nil || m.Study == nil {
		t.Fatalf("merged manifest: identity %v, datasets %v, partial %v", m.Identity, m.Datasets, m.Partial)
	}
	var shards []string
	for _, h := range m.History {
		shards = append(shards, h.Shard+":"+h.Status)
	}
	if got := strings.Join(shards, " "); got != "0/3:complete 1/3:complete 2/3:complete merged:merged" {
		t.Fatalf("history %s", got)
	}
	// The merged directory resumes as the whole study: nothing to run.
	r := &runner.Runner{Load: load, OutDir: out, Jobs: 2}
	if s, err := r.Run(context.Background(), testStudy()); err != nil || s.Ran != 0 || s.Skipped != 60 {
		t.Fatalf("resuming the merge ran %d (%v)", s.Ran, err)
	}
}

func TestMergeAllowPartial(t *testing.T) {
	dirs := shardDirs(t, 3, testStudy())
	out := filepath.Join(t.TempDir(), "m")
	sum, err := outdir.Merge(out, dirs[:2], outdir.MergeOptions{AllowPartial: true})
	if err != nil {
		t.Fatal(err)
	}
	if !sum.Partial || sum.PresentUnits != 40 || len(sum.Missing) != 20 || strings.Join(sum.MissingShards, ",") != "2/3" {
		t.Fatalf("summary %+v", sum)
	}
	data, _ := os.ReadFile(filepath.Join(out, results.FileName))
	if !strings.HasPrefix(string(data), results.PartialMark+" 40 of 60 units") {
		t.Fatalf("results.csv is not marked partial: %.80q", data)
	}
	recs, err := results.ReadFile(filepath.Join(out, results.FileName))
	if err != nil || len(recs) != sum.Rows {
		t.Fatalf("partial results read back: %d rows, %v", len(recs), err)
	}
	m, _ := manifest.Read(out)
	if m.Partial == nil || m.Partial.MissingCount != 20 || m.Partial.PresentUnits != 40 || m.History[len(m.History)-1].Status != "merged-partial" {
		t.Fatalf("manifest partial %+v", m.Partial)
	}
	// Completing the merge later replaces the partial one.
	if sum, err := outdir.Merge(out, dirs, outdir.MergeOptions{}); err != nil || sum.Partial {
		t.Fatalf("complete merge over the partial one: %+v %v", sum, err)
	}
	if m, _ := manifest.Read(out); m.Partial != nil {
		t.Fatal("complete merge still marked partial")
	}
}

// TestMergeIntoDeviceRefused: --out naming something that is not a regular
// file (here a named pipe; /dev/full in the issue) is refused and left as
// it was.
func TestMergeIntoDeviceRefused(t *testing.T) {
	dirs := shardDirs(t, 1, testStudy())
	pipe := filepath.Join(t.TempDir(), "full.csv")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := outdir.Merge(pipe, dirs, outdir.MergeOptions{})
	if err == nil || !strings.Contains(err.Error(), "refusing to replace") {
		t.Fatalf("merge into a named pipe: %v", err)
	}
	if st, err := os.Lstat(pipe); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Fatal("the pipe was replaced")
	}
}

// TestMergeRefusesRenamedDataset: shards whose studies named one data set
// differently (alpha in one, ./alpha in the other) are refused with a
// message naming both names, not as a missing slot.
func TestMergeRefusesRenamedDataset(t *testing.T) {
	dotted := func(ctx context.Context, name string) (*datasets.Dataset, error) {
		return load(ctx, strings.TrimPrefix(name, "./"))
	}
	var dirs []string
	for i, name := range []string{"alpha", "./alpha"} {
		s := testStudy()
		s.Datasets = []string{name}
		dir := t.TempDir()
		r := &runner.Runner{Load: dotted, OutDir: dir, Jobs: 2, Shard: study.Shard{Index: i, Count: 2}}
		if _, err := r.Run(context.Background(), s); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, dir)
	}
	_, err := outdir.Merge(filepath.Join(t.TempDir(), "m"), dirs, outdir.MergeOptions{})
	if err == nil {
		t.Fatal("merge accepted shards of differently named datasets")
	}
	for _, w := range []string{`dataset "./alpha" where`, `has "alpha"`, "studies differ"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%q lacks %q", err, w)
		}
	}
	if strings.Contains(err.Error(), "has no") {
		t.Errorf("%q reports a missing slot", err)
	}
}

// TestMergeOntoSymlinkRefused: --out naming a symbolic link is refused;
// the link and its target stay as they were.
func TestMergeOntoSymlinkRefused(t *testing.T) {
	dirs := shardDirs(t, 1, testStudy())
	dir := t.TempDir()
	target := filepath.Join(dir, "elsewhere.csv")
	os.WriteFile(target, []byte("old"), 0o644)
	link := filepath.Join(dir, "merged.csv")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	_, err := outdir.Merge(link, dirs, outdir.MergeOptions{})
	if err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("merge onto a symbolic link: %v", err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the link was replaced")
	}
	if data, _ := os.ReadFile(target); string(data) != "old" {
		t.Fatalf("the link's target was written: %q", data)
	}
}
