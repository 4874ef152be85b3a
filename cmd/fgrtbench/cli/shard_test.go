package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/manifest"
	"github.com/fgrtbench/fgrtbench/internal/command"
	"github.com/fgrtbench/fgrtbench/results"
)

// runCLIEnv runs the CLI as a task of a batch scheduler would, with vars as
// its environment.
func runCLIEnv(vars map[string]string, args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	env := &command.Env{Stdout: &o, Stderr: &e, Getenv: func(k string) string { return vars[k] }}
	code = Main(context.Background(), env, args)
	return code, o.String(), e.String()
}

// tinyStudy writes a two-class CSV data set and a spec of 4 units (one
// method, 4 folds) on it, and returns the spec's path.
func tinyStudy(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("x1,x2,class\n")
	for i := 0; i < 48; i++ {
		cls := "a"
		if i%2 == 1 {
			cls = "b"
		}
		fmt.Fprintf(&b, "%d,%d,%s\n", (i*7)%13+i%2*5, (i*5)%11, cls)
	}
	data := filepath.Join(dir, "tiny.csv")
	if err := os.WriteFile(data, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := filepath.Join(dir, "tiny.json")
	js := fmt.Sprintf(`{"name": "tiny", "protocols": ["clean"], "datasets": [%q], "folds": 4, "repeats": 1, "seed": 1, "inner_folds": 2, "methods": [{"name": "cart"}]}`, data)
	if err := os.WriteFile(spec, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	return spec
}

// TestShardOfAJobArray runs a spec as Slurm and Kubernetes tasks would:
// the shard comes from the task index and --shard-count, whatever else the
// scheduler says; without a count, or out of range, nothing runs.
func TestShardOfAJobArray(t *testing.T) {
	spec := tinyStudy(t)
	cases := []struct {
		name      string
		env       map[string]string
		flags     []string
		wantShard string
		wantUnits int
		wantErr   string
	}{
		{name: "slurm resubmitted index", env: map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "1", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "1"},
			flags: []string{"--shard-count", "2"}, wantShard: "1/2", wantUnits: 2},
		{name: "slurm stepped array", env: map[string]string{"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "2", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "2", "SLURM_ARRAY_TASK_STEP": "2"},
			flags: []string{"--shard-count", "3"}, wantShard: "2/3", wantUnits: 1},
		{name: "kubernetes indexed job", env: map[string]string{"JOB_COMPLETION_INDEX": "0"},
			flags: []string{"--shard-count", "4"}, wantShard: "0/4", wantUnits: 1},
		{name: "explicit whole study inside an array task", env: map[string]string{"SLURM_ARRAY_TASK_ID": "1"},
			flags: []string{"--shard", "0/1"}, wantShard: "all", wantUnits: 4},
		{name: "slurm without --shard-count", env: map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "1"},
			wantErr: "SLURM_ARRAY_TASK_ID=1 is set but the number of shards is not: pass --shard-count N"},
		{name: "kubernetes without --shard-count", env: map[string]string{"JOB_COMPLETION_INDEX": "1"},
			wantErr: "pass --shard-count N"},
		{name: "index out of range", env: map[string]string{"SLURM_ARRAY_TASK_ID": "2"},
			flags: []string{"--shard-count", "2"}, wantErr: "SLURM_ARRAY_TASK_ID=2 is outside the shards 0..1"},
		{name: "count outside an array", flags: []string{"--shard-count", "2"}, wantErr: "pass --shard i/2"},
		{name: "shard and count disagree", flags: []string{"--shard", "1/3", "--shard-count", "2"}, wantErr: "disagree"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			args := append([]string{"run", "--spec", spec, "--out", out, "-j", "1"}, c.flags...)
			code, _, stderr := runCLIEnv(c.env, args...)
			if c.wantErr != "" {
				if code == 0 || !strings.Contains(stderr, c.wantErr) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
					t.Fatalf("exit %d, stderr %q; want one line containing %q", code, stderr, c.wantErr)
				}
				if _, err := os.Stat(out); !os.IsNotExist(err) {
					t.Fatalf("a refused run left %s behind", out)
				}
				return
			}
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			m, err := manifest.Read(out)
			if err != nil {
				t.Fatal(err)
			}
			if m.Shard != c.wantShard || m.Units != c.wantUnits {
				t.Fatalf("manifest: shard %s, %d units; want %s, %d", m.Shard, m.Units, c.wantShard, c.wantUnits)
			}
		})
	}
}

// TestPartialShardMakesNoBaselineOrSilentReport: a shard never becomes a
// baseline, reproduce renders no report for it, and a report of a shard
// directory says it is partial.
func TestPartialShardMakesNoBaselineOrSilentReport(t *testing.T) {
	spec := tinyStudy(t)
	task := map[string]string{"SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "2"}
	baseline := filepath.Join(t.TempDir(), "baseline.json")

	refused := func(env map[string]string, want string, args ...string) {
		t.Helper()
		args = append([]string{"check", "--baseline", baseline, "--update"}, args...)
		code, _, stderr := runCLIEnv(env, args...)
		if code == 0 || !strings.Contains(stderr, want) {
			t.Fatalf("%v: exit %d, %q; want %q", args, code, stderr, want)
		}
		if _, err := os.Stat(baseline); !os.IsNotExist(err) {
			t.Fatalf("%v wrote a baseline from a shard", args)
		}
	}
	// Inside an array task: refused before anything runs.
	refused(task, "this is shard 0/2 of the study; a baseline must hold every unit", "--spec", spec, "--shard-count", "2", "-j", "1")

	// From a shard's results directory: refused too.
	shardDir := filepath.Join(t.TempDir(), "shard0")
	if code, _, stderr := runCLIEnv(task, "run", "--spec", spec, "--out", shardDir, "--shard-count", "2", "-j", "1"); code != 0 {
		t.Fatalf("shard run: %s", stderr)
	}
	if _, err := os.Stat(filepath.Join(shardDir, "report")); !os.IsNotExist(err) {
		t.Fatal("run rendered a report for a shard")
	}
	refused(nil, "the results hold 2 of the study's 4 units ("+shardDir+" is shard 0/2)", "--results", shardDir)

	// Both shards merged (with the study from a spec) make a baseline.
	shard1 := filepath.Join(t.TempDir(), "shard1")
	if code, _, stderr := runCLIEnv(nil, "run", "--spec", spec, "--out", shard1, "--shard", "1/2", "-j", "1"); code != 0 {
		t.Fatalf("shard 1: %s", stderr)
	}
	merged := t.TempDir()
	if code, _, stderr := runCLIEnv(nil, "merge", "--out", filepath.Join(merged, results.FileName), shardDir, shard1); code != 0 {
		t.Fatalf("merge: %s", stderr)
	}
	if code, _, stderr := runCLIEnv(nil, "check", "--baseline", baseline, "--results", merged, "--spec", spec, "--update"); code != 0 {
		t.Fatalf("check --update of merged shards: %s", stderr)
	}

	// A report of a shard directory is marked partial.
	code, _, stderr := runCLIEnv(nil, "report", "--results", shardDir)
	if code != 0 || !strings.Contains(stderr, "holds 2 of the study's 4 units (shard 0/2;") {
		t.Fatalf("report of a shard: exit %d, %q", code, stderr)
	}
	rep, err := os.ReadFile(filepath.Join(shardDir, "report", "REPORT.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(rep), "PARTIAL RESULTS: 2 of the study's 4 units (shard 0/2;") {
		t.Fatal("REPORT.md of a shard does not say it is partial")
	}
	recs, err := results.ReadFile(filepath.Join(shardDir, results.FileName))
	if err != nil || len(recs) == 0 {
		t.Fatalf("shard results: %d rows, %v", len(recs), err)
	}
}

// TestReproduceShardWritesNoReport: reproduce in an array task runs its
// slice and says why it renders no report.
func TestReproduceShardWritesNoReport(t *testing.T) {
	spec := tinyStudy(t) // only for its data file
	data := filepath.Join(filepath.Dir(spec), "tiny.csv")
	out := t.TempDir()
	code, _, stderr := runCLIEnv(map[string]string{"JOB_COMPLETION_INDEX": "1"},
		"reproduce", "--datasets", data, "--methods", "cart", "--protocol", "clean", "--no-variants", "--out", out, "--shard-count", "3", "-j", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "shard 1/3 holds part of the study, so no report") {
		t.Fatalf("stderr %q", stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "report")); !os.IsNotExist(err) {
		t.Fatal("a shard rendered a report")
	}
}
