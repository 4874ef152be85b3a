package methods

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// module is the repository's module path.
const module = "github.com/fgrtbench/fgrtbench"

// TestAddingALearner proves docs/adding-a-learner.md's promise: a learner
// added as it says (its package, its test, one registration line in
// builtin with its import: 3 files) keeps the whole module's tests green.
// It copies the module to a temporary directory, adds the one-split
// learner of testdata/guidelearner as baselines/throwaway with its
// conformance test, registers it with one line, checks that exactly those
// 3 files differ from the module, and runs go test ./... in the copy,
// offline, from the module cache.
//
// The copy runs the -short tier: the tests -short leaves out are the
// slow end-to-end ones, which this run of the module's own suite (never
// -short here) runs beside it, and the copy's suite is the one that would
// notice a package, a README line, a golden or a doc the new learner
// needs. Every test that takes the list of methods from the registry (the
// conformance suite, the declarations, the layout) sees the new learner.
func TestAddingALearner(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: copies the module and runs its -short tests in the copy (minutes)")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH: cannot run go test in a copy of the repository")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	copyModule(t, root, dst)

	// The learner's package and its test.
	pkg := filepath.Join(dst, "baselines", "throwaway")
	copyFile(t, filepath.Join("testdata", "guidelearner", "throwaway.go.txt"), filepath.Join(pkg, "throwaway.go"))
	copyFile(t, filepath.Join("testdata", "guidelearner", "throwaway_test.go.txt"), filepath.Join(pkg, "throwaway_test.go"))
	// The registration line, with its import.
	reg := filepath.Join(dst, "bench", "methods", "registry.go")
	edit(t, reg, "func builtin() {\n", "func builtin() {\n\tRegister(throwaway.Spec)\n")
	edit(t, reg, "\t\""+module+"/learn\"\n", "\t\""+module+"/baselines/throwaway\"\n\t\""+module+"/learn\"\n")
	if got, want := changedFiles(t, root, dst), []string{"baselines/throwaway/throwaway.go", "baselines/throwaway/throwaway_test.go", "bench/methods/registry.go"}; !slices.Equal(got, want) {
		t.Fatalf("the copy differs from the module in %q, want the guide's 3 files %q", got, want)
	}

	cmd := exec.Command(goBin, "test", "-short", "-count=1", "-json", "./...")
	cmd.Dir = dst
	// Offline and in this module only: the module cache has every
	// dependency this repository's go.sum names.
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=readonly", "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local")
	out, runErr := cmd.Output()
	run, err := readTestEvents(out)
	if err != nil {
		t.Fatalf("go test -json in the copy: %v (%v)\n%s", err, runErr, tail(out))
	}
	if runErr != nil || len(run.failed) > 0 {
		t.Fatalf("go test ./... in the copy with the guide's learner: %v; what failed:\n%s", runErr, strings.Join(run.failed, "\n"))
	}
	// The learner took part: the registry's conformance run held it to the
	// contract (a registration the tests never saw would prove nothing).
	for _, want := range []string{"bench/methods TestConformance/throwaway-stump", "bench/methods TestBuiltinDeclarations",
		"baselines/throwaway", "baselines/throwaway TestConformance", "examples/centroid TestGuideFollowsTheCode",
		"internal/layers TestReadmeLayoutMatchesTheTable"} {
		if !run.passed[want] {
			t.Errorf("go test in the copy did not pass %s", want)
		}
	}
}

// testRun is what go test -json reported: what passed, as "pkg" or "pkg
// Test", module-relative, and what failed with its output.
type testRun struct {
	passed map[string]bool
	failed []string
}

// readTestEvents reads the events of go test -json.
func readTestEvents(b []byte) (testRun, error) {
	run := testRun{passed: map[string]bool{}}
	output := map[string]*strings.Builder{}
	dec := json.NewDecoder(bytes.NewReader(b))
	for {
		var e struct{ Action, Package, ImportPath, Test, Output string }
		if err := dec.Decode(&e); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return run, err
		}
		if e.Package == "" {
			e.Package = e.ImportPath // a build event names the package so
		}
		key := strings.TrimPrefix(strings.TrimPrefix(e.Package, module), "/")
		if e.Test != "" {
			key += " " + e.Test
		}
		switch e.Action {
		case "output", "build-output":
			if output[key] == nil {
				output[key] = &strings.Builder{}
			}
			if output[key].Len() < 4000 {
				output[key].WriteString(e.Output)
			}
		case "pass":
			run.passed[key] = true
		case "fail", "build-fail":
			text := ""
			if output[key] != nil {
				text = output[key].String()
			}
			run.failed = append(run.failed, "--- "+key+"\n"+text)
		}
	}
	return run, nil
}

// copyModule copies the module at root to dst: every regular file but
// version control, the paths .gitignore names (a built binary, output
// directories) and symbolic links, which a copy must not follow.
func copyModule(t *testing.T, root, dst string) {
	t.Helper()
	copied := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		if rel != "." && ignoredInCopy(filepath.ToSlash(rel), d) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		copyFile(t, path, filepath.Join(dst, rel))
		copied++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if copied < 100 {
		t.Fatalf("copied %d files of %s: not the module", copied, root)
	}
}

// ignoredInCopy: version control and what .gitignore keeps out of the
// repository.
func ignoredInCopy(rel string, d fs.DirEntry) bool {
	name := d.Name()
	switch {
	case name == ".git", rel == "out" || rel == "fgrtbench" || rel == "testdata/fuzz-cache":
		return true
	case !d.IsDir() && (strings.HasSuffix(name, ".test") || strings.HasSuffix(name, ".prof")):
		return true
	}
	return false
}

// changedFiles lists, sorted and slash-separated, the files of dst that
// are new or differ from root.
func changedFiles(t *testing.T, root, dst string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dst, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dst, path)
		if err != nil {
			return err
		}
		got, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if was, err := os.ReadFile(filepath.Join(root, rel)); err != nil || !bytes.Equal(was, got) {
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// edit replaces the one occurrence of old in the file.
func edit(t *testing.T, path, old, new string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), old); n != 1 {
		t.Fatalf("%s: %d occurrences of %q, want 1", path, n, old)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// tail keeps the end of a long output, where go test reports failures.
func tail(b []byte) string {
	const max = 6000
	if len(b) > max {
		b = b[len(b)-max:]
	}
	return string(b)
}

// TestReadTestEvents: passes are keyed by package and test, and a failure
// (of a test or of a build) comes back with the output that explains it.
func TestReadTestEvents(t *testing.T) {
	events := `{"Action":"run","Package":"` + module + `/a","Test":"TestX"}
{"Action":"output","Package":"` + module + `/a","Test":"TestX","Output":"    x_test.go:3: README.md lacks a/b\n"}
{"Action":"fail","Package":"` + module + `/a","Test":"TestX"}
{"Action":"pass","Package":"` + module + `/a","Test":"TestY/sub"}
{"Action":"fail","Package":"` + module + `/a"}
{"ImportPath":"` + module + `/b [` + module + `/b.test]","Action":"build-output","Output":"b.go:1: syntax error\n"}
{"ImportPath":"` + module + `/b [` + module + `/b.test]","Action":"build-fail"}
{"Action":"pass","Package":"` + module + `/c"}
`
	run, err := readTestEvents([]byte(events))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"a TestY/sub", "c"} {
		if !run.passed[want] {
			t.Errorf("passed lacks %q: %v", want, run.passed)
		}
	}
	if run.passed["a TestX"] || run.passed["a"] {
		t.Errorf("a failure counted as a pass: %v", run.passed)
	}
	got := strings.Join(run.failed, "")
	for _, want := range []string{"--- a TestX\n    x_test.go:3: README.md lacks a/b", "--- a\n", "b.go:1: syntax error"} {
		if !strings.Contains(got, want) {
			t.Errorf("failures %q lack %q", got, want)
		}
	}
	if _, err := readTestEvents([]byte("not json")); err == nil {
		t.Error("a garbled stream was read without an error")
	}
}
