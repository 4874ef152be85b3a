package sidebyside

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fgrtbench/fgrtbench/internal/foreign"
	"github.com/fgrtbench/fgrtbench/internal/safefile"
	"github.com/fgrtbench/fgrtbench/results"
)

// ExternalOptions configure the external-learner task: the same study of
// an external method run by `fgrtbench run` in process mode and in worker
// mode, alternately, and a study of the Go test adapter (whose own work per
// job is tens of microseconds) for the harness's cost per job.
type ExternalOptions struct {
	// Binary is the fgrtbench executable to time.
	Binary string
	// Python is an interpreter that imports sklearn ("" skips the
	// scikit-learn study).
	Python string
	// Examples is the directory of the scikit-learn example's adapter
	// (sklearn_tree.py and fgrtbench_adapter.py).
	Examples string
	// GoAdapter is the Go test adapter's source directory, built with the
	// go command Go ("" skips the overhead study).
	GoAdapter, Go string
	// Dir holds the specs and the studies' output (a temporary directory
	// when empty).
	Dir    string
	Rounds int // 2 when zero
	Log    io.Writer
}

// ExternalStudy is one study timed in both modes.
type ExternalStudy struct {
	Units, Jobs int // results.csv rows and the adapter's jobs
	J           int // the run's -j
	// Process and Worker are the wall times of the rounds, in seconds.
	Process, Worker []float64
}

// ExternalResult is the external-learner task's measurement; a study that
// was skipped is nil.
type ExternalResult struct {
	Python string // interpreter and scikit-learn versions
	// Load0 and Load1 are the 1/5/15-minute load averages before and
	// after the task, which may run long after the block's other rows.
	Load0, Load1 string
	Sklearn      *ExternalStudy
	Overhead     *ExternalStudy
}

// The timed studies. The scikit-learn one is the example's external method
// (examples/external/sklearn.yaml) on one dataset with a 2-point sweep
// chosen by inner CV over 3 folds, so that process mode takes seconds, not
// minutes: 5 units of 2 × 3 + 1 jobs. The Go one has many cheap jobs: 10
// units of 4 × 5 + 1.
const (
	sklearnStudy = `name: external-speed-sklearn
protocols: [clean]
datasets: [wine]
folds: 5
inner_folds: 3
methods:
  - name: external
    label: sklearn-tree
    external:
      command: %s sklearn_tree.py {dir}
      mode: %s
      params: {max_depth: "null", min_samples_leaf: "2"}
      timeout: 2m
    sweep: {max_depth: ["3", "null"]}
`
	goStudy = `name: external-speed-go
protocols: [clean]
datasets: [wine]
folds: 5
repeats: 2
inner_folds: 5
methods:
  - name: external
    label: go-centroid
    external:
      command: %s {dir} {seed} {mode}
      mode: %s
      params: {mode: ok, k: "1"}
    sweep: {k: ["1", "2", "3", "4"]}
`
	// SklearnStudyText and GoStudyText say in words what is timed.
	SklearnStudyText = "wine, clean protocol, 5 folds, `max_depth` ∈ {3, null} chosen per fold by inner CV over 3 folds (`min_samples_leaf: 2`)"
	GoStudyText      = "wine, clean protocol, 5 folds × 2 repeats, `k` ∈ {1, 2, 3, 4} chosen by inner CV over 5 folds"
)

// RunExternal times the studies whose inputs the options provide.
func RunExternal(ctx context.Context, o ExternalOptions) (ExternalResult, error) {
	if o.Rounds == 0 {
		o.Rounds = 2
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	dir, cleanup, err := scratchDir(o.Dir, "fgrtbench-external-speed-")
	if err != nil {
		return ExternalResult{}, err
	}
	defer cleanup()
	o.Dir = dir
	res := ExternalResult{Load0: loadAverage()}
	if o.Python != "" {
		out, err := foreign.Output(exec.CommandContext(ctx, o.Python, "-c", `import sys, sklearn; print("Python %d.%d.%d" % sys.version_info[:3], "with scikit-learn", sklearn.__version__)`))
		if err != nil {
			return res, fmt.Errorf("%s: %w", o.Python, err)
		}
		res.Python = strings.TrimSpace(string(out))
		dir := filepath.Join(o.Dir, "sklearn")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return res, err
		}
		for _, f := range []string{"sklearn_tree.py", "fgrtbench_adapter.py"} {
			if err := copyFile(filepath.Join(o.Examples, f), filepath.Join(dir, f)); err != nil {
				return res, err
			}
		}
		s, err := o.timeModes(ctx, dir, 2, func(mode string) string { return fmt.Sprintf(sklearnStudy, o.Python, mode) })
		if err != nil {
			return res, fmt.Errorf("scikit-learn study: %w", err)
		}
		res.Sklearn = &s
	}
	if o.GoAdapter != "" {
		dir := filepath.Join(o.Dir, "go")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return res, err
		}
		abs, err := filepath.Abs(filepath.Join(dir, "goadapter"))
		if err != nil {
			return res, err
		}
		build := exec.CommandContext(ctx, o.Go, "build", "-o", abs, ".")
		build.Dir = o.GoAdapter
		if out, err := foreign.CombinedOutput(build); err != nil {
			return res, fmt.Errorf("building the Go test adapter: %w: %s", err, strings.TrimSpace(string(out)))
		}
		// -j 1: wall time ÷ jobs is then the harness's time per job.
		s, err := o.timeModes(ctx, dir, 1, func(mode string) string { return fmt.Sprintf(goStudy, abs, mode) })
		if err != nil {
			return res, fmt.Errorf("the Go adapter study: %w", err)
		}
		res.Overhead = &s
	}
	res.Load1 = loadAverage()
	return res, nil
}

// timeModes writes the study in both modes to dir, runs it Rounds times in
// process then worker mode (fresh output each time), checks that each
// round's two results.csv agree timing aside, and counts the adapter's jobs
// in one more, untimed, worker-mode run that keeps the job directories.
func (o ExternalOptions) timeModes(ctx context.Context, dir string, j int, spec func(mode string) string) (ExternalStudy, error) {
	s := ExternalStudy{J: j}
	modes := []string{"process", "worker"}
	for _, mode := range modes {
		if err := os.WriteFile(filepath.Join(dir, mode+".yaml"), []byte(spec(mode)), 0o644); err != nil {
			return s, err
		}
	}
	run := func(mode, out string, extra ...string) (float64, error) {
		args := append([]string{"run", "--spec", filepath.Join(dir, mode+".yaml"), "--out", out, "-j", fmt.Sprint(j), "--no-report"}, extra...)
		cmd := exec.CommandContext(ctx, o.Binary, args...)
		cmd.Env = childEnv(nil)
		var stderr foreign.Tail
		cmd.Stderr = &stderr
		t0 := time.Now()
		err := cmd.Run()
		wall := time.Since(t0).Seconds()
		if err != nil {
			lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
			return 0, fmt.Errorf("%s mode: %w: %s", mode, err, lines[len(lines)-1])
		}
		return wall, nil
	}
	for r := 1; r <= o.Rounds; r++ {
		var untimed [2]string
		for i, mode := range modes {
			out := filepath.Join(dir, fmt.Sprintf("out-%s-%d", mode, r))
			wall, err := run(mode, out)
			if err != nil {
				return s, err
			}
			fmt.Fprintf(o.Log, "speed: external %s round %d: %s mode %.2fs\n", filepath.Base(dir), r, mode, wall)
			if mode == "process" {
				s.Process = append(s.Process, wall)
			} else {
				s.Worker = append(s.Worker, wall)
			}
			if untimed[i], s.Units, err = untimedResults(filepath.Join(out, "results.csv")); err != nil {
				return s, err
			}
		}
		if untimed[0] != untimed[1] {
			return s, fmt.Errorf("round %d: process and worker mode wrote different results.csv (timing columns aside)", r)
		}
	}
	kept := filepath.Join(dir, "kept")
	if _, err := run("worker", filepath.Join(dir, "out-count"), "--keep-unit-dirs", kept); err != nil {
		return s, err
	}
	entries, err := os.ReadDir(kept)
	if err != nil {
		return s, err
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "job-") {
			s.Jobs++
		}
	}
	if s.Jobs == 0 {
		return s, fmt.Errorf("%s: no job directories kept", kept)
	}
	return s, nil
}

// untimedResults returns results.csv with its timing columns blanked, and
// its row count.
func untimedResults(path string) (string, int, error) {
	f, err := safefile.Open(path, safefile.ResultsCap)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return "", 0, fmt.Errorf("%s: %w", path, err)
	}
	if len(recs) == 0 {
		return "", 0, fmt.Errorf("%s: empty", path)
	}
	var timingCols []int
	for i, name := range recs[0] {
		if slices.Contains(results.TimingColumns, name) {
			timingCols = append(timingCols, i)
		}
	}
	var b strings.Builder
	w := csv.NewWriter(&b)
	for n, rec := range recs {
		for _, i := range timingCols {
			if n > 0 && i < len(rec) {
				rec[i] = ""
			}
		}
		if err := w.Write(rec); err != nil {
			return "", 0, err
		}
	}
	w.Flush()
	return b.String(), len(recs) - 1, w.Error()
}

func copyFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, data, 0o644)
}

// ExternalMarkdown renders the external-learner measurement for the
// generated performance block ("" when both studies were skipped).
func ExternalMarkdown(r ExternalResult) string {
	if r.Sklearn == nil && r.Overhead == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "External learners (`fgrtbench speed --external`): one study run by `fgrtbench run` in process mode (the adapter started for every job) and in worker mode (one adapter process per harness worker), alternately, with fresh output each time; `results.csv` was identical in both modes in every round (timing columns aside). Load average (1/5/15 min) %s before, %s after this task.\n", orNone(r.Load0, "unknown"), orNone(r.Load1, "unknown"))
	if s := r.Sklearn; s != nil {
		fmt.Fprintf(&b, "\nThe scikit-learn example's adapter (`examples/external/sklearn_tree.py`, %s) as the external method of a reduced `examples/external/sklearn.yaml`: %s; %d units, %d adapter jobs, `-j %d`:\n\n",
			r.Python, SklearnStudyText, s.Units, s.Jobs, s.J)
		modeTable(&b, s, "the adapter's Python started per job", "one Python per harness worker")
		fmt.Fprintf(&b, "\nWorker mode was **%.0f× faster** (medians).\n", median(s.Process)/median(s.Worker))
	}
	if s := r.Overhead; s != nil {
		fmt.Fprintf(&b, "\nHarness overhead per job: the Go test adapter (`bench/external/externaltest`, a nearest-centroid classifier whose own work is tens of microseconds per job) in the same way: %s; %d units, %d jobs, `-j %d`, so wall time ÷ jobs bounds the harness's cost per job from above (the whole run included: start, data, folds, results):\n\n",
			GoStudyText, s.Units, s.Jobs, s.J)
		modeTable(&b, s, "the adapter started per job", "one adapter process")
		fmt.Fprintf(&b, "\nWorker mode: **%.1f ms per job** beyond the adapter's own work.\n", median(s.Worker)*1e3/float64(s.Jobs))
	}
	return b.String()
}

func modeTable(b *strings.Builder, s *ExternalStudy, process, worker string) {
	b.WriteString("| mode |")
	for i := range s.Process {
		fmt.Fprintf(b, " round %d |", i+1)
	}
	b.WriteString(" median | per job |\n|---|")
	b.WriteString(strings.Repeat("---:|", len(s.Process)+2) + "\n")
	for _, row := range []struct {
		name  string
		walls []float64
	}{{"process (" + process + ")", s.Process}, {"worker (" + worker + ")", s.Worker}} {
		fmt.Fprintf(b, "| %s |", row.name)
		for _, w := range row.walls {
			fmt.Fprintf(b, " %s |", seconds(w))
		}
		m := median(row.walls)
		fmt.Fprintf(b, " %s | %s |\n", seconds(m), seconds(m/float64(s.Jobs)))
	}
}
