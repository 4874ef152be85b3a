package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestStampedBinaryNamesItsRevision builds the binary as run.sh and the
// container recipe do (deploy/build.sh, which sets the version, revision and
// modified flag through the linker) and runs it outside the checkout: its
// --version and version name the stamped revision, not "unknown revision";
// and bare fgrtbench prints the usage on stderr with exit status 2.
func TestStampedBinaryNamesItsRevision(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh to run deploy/build.sh")
	}
	run, err := os.ReadFile("../../run.sh")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(run), "deploy/build.sh ./fgrtbench") {
		t.Error("run.sh does not build through deploy/build.sh, so its binary would not name its revision")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "fgrtbench")
	const rev = "0123456789abcdef0123456789abcdef01234567"
	build := exec.Command("sh", "deploy/build.sh", bin)
	build.Dir = "../.."
	build.Env = append(os.Environ(), "REVISION="+rev, "VERSION=v0.0.0-test", "MODIFIED=false")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("deploy/build.sh: %v\n%s", err, out)
	}
	want := "fgrtbench v0.0.0-test " + rev + ", go"
	for _, args := range [][]string{{"--version"}, {"version"}} {
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir // outside the checkout: no git to ask
		out, err := cmd.Output()
		if err != nil || !strings.HasPrefix(string(out), want) {
			t.Errorf("fgrtbench %s: %v %q, want %q...", args[0], err, out, want)
		}
	}
	cmd := exec.Command(bin)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 || len(out) != 0 || !strings.Contains(stderr.String(), "Usage: fgrtbench <command>") {
		t.Errorf("bare fgrtbench: %v, stdout %q, stderr %q; want exit 2 and the usage on stderr", err, out, stderr.String())
	}
}
