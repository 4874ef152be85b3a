package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/external/externaltest"
)

// externalStudyDir writes a study of the Go adapter, copied beside its
// spec and named by a relative path, on a small data file; it returns the
// spec's path.
func externalStudyDir(t *testing.T, mode, adapterMode string) string {
	t.Helper()
	dir := t.TempDir()
	data, err := os.ReadFile(externaltest.GoAdapter(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "goadapter"), data, 0o755); err != nil {
		t.Fatal(err)
	}
	csv := filepath.Join(dir, "mine.csv")
	writeData(t, csv, 0)
	spec := filepath.Join(dir, "s.yaml")
	body := "protocols: [clean]\ndatasets: [" + csv + "]\nfolds: 3\ninner_folds: 2\nmethods:\n" +
		"  - name: external\n    label: centroid\n    external:\n      command: ./goadapter {dir} {seed} {mode}\n" +
		"      mode: " + mode + "\n      params: {mode: " + adapterMode + ", k: \"1\"}\n    sweep: {k: [\"1\", \"2\"]}\n"
	if err := os.WriteFile(spec, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir()) // paths resolve against the spec, not here
	return spec
}

// TestExternalTry: external try runs one job in the foreground and shows
// what the adapter received and returned, in either mode; a failing job
// is shown and exits 1.
func TestExternalTry(t *testing.T) {
	cases := []struct {
		mode, adapterMode string
		code              int
		want              []string
	}{
		{"worker", "ok", 0, []string{"method centroid (worker mode) on ", "configuration: adapter_sha256=", "the first value of the swept k",
			"train.csv", "params.json", `-> {"id":`, `"params":{"k":1,"mode":"ok"}`, `<- {"id":`, "predictions.txt", "result.json", "returned: 20 predictions"}},
		{"process", "ok", 0, []string{"method centroid (process mode)", "command: ", "/goadapter /", "exit status 0", "returned: 20 predictions"}},
		{"worker", "exit", 1, []string{"  | Traceback (most recent call last):", "  | ValueError: the model exploded", "predictions.txt  (not written)"}},
	}
	for _, c := range cases {
		t.Run(c.mode+"/"+c.adapterMode, func(t *testing.T) {
			spec := externalStudyDir(t, c.mode, c.adapterMode)
			code, out, errOut := runCLI("external", "try", "--spec", spec)
			if code != c.code {
				t.Fatalf("exit %d, want %d: %s\n%s", code, c.code, errOut, out)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			if c.code != 0 && strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
				t.Errorf("the failure is not one line: %q", errOut)
			}
		})
	}
	spec := externalStudyDir(t, "worker", "ok")
	for _, args := range [][]string{{"--method", "nope"}, {"--fold", "9"}, {"--mode", "thread"}} {
		if code, _, errOut := runCLI(append([]string{"external", "try", "--spec", spec}, args...)...); code != 1 || !strings.Contains(errOut, strings.TrimPrefix(args[0], "--")) {
			t.Errorf("%v: exit %d, %q", args, code, errOut)
		}
	}
	if code, _, _ := runCLI("external", "run"); code != 2 {
		t.Errorf("external run: exit %d, want 2 (a usage error)", code)
	}
}

// TestRunExternalFlags: --keep-unit-dirs keeps every job's directory with
// its job.json, and --worker-jobs 1 gives every job a fresh worker.
func TestRunExternalFlags(t *testing.T) {
	spec := externalStudyDir(t, "worker", "ok")
	keep := filepath.Join(t.TempDir(), "kept")
	if code, _, e := runCLI("run", "--spec", spec, "--out", "out", "-j", "2", "--no-report", "--keep-unit-dirs", keep, "--worker-jobs", "1"); code != 0 {
		t.Fatalf("run: exit %d: %s", code, e)
	}
	jobs, _ := filepath.Glob(filepath.Join(keep, "job-*", "job.json"))
	// 3 folds, each 2 configurations on 2 inner folds and the chosen one.
	if len(jobs) != 15 {
		t.Fatalf("%d kept jobs, want 15", len(jobs))
	}
	pids := map[int]bool{}
	for _, path := range jobs {
		var rec struct {
			Mode   string `json:"mode"`
			Worker int    `json:"worker_pid"`
		}
		data, _ := os.ReadFile(path)
		if err := json.Unmarshal(data, &rec); err != nil || rec.Mode != "worker" || rec.Worker == 0 {
			t.Fatalf("%s: %s (%v)", path, data, err)
		}
		pids[rec.Worker] = true
	}
	if len(pids) != len(jobs) {
		t.Errorf("%d workers for %d jobs with --worker-jobs 1", len(pids), len(jobs))
	}
	if code, _, e := runCLI("run", "--spec", spec, "--out", "out2", "--worker-jobs", "-1"); code != 2 || !strings.Contains(e, "--worker-jobs -1") {
		t.Errorf("--worker-jobs -1: exit %d, %q", code, e)
	}
}

// TestExternalTryKeptFilesAreReal (issue 30, "messages that say what
// happened"): a failed try says its job's files were kept only when they
// are: without --keep-unit-dirs it says they were deleted, and nothing is
// left in the temporary directory; with it the directory it names exists.
func TestExternalTryKeptFilesAreReal(t *testing.T) {
	spec := externalStudyDir(t, "worker", "exit")
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	code, _, errOut := runCLI("external", "try", "--spec", spec)
	if code != 1 || strings.Contains(errOut, "kept in") || !strings.Contains(errOut, "deleted; --keep-unit-dirs DIR keeps them") || !strings.Contains(errOut, "the model exploded") {
		t.Errorf("without --keep-unit-dirs: exit %d, %q", code, errOut)
	}
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Errorf("the try left %v in $TMPDIR", entries)
	}

	keep := filepath.Join(t.TempDir(), "kept")
	code, _, errOut = runCLI("external", "try", "--spec", spec, "--keep-unit-dirs", keep)
	_, dir, ok := strings.Cut(strings.TrimSpace(errOut), "(job files kept in ")
	dir = strings.TrimSuffix(dir, ")")
	if code != 1 || !ok || !strings.HasPrefix(dir, keep+string(filepath.Separator)) {
		t.Fatalf("with --keep-unit-dirs: exit %d, %q", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "job.json")); err != nil {
		t.Errorf("the kept directory it names: %v", err)
	}
}
