package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/tasks/runstudy"
)

// TestUnitTimesEnv: FGRTBENCH_UNIT_TIMES makes run write the schedule of
// the units it ran to a new file (a header and one row per unit), and
// refuses, before anything runs, a file that is already there.
func TestUnitTimesEnv(t *testing.T) {
	spec := tinyStudy(t)
	dir := t.TempDir()
	times := filepath.Join(dir, "times.csv")
	env := map[string]string{runstudy.UnitTimesEnv: times}
	out := filepath.Join(dir, "out")
	if code, _, e := runCLIEnv(env, "run", "--spec", spec, "--out", out, "--no-report", "-j", "2"); code != 0 {
		t.Fatalf("run: exit %d: %s", code, e)
	}
	b, err := os.ReadFile(times)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[0], "started,canonical,") {
		t.Fatalf("unit times:\n%s\nwant a header and the 4 units", b)
	}

	again := filepath.Join(dir, "again")
	code, _, e := runCLIEnv(env, "run", "--spec", spec, "--out", again, "--no-report")
	if code == 0 || !strings.Contains(e, "exists") {
		t.Errorf("an existing unit-times file: exit %d, %q; want a refusal", code, e)
	}
	if _, err := os.Stat(again); !os.IsNotExist(err) {
		t.Errorf("the refused run left %s behind (%v)", again, err)
	}
	if b2, _ := os.ReadFile(times); string(b2) != string(b) {
		t.Error("the refused run changed the existing file")
	}
}
