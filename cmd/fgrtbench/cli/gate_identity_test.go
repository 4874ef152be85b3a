package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/gate"
	"github.com/fgrtbench/fgrtbench/internal/sharedtest"
)

// refusedWith runs a command that must be refused with exit code want and
// one line naming msgs, leaving every file under root as it was.
func refusedWith(t *testing.T, root string, want int, msgs []string, args ...string) {
	t.Helper()
	before := treeHash(t, root, "")
	code, _, e := runCLI(args...)
	if code != want || strings.Count(strings.TrimSpace(e), "\n") != 0 {
		t.Errorf("%v: exit %d, want %d with one line; stderr %q", args, code, want, e)
	}
	for _, m := range msgs {
		if !strings.Contains(e, m) {
			t.Errorf("%v: stderr %q does not say %q", args, e, m)
		}
	}
	if after := treeHash(t, root, ""); after != before {
		t.Errorf("%v changed files under %s", args, root)
	}
}

// TestCheckRefusesEditedData is issue 30's first finding: a row of the
// user's CSV edited after the baseline was written used to pass check
// ("ok: 3 baseline rows match"), run or read. Now check refuses it as
// "data changed" with exit 3, before any row, touching no file; the same
// table in other bytes (a BOM, CRLF, a final blank line) passes; --update
// accepts the change.
func TestCheckRefusesEditedData(t *testing.T) {
	tmp, data, spec := studyFixture(t)
	baseline := filepath.Join(tmp, "b.json")
	if code, _, e := runCLI("check", "--baseline", baseline, "--spec", spec, "--update"); code != 0 {
		t.Fatalf("baseline: %s", e)
	}
	var b struct {
		Identity *gate.Record `json:"identity"`
	}
	raw, _ := os.ReadFile(baseline)
	if err := json.Unmarshal(raw, &b); err != nil || b.Identity == nil || !strings.HasPrefix(b.Identity.Data[data], "content:") || b.Identity.Learners["cart"].Method != "cart" || b.Identity.Spec == "" {
		t.Fatalf("the baseline records %+v (%v)", b.Identity, err)
	}
	orig, _ := os.ReadFile(data)

	// Bytes that leave the table as it is.
	for _, variant := range [][]byte{
		append([]byte("\ufeff"), orig...),
		bytes.ReplaceAll(orig, []byte("\n"), []byte("\r\n")),
		append(append([]byte(nil), orig...), '\n', '\n'),
	} {
		os.WriteFile(data, variant, 0o644)
		if code, out, e := runCLI("check", "--baseline", baseline); code != 0 {
			t.Errorf("the same table in other bytes: exit %d %s %s", code, out, e)
		}
	}

	// One value edited: refused, whether check runs the study or reads
	// results made from the edited file.
	writeData(t, data, 0.5)
	refusedWith(t, tmp, 3, []string{"data changed: dataset " + data + ": content:", "accept the change deliberately with --update"},
		"check", "--baseline", baseline)
	edited := filepath.Join(tmp, "edited")
	if code, _, e := runCLI("run", "--spec", spec, "--out", edited, "--no-report"); code != 0 {
		t.Fatalf("run: %s", e)
	}
	refusedWith(t, tmp, 3, []string{"data changed: dataset " + data}, "check", "--baseline", baseline, "--results", edited)

	// --update is how the change is accepted.
	if code, _, e := runCLI("check", "--baseline", baseline, "--results", edited, "--update"); code != 0 {
		t.Fatalf("--update: %s", e)
	}
	if code, out, e := runCLI("check", "--baseline", baseline); code != 0 {
		t.Errorf("after --update: exit %d %s %s", code, out, e)
	}
	os.WriteFile(data, orig, 0o644)
	refusedWith(t, tmp, 3, []string{"data changed"}, "check", "--baseline", baseline)
}

// TestCheckRefusesAnotherLearnerVersion: results of another version of a
// learner than the baseline records are "learner changed", exit 4, in
// both forms of check; a baseline of an earlier fgrtbench, which records
// no experiment, is "study changed", exit 5, until --update records it.
func TestCheckRefusesAnotherLearnerVersion(t *testing.T) {
	tmp, _, spec := studyFixture(t)
	baseline := filepath.Join(tmp, "b.json")
	if code, _, e := runCLI("check", "--baseline", baseline, "--spec", spec, "--update"); code != 0 {
		t.Fatalf("baseline: %s", e)
	}
	results := filepath.Join(tmp, "X")
	if code, _, e := runCLI("run", "--spec", spec, "--out", results, "--no-report"); code != 0 {
		t.Fatalf("run: %s", e)
	}
	good, _ := os.ReadFile(baseline)
	edit := func(from, to string) {
		t.Helper()
		if !bytes.Contains(good, []byte(from)) {
			t.Fatalf("the baseline does not hold %q", from)
		}
		os.WriteFile(baseline, bytes.Replace(good, []byte(from), []byte(to), 1), 0o644)
	}
	edit(`"method": "cart",
    "version": 1`, `"method": "cart",
    "version": 7`)
	refusedWith(t, tmp, 4, []string{"learner changed: cart (cart) version 7 in the baseline, 1 now"}, "check", "--baseline", baseline)
	refusedWith(t, tmp, 4, []string{"learner changed: cart (cart) version 7 in the baseline, 1 now"}, "check", "--baseline", baseline, "--results", results)

	// Another study: a spec with other folds, run or read.
	os.WriteFile(baseline, good, 0o644)
	other := filepath.Join(tmp, "other.yaml")
	writeSpec(t, other, filepath.Join(tmp, "mine.csv"), 4)
	refusedWith(t, tmp, 5, []string{"study changed: ", "folds=3 in the baseline, folds=4 now"}, "check", "--baseline", baseline, "--spec", other)

	// A build that resolves the baseline's own study to another canonical
	// form (a changed default or grid) than the one recorded.
	spec0 := bytes.Index(good, []byte(`"spec": "`))
	edit(string(good[spec0:spec0+len(`"spec": "`)+16]), `"spec": "0000000000000000`)
	refusedWith(t, tmp, 5, []string{"study changed: this build resolves the baseline's own study to canonical form", "the baseline recorded 0000000000000000"},
		"check", "--baseline", baseline)

	// A baseline of an earlier version: no record.
	start := bytes.Index(good, []byte(`"fgrtbench"`))
	end := bytes.Index(good, []byte(`"fit_seconds"`))
	if start < 0 || end < start {
		t.Fatalf("baseline layout: %s", good)
	}
	os.WriteFile(baseline, append(append([]byte(nil), good[:start]...), good[end:]...), 0o644)
	refusedWith(t, tmp, 5, []string{"study changed: ", "records no identity of its data, learners and study", "--update"}, "check", "--baseline", baseline)
	if code, _, e := runCLI("check", "--baseline", baseline, "--update"); code != 0 {
		t.Fatalf("--update of an old baseline: %s", e)
	}
	// The same record as before (fit_seconds, timing, may differ).
	now, _ := os.ReadFile(baseline)
	head := func(b []byte) []byte { return b[:bytes.Index(b, []byte(`"fit_seconds"`))] }
	if !bytes.Equal(head(now), head(good)) {
		t.Errorf("--update did not record the same experiment:\n%s\nwant\n%s", head(now), head(good))
	}
}

// TestResumeTakesTheSameTableInOtherBytes: an editor that adds a final
// newline, a BOM or CRLF line ends leaves the table, and so the study's
// identity, as it was: resume goes on instead of refusing "edited data".
func TestResumeTakesTheSameTableInOtherBytes(t *testing.T) {
	tmp, data, spec := studyFixture(t)
	out := filepath.Join(tmp, "X")
	if code, _, e := runCLI("run", "--spec", spec, "--out", out, "--no-report"); code != 0 {
		t.Fatalf("run: %s", e)
	}
	before, _ := os.ReadFile(filepath.Join(out, "results.csv"))
	orig, _ := os.ReadFile(data)
	os.WriteFile(data, append(append([]byte("\ufeff"), bytes.ReplaceAll(orig, []byte("\n"), []byte("\r\n"))...), '\r', '\n'), 0o644)
	code, _, e := runCLI("run", "--spec", spec, "--out", out, "--no-report")
	if code != 0 || !strings.Contains(e, "0 run, 3 resumed") {
		t.Fatalf("resume after a byte-level edit: exit %d %q", code, e)
	}
	if after, _ := os.ReadFile(filepath.Join(out, "results.csv")); !bytes.Equal(after, before) {
		t.Error("resume rewrote results.csv")
	}
}

// TestCheckHelpDocumentsExitStatuses: each named difference has its exit
// status in 'check -h', as docs/ci-gate.md lists them.
func TestCheckHelpDocumentsExitStatuses(t *testing.T) {
	_, out, _ := runCLI("check", "-h")
	doc, err := os.ReadFile("../../../docs/ci-gate.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []gate.Kind{gate.DataChanged, gate.LearnerChanged, gate.StudyChanged} {
		line := fmt.Sprintf("  %d  %s", int(k), k)
		if !strings.Contains(out, line) {
			t.Errorf("check -h does not list %q", line)
		}
		row := fmt.Sprintf("| %d | %s |", int(k), k)
		if !strings.Contains(string(doc), row) {
			t.Errorf("docs/ci-gate.md does not list %q", row)
		}
	}
}

// TestBaselinePathsResolveFromTheBaseline is issue 30's second finding:
// the baseline stored cwd-relative paths, so check run from another
// directory failed with "stat ci/mine.csv". Now a spec's data paths
// resolve from the spec's directory, a baseline's from its own (data_dir
// when the spec lay elsewhere), and check passes from any directory; the
// dataset keeps the name the spec gives it.
func TestBaselinePathsResolveFromTheBaseline(t *testing.T) {
	tmp := t.TempDir()
	for _, d := range []string{"data", "specs", "ci", "elsewhere"} {
		if err := os.Mkdir(filepath.Join(tmp, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeData(t, filepath.Join(tmp, "data", "mine.csv"), 0)
	spec := filepath.Join(tmp, "specs", "s.yaml")
	writeSpec(t, spec, "../data/mine.csv", 3)
	t.Chdir(filepath.Join(tmp, "elsewhere"))
	if code, _, e := runCLI("check", "--baseline", "../ci/b.json", "--spec", "../specs/s.yaml", "--update"); code != 0 {
		t.Fatalf("update: %s", e)
	}
	raw, _ := os.ReadFile(filepath.Join(tmp, "ci", "b.json"))
	if !bytes.Contains(raw, []byte(`"data_dir": "../specs"`)) || !bytes.Contains(raw, []byte(`"dataset":"../data/mine.csv"`)) {
		t.Fatalf("the baseline does not keep the spec's names and where they resolve from:\n%s", raw)
	}
	for _, c := range []struct{ dir, baseline string }{
		{tmp, "ci/b.json"},
		{filepath.Join(tmp, "ci"), "b.json"},
		{filepath.Join(tmp, "data"), filepath.Join(tmp, "ci", "b.json")},
	} {
		t.Chdir(c.dir)
		if code, out, e := runCLI("check", "--baseline", c.baseline); code != 0 || !strings.Contains(out, "ok: 3 baseline rows match") {
			t.Errorf("from %s: exit %d %s %s", c.dir, code, out, e)
		}
	}
	// Where the path read from the working directory names another file
	// (an edited copy), that file is not the data.
	deep := filepath.Join(tmp, "deep", "x")
	os.MkdirAll(deep, 0o755)
	os.MkdirAll(filepath.Join(tmp, "deep", "data"), 0o755)
	writeData(t, filepath.Join(tmp, "deep", "data", "mine.csv"), 0.5)
	t.Chdir(deep)
	if code, out, e := runCLI("check", "--baseline", "../../ci/b.json"); code != 0 {
		t.Errorf("a decoy at the cwd-relative path was read: exit %d %s %s", code, out, e)
	}
}

// TestARegistryTableUnderAFileName: a copy of a KEEL file in other bytes
// (CRLF line ends, trailing blank lines) is that registry dataset's table, so a study
// naming both is refused before anything is written; alone, the copy has
// the registry dataset's identity (the unit keys of the reproduction).
func TestARegistryTableUnderAFileName(t *testing.T) {
	wine := sharedtest.Require(t, "datasets/raw/wine.dat")
	tmp := t.TempDir()
	raw, err := os.ReadFile(wine)
	if err != nil {
		t.Fatal(err)
	}
	lf := bytes.ReplaceAll(raw, []byte("\r\n"), []byte("\n"))
	copyPath := filepath.Join(tmp, "w.dat")
	os.WriteFile(copyPath, append(bytes.ReplaceAll(lf, []byte("\n"), []byte("\r\n")), "\r\n\r\n"...), 0o644)
	spec := filepath.Join(tmp, "s.yaml")
	os.WriteFile(spec, []byte("protocols: [clean]\ndatasets: [wine, w.dat]\nfolds: 3\ninner_folds: 2\nmethods: [{name: majority}]\n"), 0o644)
	out := filepath.Join(tmp, "X")
	cache := t.TempDir()
	refused(t, tmp, out, []string{"datasets wine and w.dat hold the same table of data", "list each dataset once"},
		"run", "--spec", spec, "--out", out, "--mirror", sharedtest.Mirror(), "--cache", cache)
	if _, err := os.Stat(out); err == nil {
		t.Fatal("a refused study created its output")
	}
	code, stdout, e := runCLI("datasets", "--mirror", sharedtest.Mirror(), "--cache", cache, copyPath)
	info, _ := datasets.Lookup("wine")
	if code != 0 || !strings.Contains(stdout, "identity "+info.NormalizedSHA256) {
		t.Errorf("the copy's identity: exit %d %q %s", code, stdout, e)
	}
}

// TestBaselineRunsAnExternalMethodFromAnyDirectory: an external method's
// command in a baseline's study resolves where its spec's did (data_dir),
// not from the working directory check runs in.
func TestBaselineRunsAnExternalMethodFromAnyDirectory(t *testing.T) {
	spec := externalStudyDir(t, "worker", "ok")
	baseline := filepath.Join(t.TempDir(), "ci", "b.json")
	os.MkdirAll(filepath.Dir(baseline), 0o755)
	if code, _, e := runCLI("check", "--baseline", baseline, "--spec", spec, "--update", "-j", "2"); code != 0 {
		t.Fatalf("update: %s", e)
	}
	t.Chdir(t.TempDir())
	if code, out, e := runCLI("check", "--baseline", baseline, "-j", "2"); code != 0 || !strings.Contains(out, "ok: ") {
		t.Errorf("check from elsewhere: exit %d %s %s", code, out, e)
	}
}
