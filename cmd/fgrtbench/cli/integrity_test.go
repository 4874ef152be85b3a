package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/manifest"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/gate"
)

// writeData writes a small two-class CSV data file; shift changes one cell
// (an edited data file).
func writeData(t *testing.T, path string, shift float64) {
	t.Helper()
	var b strings.Builder
	b.WriteString("x1,x2,class\n")
	for i := 0; i < 60; i++ {
		x1 := float64(i%10) + float64(i%2)*3
		if i == 5 {
			x1 += shift
		}
		fmt.Fprintf(&b, "%g,%d,%s\n", x1, (i*7)%11, []string{"a", "b"}[i%2])
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func writeSpec(t *testing.T, path, data string, folds int) {
	t.Helper()
	spec := fmt.Sprintf("protocols: [clean]\ndatasets: [%s]\nfolds: %d\ninner_folds: 2\nmethods:\n  - name: cart\n", data, folds)
	if err := os.WriteFile(path, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCLIResumeRefusesChangedStudy is the first user-visible
// failure: the same --out with a changed spec or an edited data file must
// be refused with one line and exit 1, and --fresh must start over.
func TestCLIResumeRefusesChangedStudy(t *testing.T) {
	tmp := t.TempDir()
	data, spec, out := filepath.Join(tmp, "mine.csv"), filepath.Join(tmp, "s.yaml"), filepath.Join(tmp, "X")
	writeData(t, data, 0)
	writeSpec(t, spec, data, 3)
	if code, _, e := runCLI("run", "--spec", spec, "--out", out, "-j", "2"); code != 0 {
		t.Fatalf("first run: %d %s", code, e)
	}
	before, _ := os.ReadFile(filepath.Join(out, "results.csv"))

	writeSpec(t, spec, data, 5)
	code, _, e := runCLI("run", "--spec", spec, "--out", out)
	if code != 1 || strings.Count(strings.TrimSpace(e), "\n") != 0 || !strings.Contains(e, "folds=3; this study has folds=5") || !strings.Contains(e, "--fresh") {
		t.Fatalf("changed folds: exit %d, %q", code, e)
	}
	writeSpec(t, spec, data, 3)
	writeData(t, data, 0.5)
	code, _, e = runCLI("run", "--spec", spec, "--out", out)
	if code != 1 || !strings.Contains(e, "sha256=") {
		t.Fatalf("edited data: exit %d, %q", code, e)
	}
	if after, _ := os.ReadFile(filepath.Join(out, "results.csv")); string(after) != string(before) {
		t.Fatal("a refused run changed results.csv")
	}

	// Restoring the data resumes everything and keeps the provenance.
	writeData(t, data, 0)
	code, _, e = runCLI("run", "--spec", spec, "--out", out)
	if code != 0 || !strings.Contains(e, "0 run, 3 resumed") {
		t.Fatalf("resume: exit %d, %q", code, e)
	}
	m, err := manifest.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Datasets) != 1 || m.Datasets[0].NormalizedSHA256 == "" || len(m.History) != 2 {
		t.Fatalf("manifest after a full resume: datasets %+v, %d invocations", m.Datasets, len(m.History))
	}

	writeData(t, data, 0.5)
	code, _, e = runCLI("run", "--spec", spec, "--out", out, "--fresh")
	if code != 0 || !strings.Contains(e, "moved the previous contents") {
		t.Fatalf("--fresh: exit %d, %q", code, e)
	}
	moved, _ := filepath.Glob(out + ".replaced-*")
	if len(moved) != 1 {
		t.Fatalf("moved aside: %v", moved)
	}
	if old, _ := os.ReadFile(filepath.Join(moved[0], "results.csv")); string(old) != string(before) {
		t.Fatal("--fresh lost the old results")
	}
}

// TestCLIMergeKnowsTheStudy is the third failure: a missing shard
// fails unless --allow-partial, which marks results, manifest and report.
func TestCLIMergeKnowsTheStudy(t *testing.T) {
	tmp, _, shards := shardedStudy(t)
	merged := filepath.Join(tmp, "merged")
	code, _, e := runCLI("merge", "--out", merged, shards[0], shards[2])
	if code != 1 || !strings.Contains(e, "1 of the study's 3 units is missing (no input holds shard 1/3)") {
		t.Fatalf("missing shard: exit %d, %q", code, e)
	}
	if _, err := os.Stat(merged); !os.IsNotExist(err) {
		t.Fatal("a refused merge wrote its output")
	}
	code, out, e := runCLI("merge", "--out", merged, "--allow-partial", shards[0], shards[2])
	if code != 0 || !strings.Contains(e, "PARTIAL: 2 of 3 units (missing shards 1/3)") || !strings.Contains(out, "(2 of 3 units)") {
		t.Fatalf("--allow-partial: exit %d, %q %q", code, out, e)
	}
	if code, _, e := runCLI("report", "--results", merged); code != 0 {
		t.Fatalf("report: %s", e)
	}
	rep, _ := os.ReadFile(filepath.Join(merged, "report", "REPORT.md"))
	if !strings.Contains(string(rep), "PARTIAL RESULTS: 2 of the study's 3 units, merged without shard 1/3") {
		t.Fatalf("REPORT.md has no partial banner:\n%.400s", rep)
	}
	// All shards: a complete merge, no banner.
	if code, _, e := runCLI("merge", "--out", merged, shards[0], shards[1], filepath.Join(shards[2], "results.csv")); code != 0 {
		t.Fatalf("complete merge: %s", e)
	}
	runCLI("report", "--results", merged)
	rep, _ = os.ReadFile(filepath.Join(merged, "report", "REPORT.md"))
	if strings.Contains(string(rep), "PARTIAL") {
		t.Fatal("a complete merge is reported as partial")
	}
}

// TestCheckUpdateRefusesIncompleteUnit: a run killed while appending a
// unit leaves some of its rows; a baseline must not be made from them.
func TestCheckUpdateRefusesIncompleteUnit(t *testing.T) {
	tmp := t.TempDir()
	data, spec, out := filepath.Join(tmp, "mine.csv"), filepath.Join(tmp, "s.yaml"), filepath.Join(tmp, "X")
	writeData(t, data, 0)
	body := fmt.Sprintf("protocols: [clean]\ndatasets: [%s]\nfolds: 3\ninner_folds: 2\nmethods:\n  - name: cart\n    grid: text\n    selection: sweep\n", data)
	if err := os.WriteFile(spec, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, e := runCLI("run", "--spec", spec, "--out", out, "--no-report"); code != 0 {
		t.Fatalf("run: %s", e)
	}
	path := filepath.Join(out, "results.csv")
	lines := strings.SplitAfter(string(must(os.ReadFile(path))), "\n")
	// Drop the last row of the first unit (3 rows per unit).
	if err := os.WriteFile(path, []byte(strings.Join(append(lines[:3:3], lines[4:]...), "")), 0o644); err != nil {
		t.Fatal(err)
	}
	baseline := filepath.Join(tmp, "b.json")
	code, _, e := runCLI("check", "--baseline", baseline, "--update", "--results", out)
	if code != 1 || !strings.Contains(e, "lacks some of its 3 rows") {
		t.Fatalf("incomplete unit: exit %d, %q", code, e)
	}
	if _, err := os.Stat(baseline); !os.IsNotExist(err) {
		t.Fatal("a baseline was written from an incomplete unit")
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestCheckRefusesResultsOfAnotherStudy: results made with other options
// than the baseline's study are a different experiment, not moved values:
// "study changed", exit 5.
func TestCheckRefusesResultsOfAnotherStudy(t *testing.T) {
	tmp, data, spec := studyFixture(t)
	baseline := filepath.Join(tmp, "b.json")
	if code, _, e := runCLI("check", "--baseline", baseline, "--spec", spec, "--update"); code != 0 {
		t.Fatalf("baseline: %s", e)
	}
	if code, out, e := runCLI("run", "--spec", spec, "--out", filepath.Join(tmp, "same"), "--no-report"); code != 0 {
		t.Fatalf("run: %s %s", out, e)
	}
	if code, out, e := runCLI("check", "--baseline", baseline, "--results", filepath.Join(tmp, "same")); code != 0 {
		t.Fatalf("results of the baseline's own study: exit %d %s %s", code, out, e)
	}
	// --spec with --results (no --update) would be ignored: refused.
	if code, out, e := runCLI("check", "--baseline", baseline, "--results", filepath.Join(tmp, "same"), "--spec", spec); code != 1 || !strings.Contains(e, "--spec names a study to run, but --results reads results") {
		t.Fatalf("--spec with --results: exit %d %s %q", code, out, e)
	}
	writeSpec(t, spec, data, 4)
	if code, _, e := runCLI("run", "--spec", spec, "--out", filepath.Join(tmp, "other"), "--no-report"); code != 0 {
		t.Fatalf("run: %s", e)
	}
	code, _, e := runCLI("check", "--baseline", baseline, "--results", filepath.Join(tmp, "other"))
	if code != 5 || !strings.Contains(e, "study changed: ") || !strings.Contains(e, "folds=3 in the baseline, folds=4 now") {
		t.Fatalf("results of another study: exit %d, %q", code, e)
	}
}

// TestMergeIntoAReportedDirectory: merging into a directory that already
// holds a run of the same study keeps that run's history in the manifest,
// and its report/ is rendered again from the merged results; a partial
// merge over a complete report used to leave REPORT.md claiming the whole
// study.
func TestMergeIntoAReportedDirectory(t *testing.T) {
	tmp, _, spec := studyFixture(t)
	whole := filepath.Join(tmp, "whole")
	if code, _, e := runCLI("run", "--spec", spec, "--out", whole, "-j", "1"); code != 0 {
		t.Fatalf("run: %s", e)
	}
	shards := runShards(t, spec, tmp, 3)
	code, out, e := runCLI("merge", "--out", whole, "--allow-partial", shards[0], shards[2])
	if code != 0 || !strings.Contains(out, "report: "+filepath.Join(whole, "report", "REPORT.md")+" (rendered again") {
		t.Fatalf("merge: exit %d, %q %q", code, out, e)
	}
	// The directory's own rows are an input of a merge into it: merging
	// two of three shards into a complete directory of the same study
	// keeps every unit and is complete, not partial.
	rep, _ := os.ReadFile(filepath.Join(whole, "report", "REPORT.md"))
	if strings.Contains(string(rep), "PARTIAL") {
		t.Fatalf("a merge into a complete directory threw its units away:\n%.400s", rep)
	}
	m, err := manifest.Read(whole)
	if err != nil {
		t.Fatal(err)
	}
	var cmds []string
	for _, h := range m.History {
		cmds = append(cmds, h.Status+" "+h.Shard)
	}
	if want := "complete all|complete 0/3|complete 2/3|merged merged"; strings.Join(cmds, "|") != want {
		t.Errorf("history %q, want %q", strings.Join(cmds, "|"), want)
	}
}

// runShards runs the n shards of spec into tmp/shard<i> and returns them.
func runShards(t *testing.T, spec, tmp string, n int) []string {
	t.Helper()
	var shards []string
	for i := 0; i < n; i++ {
		dir := filepath.Join(tmp, fmt.Sprintf("shard%d", i))
		if code, _, e := runCLI("run", "--spec", spec, "--out", dir, "--shard", fmt.Sprintf("%d/%d", i, n), "-j", "1"); code != 0 {
			t.Fatalf("shard %d: %s", i, e)
		}
		shards = append(shards, dir)
	}
	return shards
}

// TestReportOfAPartialResultsFileWithoutItsManifest: results.csv of a
// partial merge, copied without manifest.json, still reports as partial
// from its own first line.
func TestReportOfAPartialResultsFileWithoutItsManifest(t *testing.T) {
	tmp, _, shards := shardedStudy(t)
	merged := filepath.Join(tmp, "merged")
	if code, _, e := runCLI("merge", "--out", merged, "--allow-partial", shards[0], shards[2]); code != 0 {
		t.Fatalf("merge: %s", e)
	}
	if err := os.Remove(filepath.Join(merged, manifest.FileName)); err != nil {
		t.Fatal(err)
	}
	if code, _, e := runCLI("report", "--results", merged); code != 0 {
		t.Fatalf("report: %s", e)
	}
	rep, _ := os.ReadFile(filepath.Join(merged, "report", "REPORT.md"))
	want := "PARTIAL RESULTS: 2 of 3 units (2 rows); missing shards 1/3 (the mark in results.csv; its manifest.json is absent)"
	if !strings.Contains(string(rep), want) {
		t.Fatalf("REPORT.md lacks %q:\n%.500s", want, rep)
	}
}

// shardedStudy writes a 3-fold CART study of a small data file into a
// temporary directory and runs its three shards there.
func shardedStudy(t *testing.T) (tmp, spec string, shards []string) {
	t.Helper()
	tmp, _, spec = studyFixture(t)
	return tmp, spec, runShards(t, spec, tmp, 3)
}

// studyFixture writes a small data file and a 3-fold CART study of it into
// a temporary directory.
func studyFixture(t *testing.T) (tmp, data, spec string) {
	t.Helper()
	tmp = t.TempDir()
	data, spec = filepath.Join(tmp, "mine.csv"), filepath.Join(tmp, "s.yaml")
	writeData(t, data, 0)
	writeSpec(t, spec, data, 3)
	return tmp, data, spec
}

// TestCheckOfAShardComparesItsOwnUnits: check in one shard of a job array
// compares the baseline rows of that shard's units; the rows of the other
// shards are not reported as missing (every shard failed before), and a
// moved row fails the one shard that holds it.
func TestCheckOfAShardComparesItsOwnUnits(t *testing.T) {
	tmp, _, spec := studyFixture(t)
	path := filepath.Join(tmp, "b.json")
	if code, _, e := runCLI("check", "--baseline", path, "--spec", spec, "--update"); code != 0 {
		t.Fatalf("baseline: %s", e)
	}
	shardChecks := func() (failed []int) {
		for i := 0; i < 3; i++ {
			code, out, e := runCLI("check", "--baseline", path, "--shard", fmt.Sprintf("%d/3", i))
			if !strings.Contains(e, fmt.Sprintf("shard %d/3: comparing the 1 of the baseline's 3 rows", i)) {
				t.Fatalf("shard %d: exit %d %q %q", i, code, out, e)
			}
			if code != 0 {
				if !strings.Contains(out, "correct") {
					t.Fatalf("shard %d fails without naming the moved field: %q", i, out)
				}
				failed = append(failed, i)
			}
		}
		return failed
	}
	if failed := shardChecks(); len(failed) != 0 {
		t.Fatalf("shards %v fail against their own baseline", failed)
	}
	b, err := gate.Load[study.Study](path)
	if err != nil {
		t.Fatal(err)
	}
	b.Rows[1].Correct++
	if err := b.Save(path); err != nil {
		t.Fatal(err)
	}
	if failed := shardChecks(); len(failed) != 1 {
		t.Fatalf("shards %v fail, want exactly the one holding the moved row", failed)
	}
}

// TestReportRefusesRowsOfAnotherStudy: rows of another run appended to
// results.csv (here those of another data file) used to be reported and
// plotted as the study's, with exit 0; report and plot all now refuse them
// in one line and leave the report as it was.
func TestReportRefusesRowsOfAnotherStudy(t *testing.T) {
	tmp, _, spec := studyFixture(t)
	own, other := filepath.Join(tmp, "own"), filepath.Join(tmp, "other")
	if code, _, e := runCLI("run", "--spec", spec, "--out", own, "-j", "1"); code != 0 {
		t.Fatalf("run: %s", e)
	}
	data2 := filepath.Join(tmp, "theirs.csv")
	writeData(t, data2, 0.5)
	writeSpec(t, spec, data2, 3)
	if code, _, e := runCLI("run", "--spec", spec, "--out", other, "-j", "1", "--no-report"); code != 0 {
		t.Fatalf("run: %s", e)
	}
	foreign, err := os.ReadFile(filepath.Join(other, "results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	_, rows, _ := strings.Cut(string(foreign), "\n") // without the header
	f, err := os.OpenFile(filepath.Join(own, "results.csv"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(rows); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(own, "report", "REPORT.md")
	before, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"report", "--results", own}, {"plot", "all", "--results", own}} {
		code, out, e := runCLI(args...)
		if code != 1 || strings.Count(e, "\n") != 1 || !strings.Contains(e, "holds rows of another study") || !strings.Contains(e, "manifest.json records") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", strings.Join(args, " "), code, out, e)
		}
	}
	if after, _ := os.ReadFile(report); string(after) != string(before) {
		t.Error("REPORT.md was rewritten from mixed results")
	}
}
