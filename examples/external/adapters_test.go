// Tests of the example adapters: each runs through the conformance suite
// every learner passes, when a Python interpreter with the adapter's
// packages is present (FGRT_PYTHON, default python3), and is skipped with
// a message otherwise.
package external_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/external"
	"github.com/fgrtbench/fgrtbench/bench/runner"
	"github.com/fgrtbench/fgrtbench/bench/spec"
	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/learn/learntest"
)

// python returns an interpreter that imports every module, or skips.
func python(t *testing.T, modules ...string) string {
	t.Helper()
	py := os.Getenv("FGRT_PYTHON")
	if py == "" {
		py = "python3"
	}
	path, err := exec.LookPath(py)
	if err != nil {
		t.Skipf("skipping: no Python interpreter %q (set FGRT_PYTHON)", py)
	}
	out, err := exec.Command(path, "-c", "import "+strings.Join(modules, ", ")).CombinedOutput()
	if err != nil {
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		t.Skipf("skipping: %s cannot import %s (%s); install them or set FGRT_PYTHON to an interpreter that has them",
			path, strings.Join(modules, ", "), lines[len(lines)-1])
	}
	return path
}

func conformance(t *testing.T, s external.Spec) {
	m, err := s.Method()
	if err != nil {
		t.Fatal(err)
	}
	cfg := m.Defaults()
	learntest.Run(t, learntest.Subject{Name: s.Command, New: func(seed int64) (learn.Trainer, error) { return m.New(cfg, seed) }})
}

func TestSklearnAdapter(t *testing.T) {
	py := python(t, "sklearn")
	conformance(t, external.Spec{Command: py + " sklearn_tree.py {dir}", Params: map[string]string{"max_depth": "4"}, Timeout: "2m"})
}

func TestWittgensteinAdapter(t *testing.T) {
	py := python(t, "pandas", "wittgenstein")
	conformance(t, external.Spec{Command: py + " ripper_wittgenstein.py {dir}", Params: map[string]string{"k": "2"}, Timeout: "5m"})
}

// TestExampleSpecsParse: the example specs are valid studies (run from the
// repository root, where their commands' paths start).
func TestExampleSpecsParse(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("skipping: the example specs run python3, which is not on PATH")
	}
	t.Chdir("../..")
	for _, name := range []string{"sklearn.yaml", "ripper.yaml", "cart-check.yaml"} {
		s, err := spec.Load("examples/external/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := runner.UnitsOf(s); err != nil {
			t.Fatal(err)
		}
	}
}
