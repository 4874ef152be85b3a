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

// TestWrapperChildrenDie: a wrapper script that does not exec its learner
// (sh running sleep in the foreground or the background) is killed with its
// children on timeout, on interrupt and when it exits leaving a child
// behind; the run does not wait for them, and the unit's directory is
// removed, also when the script left a directory without write permission
// in it.
func TestWrapperChildrenDie(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("skipping: no sh")
	}
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("skipping: no /proc")
	}
	d := learntest.Problems()[0]
	cases := []struct {
		name, script, timeout string
		interrupt             bool
		want                  string
	}{
		{"timeout, foreground child", "sh -c 'echo $$ >> \"$0\"; exec sleep 30' \"$2\"\n", "300ms", false, "timed out after 300ms"},
		{"timeout, background child", "sleep 30 &\necho $! >> \"$2\"\nwait\n", "300ms", false, "timed out"},
		{"interrupt", "sh -c 'echo $$ >> \"$0\"; exec sleep 30' \"$2\"\n", "1m", true, "interrupted"},
		{"exit leaving a child", "sleep 30 &\necho $! >> \"$2\"\nexit 3\n", "1m", false, "exited with status 3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "log")
			// The script records its unit directory and its own pid; the
			// cases above add their background child's.
			prologue := "echo \"$1\" > \"$2\"\necho $$ >> \"$2\"\nmkdir \"$1/ro\" && touch \"$1/ro/f\" && chmod 500 \"$1/ro\"\n"
			script := writeFile(t, "wrapper.sh", prologue+c.script)
			s := Spec{Command: sh + " " + script + " {dir} {log}", Params: map[string]string{"log": log}, Timeout: c.timeout}
			tr, err := trainerOf(t, s, nil)(1)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if c.interrupt {
				tr = tr.(*Trainer).WithContext(ctx)
				time.AfterFunc(300*time.Millisecond, cancel)
			}
			m, err := tr.Fit(d.XTrain, d.YTrain, d.Schema)
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			_, _, err = learn.PredictChecked(m, d.XTest, d.Schema.NumClasses())
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
			if took := time.Since(start); took > 3*time.Second {
				t.Errorf("the run waited %v for the wrapper's children", took.Round(time.Millisecond))
			}
			data, err := os.ReadFile(log)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Fields(string(data))
			if _, err := os.Stat(lines[0]); !os.IsNotExist(err) {
				t.Errorf("the unit's directory %s is left behind (%v)", lines[0], err)
			}
			for _, p := range lines[1:] {
				pid, _ := strconv.Atoi(p)
				deadline := time.Now().Add(2 * time.Second)
				for externaltest.ProcessAlive(pid) && time.Now().Before(deadline) {
					time.Sleep(20 * time.Millisecond)
				}
				if externaltest.ProcessAlive(pid) {
					t.Errorf("process %d of the command survived", pid)
				}
			}
		})
	}
}
