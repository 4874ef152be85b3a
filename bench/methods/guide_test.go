package methods

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
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
// builtin with its import) keeps the tests green. It copies the packages
// bench/methods' tests need to a temporary module, adds the one-split
// learner of testdata/guidelearner as baselines/throwaway with its
// conformance test, registers it with one line, and runs go test on
// bench/methods, the worked example's package (whose test holds the guide
// to the example) and the new package, offline, from the module cache.
func TestAddingALearner(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: copies the repository and runs go test in the copy (a minute)")
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
	// The registry and the worked example, whose test checks the guide.
	tested := []string{"./bench/methods", "./examples/centroid"}
	copyPackages(t, goBin, root, dst, tested)
	for _, f := range []string{"go.mod", "go.sum", filepath.Join("docs", "adding-a-learner.md")} {
		copyFile(t, filepath.Join(root, f), filepath.Join(dst, f))
	}

	// The learner's package and its test.
	pkg := filepath.Join(dst, "baselines", "throwaway")
	copyFile(t, filepath.Join("testdata", "guidelearner", "throwaway.go.txt"), filepath.Join(pkg, "throwaway.go"))
	copyFile(t, filepath.Join("testdata", "guidelearner", "throwaway_test.go.txt"), filepath.Join(pkg, "throwaway_test.go"))
	// The registration line, with its import.
	reg := filepath.Join(dst, "bench", "methods", "registry.go")
	edit(t, reg, "func builtin() {\n", "func builtin() {\n\tRegister(throwaway.Spec)\n")
	edit(t, reg, "\t\""+module+"/learn\"\n", "\t\""+module+"/baselines/throwaway\"\n\t\""+module+"/learn\"\n")

	// Every test of both packages but this one, which would copy again.
	args := append([]string{"test", "-count=1", "-v", "-skip", "^TestAddingALearner$"}, tested...)
	cmd := exec.Command(goBin, append(args, "./baselines/throwaway")...)
	cmd.Dir = dst
	// Offline and in this module only: the module cache has every
	// dependency this repository's go.sum names.
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=readonly", "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test in the copy with the guide's learner: %v\n%s", err, tail(out))
	}
	// The learner took part: the registry's conformance run held it to the
	// contract (a registration the tests never saw would prove nothing).
	for _, want := range []string{"--- PASS: TestConformance/throwaway-stump/", "--- PASS: TestBuiltinDeclarations", "ok  \t" + module + "/baselines/throwaway", "--- PASS: TestGuideFollowsTheCode"} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("go test output lacks %q:\n%s", want, tail(out))
		}
	}
}

// copyPackages copies to dst the source files of the packages pkgs and of
// every package of this module that they or their tests import: the
// non-test Go files and embedded files of each, and the test files of pkgs
// themselves.
func copyPackages(t *testing.T, goBin, root, dst string, pkgs []string) {
	t.Helper()
	cmd := exec.Command(goBin, "list", "-deps", "-test", "-json=ImportPath,Dir,GoFiles,CgoFiles,EmbedFiles,TestGoFiles,XTestGoFiles,Module")
	cmd.Args = append(cmd.Args, pkgs...)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	type listed struct {
		ImportPath, Dir               string
		GoFiles, CgoFiles, EmbedFiles []string
		TestGoFiles, XTestGoFiles     []string
		Module                        *struct{ Path string }
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	copied := 0
	for {
		var p listed
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if p.Module == nil || p.Module.Path != module || strings.HasSuffix(p.ImportPath, ".test") {
			continue
		}
		rel, err := filepath.Rel(root, p.Dir)
		if err != nil || strings.HasPrefix(rel, "..") {
			t.Fatalf("package %s lies outside the repository: %s", p.ImportPath, p.Dir)
		}
		files := append(append(p.GoFiles, p.CgoFiles...), p.EmbedFiles...)
		if slices.Contains(pkgs, "./"+filepath.ToSlash(rel)) {
			files = append(append(files, p.TestGoFiles...), p.XTestGoFiles...)
		}
		for _, f := range files {
			copyFile(t, filepath.Join(p.Dir, f), filepath.Join(dst, rel, f))
			copied++
		}
	}
	if copied == 0 {
		t.Fatalf("go list named no file of %v", pkgs)
	}
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
