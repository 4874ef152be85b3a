package methods

import (
	"bytes"
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
// The copy runs the -short tier (docs/development.md#build-and-test): the
// tests -short leaves out are the slow end-to-end ones, which this run of
// the module's own suite (never -short here) runs beside it, and the
// copy's suite is the one that would notice a package, a README line, a
// golden or a doc the new learner needs. Every test that takes the list
// of methods from the registry (the conformance suite, the declarations,
// the layout) sees the new learner.
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

	cmd := exec.Command(goBin, "test", "-short", "-count=1", "-v", "./...")
	cmd.Dir = dst
	// Offline and in this module only: the module cache has every
	// dependency this repository's go.sum names.
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=readonly", "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test ./... in the copy with the guide's learner: %v\n%s", err, failures(out))
	}
	// The learner took part: the registry's conformance run held it to the
	// contract (a registration the tests never saw would prove nothing).
	for _, want := range []string{"--- PASS: TestConformance/throwaway-stump/", "--- PASS: TestBuiltinDeclarations",
		"ok  \t" + module + "/baselines/throwaway", "--- PASS: TestGuideFollowsTheCode", "--- PASS: TestReadmeLayoutMatchesTheTable"} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("go test output lacks %q:\n%s", want, tail(out))
		}
	}
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

// failures keeps the lines of a go test -v output that say what failed
// (and the end, where a build error lands), so that a red copy names its
// red tests.
func failures(b []byte) string {
	const max = 12000
	var keep strings.Builder
	for _, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, "FAIL") && keep.Len()+len(l) < max {
			keep.WriteString(l + "\n")
		}
	}
	return keep.String() + "...\n" + tail(b)
}

// tail keeps the end of a long output, where go test reports failures.
func tail(b []byte) string {
	const max = 6000
	if len(b) > max {
		b = b[len(b)-max:]
	}
	return string(b)
}
