package external

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fgrtbench/fgrtbench/bench/external/externaltest"
	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/learn/learntest"
)

// workerSpec runs the Go adapter as a worker; flags go before the
// placeholders (-noread, -die).
func workerSpec(t *testing.T, flags string) Spec {
	s := goSpec(t, "ok")
	if flags != "" {
		s.Command = strings.Replace(s.Command, " {dir}", " "+flags+" {dir}", 1)
	}
	s.Mode = ModeWorker
	return s
}

// harness is one method's trainers (one pool in worker mode) on the first
// conformance problem.
type harness struct {
	t    *testing.T
	s    Spec
	m    func(overrides map[string]string) *Trainer
	last *Trainer
}

func newHarness(t *testing.T, s Spec) *harness {
	t.Helper()
	m, err := s.Method()
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, s: s}
	h.m = func(overrides map[string]string) *Trainer {
		cfg, err := m.Resolve(overrides)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := m.New(cfg, 7)
		if err != nil {
			t.Fatal(err)
		}
		h.last = tr.(*Trainer)
		return h.last
	}
	h.m(nil)
	t.Cleanup(func() { h.last.Close() })
	return h
}

// job fits and predicts once with the given mode parameter.
func (h *harness) job(mode string) (learn.Model, []int, error) {
	h.t.Helper()
	d := learntest.Problems()[0]
	tr := h.m(map[string]string{"mode": mode})
	model, err := tr.Fit(d.XTrain, d.YTrain, d.Schema)
	if err != nil {
		h.t.Fatal(err)
	}
	pred, _, err := learn.PredictChecked(model, d.XTest, d.Schema.NumClasses())
	return model, pred, err
}

func (h *harness) started() int64 { return h.last.WorkersStarted() }

// TestWorkerConformance holds worker mode to the contract every learner
// meets (the conformance suite predicts from several goroutines at once:
// the pool starts a worker per concurrent job).
func TestWorkerConformance(t *testing.T) {
	h := newHarness(t, workerSpec(t, ""))
	learntest.Run(t, learntest.Subject{Name: "external-worker", New: func(seed int64) (learn.Trainer, error) {
		tr := h.m(nil)
		c := *tr
		c.seed = seed
		return &c, nil
	}})
}

// TestWorkerRoundTrips: one worker serves consecutive jobs (its job count
// grows, its pid stays), and every job's predictions, complexity and rules
// equal process mode's.
func TestWorkerRoundTrips(t *testing.T) {
	w := newHarness(t, workerSpec(t, ""))
	p := newHarness(t, goSpec(t, "ok"))
	pidJob := regexp.MustCompile(`# pid (\d+) job (\d+)\n`)
	var pids []string
	for i := 1; i <= 5; i++ {
		wm, wpred, err := w.job("pid")
		if err != nil {
			t.Fatal(err)
		}
		pm, ppred, err := p.job("pid")
		if err != nil {
			t.Fatal(err)
		}
		d := learntest.Problems()[0]
		wr, pr := wm.Rules(d.Schema), pm.Rules(d.Schema)
		got := pidJob.FindStringSubmatch(wr)
		if got == nil || got[2] != strconv.Itoa(i) {
			t.Fatalf("job %d: worker rules %q, want the worker's job %d", i, wr, i)
		}
		pids = append(pids, got[1])
		if !slices.Equal(wpred, ppred) || wm.Complexity() != pm.Complexity() || pidJob.ReplaceAllString(wr, "") != pidJob.ReplaceAllString(pr, "") {
			t.Errorf("job %d: worker and process mode differ:\n%v %v %q\n%v %v %q", i, wpred, wm.Complexity(), wr, ppred, pm.Complexity(), pr)
		}
	}
	if len(slices.Compact(pids)) != 1 || w.started() != 1 {
		t.Errorf("pids %v, %d workers started: want one worker for all jobs", pids, w.started())
	}
}

// TestWorkerFaults: each way a worker can fail fails its job with one line
// naming it, in bounded time, and the next job on the same method runs on
// a fresh worker (or, for an orderly error answer, on the same one).
func TestWorkerFaults(t *testing.T) {
	cases := []struct {
		mode, timeout, want string
		keepsWorker         bool
	}{
		{"sleep", "500ms", "goadapter worker timed out after 500ms", false},
		{"exit", "", "goadapter worker exited with status 3 before answering: Traceback (most recent call last): | ValueError: the model exploded", false},
		{"exit0", "", "goadapter worker exited with status 0 before answering", false},
		{"garbage", "", `goadapter worker wrote "fitting... done" on its standard output, which is not an answer`, false},
		{"wrongid", "", "but job", false},
		{"hugeline", "", "wrote an answer line longer than 65536 bytes", false},
		{"hugepred", "", "predictions.txt is larger than", true},
		{"fifo", "", "predictions.txt is a named pipe, not a regular file", true},
		{"short", "", "predictions.txt has 22 predictions for 23 test rows", true},
		{"badjson", "", "malformed result.json", true},
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			s := workerSpec(t, "")
			if c.timeout != "" {
				s.Timeout = c.timeout
			}
			h := newHarness(t, s)
			if _, _, err := h.job("ok"); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			_, _, err := h.job(c.mode)
			took := time.Since(start)
			t.Logf("%s: %v", c.mode, err)
			if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %q, want one line containing %q", err, c.want)
			}
			if took > 4*time.Second {
				t.Errorf("the failure took %v", took.Round(time.Millisecond))
			}
			before := h.started()
			if _, _, err := h.job("ok"); err != nil {
				t.Fatalf("the job after the failure: %v", err)
			}
			if fresh := h.started() > before; fresh == c.keepsWorker {
				t.Errorf("after %s: fresh worker %v, want %v", c.mode, fresh, !c.keepsWorker)
			}
		})
	}
}

// TestWorkerFaultsAtStart: a worker that never reads its input times out;
// one that dies at start (an import error) fails with its last words.
func TestWorkerFaultsAtStart(t *testing.T) {
	cases := []struct{ flags, timeout, want string }{
		{"-noread", "500ms", "goadapter worker timed out after 500ms"},
		{"-die", "", "goadapter worker exited with status 1 before answering: Traceback (most recent call last): | ImportError: No module named 'sklearn'"},
	}
	for _, c := range cases {
		t.Run(c.flags, func(t *testing.T) {
			s := workerSpec(t, c.flags)
			if c.timeout != "" {
				s.Timeout = c.timeout
			}
			h := newHarness(t, s)
			for i := 0; i < 2; i++ { // and again, on a fresh worker
				start := time.Now()
				_, _, err := h.job("ok")
				if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("error %q, want one line containing %q", err, c.want)
				}
				if took := time.Since(start); took > 4*time.Second {
					t.Errorf("the failure took %v", took.Round(time.Millisecond))
				}
			}
			if h.started() != 2 {
				t.Errorf("%d workers started, want one per job", h.started())
			}
		})
	}
}

// TestWorkerErrorAnswer: an orderly error answer fails the job with the
// worker's message and keeps the worker; an answer line after the answer
// (the worker's output out of step) retires the worker before the next job
// takes it.
func TestWorkerErrorAnswer(t *testing.T) {
	flag := filepath.Join(t.TempDir(), "flag")
	os.WriteFile(flag, nil, 0o644)
	s := workerSpec(t, "")
	s.Params["flag"] = flag
	m, err := s.Method()
	if err != nil {
		t.Fatal(err)
	}
	d := learntest.Problems()[0]
	cfg, err := m.Resolve(map[string]string{"mode": "fail-if-flag"})
	if err != nil {
		t.Fatal(err)
	}
	var tr *Trainer
	for seed := int64(3); seed <= 4; seed++ { // seed 3 fails, 4 succeeds
		x, _ := m.New(cfg, seed)
		tr = x.(*Trainer)
		model, _ := tr.Fit(d.XTrain, d.YTrain, d.Schema)
		_, _, err := learn.PredictChecked(model, d.XTest, 3)
		if seed == 3 && (err == nil || !strings.Contains(err.Error(), "goadapter worker failed the job: goadapter: flag set")) {
			t.Errorf("seed 3: %v", err)
		}
		if seed == 4 && err != nil {
			t.Errorf("seed 4: %v", err)
		}
	}
	defer tr.Close()
	if tr.WorkersStarted() != 1 {
		t.Errorf("%d workers started, want 1 (an error answer keeps the worker)", tr.WorkersStarted())
	}

	h := newHarness(t, workerSpec(t, ""))
	for _, mode := range []string{"twice", "ok"} {
		if _, _, err := h.job(mode); err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
	}
	if h.started() != 2 {
		t.Errorf("%d workers started, want 2 (a worker that wrote an extra line is not reused)", h.started())
	}
}

// TestWorkerRecycle: worker_jobs N starts a fresh worker every N jobs.
func TestWorkerRecycle(t *testing.T) {
	s := workerSpec(t, "")
	s.WorkerJobs = 2
	h := newHarness(t, s)
	d := learntest.Problems()[0]
	pidJob := regexp.MustCompile(`# pid (\d+) job (\d+)\n`)
	var jobs []string
	pids := map[string]bool{}
	for i := 0; i < 5; i++ {
		m, _, err := h.job("pid")
		if err != nil {
			t.Fatal(err)
		}
		got := pidJob.FindStringSubmatch(m.Rules(d.Schema))
		pids[got[1]] = true
		jobs = append(jobs, got[2])
	}
	if want := []string{"1", "2", "1", "2", "1"}; !slices.Equal(jobs, want) || len(pids) != 3 || h.started() != 3 {
		t.Errorf("job numbers %v in %d processes (%d started), want %v in 3", jobs, len(pids), h.started(), want)
	}
}

// TestWorkerFreshDirectories: every job of a worker gets a directory that
// holds its inputs only (the adapter fails on a file a previous job left).
func TestWorkerFreshDirectories(t *testing.T) {
	h := newHarness(t, workerSpec(t, ""))
	for i := 0; i < 4; i++ {
		if _, _, err := h.job("junk"); err != nil {
			t.Fatal(err)
		}
	}
	if h.started() != 1 {
		t.Errorf("%d workers started, want 1", h.started())
	}
}

// TestKeepUnitDirs: with KeepDirs every job's directory stays, with its
// inputs, outputs and job.json, and a failure names it.
func TestKeepUnitDirs(t *testing.T) {
	for _, mode := range []string{ModeProcess, ModeWorker} {
		t.Run(mode, func(t *testing.T) {
			keep := t.TempDir()
			s := goSpec(t, "ok")
			s.Mode, s.KeepDirs = mode, keep
			h := newHarness(t, s)
			if _, _, err := h.job("ok"); err != nil {
				t.Fatal(err)
			}
			_, _, err := h.job("short")
			if err == nil || !strings.Contains(err.Error(), "(job files kept in "+keep+"/job-") {
				t.Fatalf("error %v does not name the kept directory", err)
			}
			dirs, _ := filepath.Glob(filepath.Join(keep, "job-*"))
			if len(dirs) != 2 {
				t.Fatalf("kept %v, want 2 job directories", dirs)
			}
			for i, dir := range dirs {
				for _, name := range []string{TrainFile, TestFile, SchemaFile, PartitionsFile, ParamsFile, PredictionsFile, ResultFile, JobRecordFile} {
					if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
						t.Errorf("job %d: %v", i, err)
					}
				}
				rec, _ := os.ReadFile(filepath.Join(dir, JobRecordFile))
				if !strings.Contains(string(rec), `"mode": "`+mode+`"`) || (i == 1) != strings.Contains(string(rec), `"error": "external:`) {
					t.Errorf("job %d: job.json\n%s", i, rec)
				}
			}
		})
	}
}

// TestRelativeToSpecDir: with a base directory (the spec file's), the
// command's relative paths and the adapter resolve against it and the
// command runs there, whatever the current directory; the configuration
// (command as written, adapter checksum) is the one the same spec has
// when run from its own directory.
func TestRelativeToSpecDir(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("skipping: no sh")
	}
	base := t.TempDir()
	data, err := os.ReadFile(externaltest.GoAdapter(t))
	if err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(base, "bin"), 0o755)
	if err := os.WriteFile(filepath.Join(base, "bin", "goadapter"), data, 0o755); err != nil {
		t.Fatal(err)
	}
	// The script finds the adapter by a path relative to its working
	// directory: it works only when run in the base directory.
	os.WriteFile(filepath.Join(base, "run.sh"), []byte("exec bin/goadapter \"$@\"\n"), 0o644)
	for _, c := range []struct{ command, adapter string }{
		{"./bin/goadapter {dir} {seed} {mode}", ""},
		{sh + " run.sh {dir} {seed} {mode}", ""},
		{sh + " run.sh {dir} {seed} {mode}", "bin/goadapter"},
	} {
		for _, mode := range []string{ModeProcess, ModeWorker} {
			t.Chdir(base)
			s := Spec{Command: c.command, Adapter: c.adapter, Params: map[string]string{"mode": "ok"}, Mode: mode}
			mHere, err := s.Method()
			if err != nil {
				t.Fatal(err)
			}
			t.Chdir(t.TempDir())
			s.BaseDir = base
			h := newHarness(t, s)
			if _, _, err := h.job("ok"); err != nil {
				t.Fatalf("%s (%s): %v", c.command, mode, err)
			}
			mThere, _ := s.Method()
			if a, b := mHere.Defaults(), mThere.Defaults(); a[ParamCommand] != c.command || a[ParamCommand] != b[ParamCommand] || a[ParamAdapter] != b[ParamAdapter] {
				t.Errorf("%s: configuration %v from the spec's directory, %v from elsewhere", c.command, a, b)
			}
		}
	}
}

// TestReadBounded: output files are read only when regular and small
// enough; a named pipe is refused at once instead of blocking.
func TestReadBounded(t *testing.T) {
	dir := t.TempDir()
	regular := filepath.Join(dir, "regular")
	os.WriteFile(regular, []byte("0123456789"), 0o644)
	fifo := filepath.Join(dir, "fifo")
	if err := mkfifo(fifo); err != nil {
		t.Skipf("skipping: no named pipes: %v", err)
	}
	link := filepath.Join(dir, "link")
	os.Symlink(regular, link)
	cases := []struct {
		path  string
		limit int64
		want  string // "" = the file's bytes
	}{
		{regular, 10, ""},
		{regular, 9, "is larger than 9 bytes"},
		{fifo, 10, "is a named pipe, not a regular file"},
		{link, 10, "is a symbolic link, not a regular file"},
		{dir, 10, "is a directory, not a regular file"},
		{filepath.Join(dir, "absent"), 10, "no such file"},
	}
	for _, c := range cases {
		done := make(chan struct{})
		go func() {
			defer close(done)
			data, err := readBounded(c.path, c.limit)
			if c.want == "" {
				if err != nil || string(data) != "0123456789" {
					t.Errorf("%s: %q, %v", c.path, data, err)
				}
				return
			}
			if err == nil || !strings.Contains(fileError("f", err).Error(), c.want) {
				t.Errorf("%s: error %v, want %q", c.path, err, c.want)
			}
		}()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: reading blocked", c.path)
		}
	}
}

// TestAdapterChangedBetweenJobs: the adapter's checksum is checked before
// every job, also after jobs that found it unchanged (whose check is
// skipped while the file's stamp stays the same): an edit of the same
// size is caught.
func TestAdapterChangedBetweenJobs(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("skipping: no sh")
	}
	for _, mode := range []string{ModeProcess, ModeWorker} {
		script := writeFile(t, "adapter.sh", "# version a\nexec "+externaltest.GoAdapter(t)+" \"$@\"\n")
		s := Spec{Command: sh + " " + script + " {dir} {seed} {mode}", Params: map[string]string{"mode": "ok"}, Mode: mode}
		h := newHarness(t, s)
		for i := 0; i < 2; i++ {
			if _, _, err := h.job("ok"); err != nil {
				t.Fatal(err)
			}
		}
		data, err := os.ReadFile(script)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(script, []byte(strings.Replace(string(data), "version a", "version b", 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, _, err := h.job("ok"); err == nil || !strings.Contains(err.Error(), "changed during the study") {
			t.Errorf("%s: an adapter edited between jobs ran: %v", mode, err)
		}
	}
}

// TestWorkerLateSecondAnswer: a worker writes a second answer to a job
// only after the harness has sent it the next job (the race that the
// check before a job cannot close: the extra line is not there yet). That
// next job does not fail, nor takes the stale line for its answer: the
// worker is stopped and the job runs again on another worker, with the
// predictions of a worker that keeps in step.
func TestWorkerLateSecondAnswer(t *testing.T) {
	want := newHarness(t, workerSpec(t, ""))
	_, wantPred, err := want.job("ok")
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, workerSpec(t, ""))
	for _, mode := range []string{"late-twice", "ok"} {
		_, pred, err := h.job(mode)
		if err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
		if !slices.Equal(pred, wantPred) {
			t.Errorf("%s: predictions %v, want %v", mode, pred, wantPred)
		}
	}
	// ok's job found late-twice's worker out of step and ran on a second.
	if got := h.started(); got != 2 {
		t.Errorf("%d workers started, want 2 (a worker out of step is not reused)", got)
	}
}
