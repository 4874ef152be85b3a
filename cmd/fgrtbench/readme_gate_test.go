package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// readmeGateCommands returns the commands of the README's CI-gate example
// (the sh block after "**A CI gate**"), comments removed.
func readmeGateCommands(t *testing.T) []string {
	t.Helper()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(readme), "**A CI gate**")
	if !ok {
		t.Fatal("README.md has no CI-gate example")
	}
	_, block, ok := strings.Cut(after, "```sh\n")
	block, _, ok2 := strings.Cut(block, "```")
	if !ok || !ok2 {
		t.Fatal("README.md's CI-gate example has no sh block")
	}
	var cmds []string
	for _, line := range strings.Split(block, "\n") {
		line, _, _ = strings.Cut(line, "#")
		if line = strings.TrimSpace(line); line != "" {
			cmds = append(cmds, line)
		}
	}
	if len(cmds) != 2 || !strings.Contains(cmds[0], "--update") {
		t.Fatalf("README.md's CI-gate example is %q; this test expects the update and the check", cmds)
	}
	return cmds
}

// copyCheckout copies the checkout's files (tracked, or untracked and not
// ignored: what a fresh clone of this change holds) to dst.
func copyCheckout(t *testing.T, dst string) {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	ls := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	ls.Dir = root
	out, err := ls.Output()
	if err != nil {
		t.Skipf("git ls-files: %v (not a checkout)", err)
	}
	for _, rel := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		src := filepath.Join(root, rel)
		st, err := os.Lstat(src)
		if err != nil || !st.Mode().IsRegular() {
			continue // deleted in the work tree, or a link: not needed here
		}
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, st.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
}

// TestREADMEGateExample runs the README's CI-gate commands as written, in
// a fresh copy of the repository with a binary built from it: the update
// records the same experiment and rows as the committed
// examples/ci/baseline.json, and the check passes, from the copy's root,
// from a subdirectory and from outside the copy (the baseline's paths
// resolve from its own directory). A row of the example's CSV edited is
// then refused as "data changed" with exit 3.
func TestREADMEGateExample(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	cmds := readmeGateCommands(t)
	tmp := t.TempDir()
	repo := filepath.Join(tmp, "repo")
	copyCheckout(t, repo)
	bin := filepath.Join(tmp, "bin")
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "fgrtbench"), "./cmd/fgrtbench")
	build.Dir = repo
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "FGRT_CACHE_DIR="+filepath.Join(tmp, "cache"))
	sh := func(dir, cmd string) (int, string) {
		c := exec.Command("sh", "-c", cmd)
		c.Dir, c.Env = dir, env
		out, err := c.CombinedOutput()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return exit.ExitCode(), string(out)
		}
		if err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
		return 0, string(out)
	}
	baseline := filepath.Join(repo, "examples", "ci", "baseline.json")
	committed, err := os.ReadFile(baseline)
	if err != nil {
		t.Fatal(err)
	}
	if code, out := sh(repo, cmds[0]); code != 0 {
		t.Fatalf("%s: exit %d\n%s", cmds[0], code, out)
	}
	updated, _ := os.ReadFile(baseline)
	var was, now map[string]json.RawMessage
	if err := json.Unmarshal(committed, &was); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(updated, &now); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"description", "study", "identity", "rows"} {
		if !bytes.Equal(was[k], now[k]) {
			t.Errorf("the README's update changed the committed baseline's %s:\n%s\nwas\n%s", k, now[k], was[k])
		}
	}

	// The check as written, from the root; then from elsewhere, with the
	// baseline's path as seen from there.
	check := cmds[1]
	rel := strings.Fields(check)
	var path string
	for i, f := range rel {
		if f == "--baseline" && i+1 < len(rel) {
			path = rel[i+1]
		}
	}
	if path == "" {
		t.Fatalf("%q names no --baseline", check)
	}
	for _, c := range []struct{ dir, cmd string }{
		{repo, check},
		{filepath.Join(repo, "docs"), strings.Replace(check, path, "../"+path, 1)},
		{tmp, strings.Replace(check, path, filepath.Join(repo, path), 1)},
	} {
		if code, out := sh(c.dir, c.cmd); code != 0 || !strings.Contains(out, "ok: 6 baseline rows match") {
			t.Errorf("in %s: %s: exit %d\n%s", c.dir, c.cmd, code, out)
		}
	}

	// A row of the example's data edited: refused by name, exit 3.
	data := filepath.Join(repo, "examples", "ci", "mine.csv")
	b, _ := os.ReadFile(data)
	lines := strings.SplitN(string(b), "\n", 3)
	lines[1] = strings.Replace(lines[1], ",", "1,", 1)
	if err := os.WriteFile(data, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out := sh(repo, check); code != 3 || !strings.Contains(out, "data changed: dataset mine.csv") {
		t.Errorf("edited data: exit %d\n%s", code, out)
	}
}
