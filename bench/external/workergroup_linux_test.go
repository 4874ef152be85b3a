package external

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fgrtbench/fgrtbench/bench/external/externaltest"
	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/learn/learntest"
)

// TestWorkerProcessGroup: a worker that is a wrapper script with a child
// is killed with the child on timeout; idle workers exit when the run's
// context ends.
func TestWorkerProcessGroup(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("skipping: no sh")
	}
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("skipping: no /proc")
	}
	log := filepath.Join(t.TempDir(), "pids")
	adapter := externaltest.GoAdapter(t)
	script := writeFile(t, "wrapper.sh", "sleep 60 &\necho $! >> "+log+"\necho $$ >> "+log+"\n"+adapter+" \"$@\"\n")
	s := Spec{Command: sh + " " + script + " {dir} {seed} {mode}", Params: map[string]string{"mode": "ok"}, Timeout: "500ms", Mode: ModeWorker}
	h := newHarness(t, s)
	if _, _, err := h.job("sleep"); err == nil || !strings.Contains(err.Error(), "timed out") {
		t.Fatalf("error %v, want a timeout", err)
	}
	waitDead := func(what string) {
		t.Helper()
		data, _ := os.ReadFile(log)
		for _, p := range strings.Fields(string(data)) {
			pid, _ := strconv.Atoi(p)
			deadline := time.Now().Add(3 * time.Second)
			for externaltest.ProcessAlive(pid) && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			if externaltest.ProcessAlive(pid) {
				t.Errorf("%s: process %d of the worker survived", what, pid)
			}
		}
	}
	waitDead("timeout")

	os.Remove(log)
	ctx, cancel := context.WithCancel(context.Background())
	d := learntest.Problems()[0]
	tr := h.m(nil).WithContext(ctx)
	model, _ := tr.Fit(d.XTrain, d.YTrain, d.Schema)
	if _, _, err := learn.PredictChecked(model, d.XTest, 3); err != nil {
		t.Fatal(err)
	}
	cancel()
	waitDead("end of the run")
}

// TestKillWorkersAtOnce: a second signal cannot wait out a worker's grace
// period; KillWorkers kills the group of a worker that ignores the end of
// its input at once, long before the 2 s are over.
func TestKillWorkersAtOnce(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("skipping: no sh")
	}
	log := filepath.Join(t.TempDir(), "pids")
	adapter := externaltest.GoAdapter(t)
	script := writeFile(t, "stubborn.sh", "echo $$ >> "+log+"\n"+adapter+" \"$@\"\nsleep 60 &\necho $! >> "+log+"\nwait\n")
	s := Spec{Command: sh + " " + script + " {dir} {seed} {mode}", Params: map[string]string{"mode": "ok"}, Mode: ModeWorker}
	h := newHarness(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	d := learntest.Problems()[0]
	model, err := h.m(nil).WithContext(ctx).Fit(d.XTrain, d.YTrain, d.Schema)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := learn.PredictChecked(model, d.XTest, 3); err != nil {
		t.Fatal(err)
	}
	cancel() // the run ends: the idle worker is retired, its grace begins
	deadline := time.Now().Add(time.Second)
	for {
		data, _ := os.ReadFile(log)
		if len(strings.Fields(string(data))) == 2 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	start := time.Now()
	KillWorkers()
	time.Sleep(100 * time.Millisecond)
	data, _ := os.ReadFile(log)
	pids := strings.Fields(string(data))
	if len(pids) != 2 {
		t.Fatalf("pids %q, want the wrapper's and its child's", pids)
	}
	for _, p := range pids {
		pid, _ := strconv.Atoi(p)
		if externaltest.ProcessAlive(pid) {
			t.Errorf("process %d lives on %v after KillWorkers", pid, time.Since(start))
		}
	}
}
