// Tests of the example adapters: each runs through the conformance suite
// every learner passes (in worker mode, which loads Python once), and a
// small study gives the same results.csv, timing aside, in process and
// worker mode, when a Python interpreter with the adapter's packages is
// present (FGRT_PYTHON, default python3); they are skipped with a message
// otherwise.
package external_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/external"
	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/bench/runner"
	"github.com/fgrtbench/fgrtbench/bench/spec"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/learn/learntest"
	"github.com/fgrtbench/fgrtbench/results"
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
	var last learn.Trainer
	t.Cleanup(func() {
		if c, ok := last.(interface{ Close() }); ok {
			c.Close()
		}
	})
	learntest.Run(t, learntest.Subject{Name: s.Command, New: func(seed int64) (learn.Trainer, error) {
		tr, err := m.New(cfg, seed)
		last = tr
		return tr, err
	}})
}

// synthetic is a small 3-class dataset.
func synthetic(ctx context.Context, name string) (*datasets.Dataset, error) {
	rng := rand.New(rand.NewPCG(11, 3))
	d := &datasets.Dataset{Name: name, Classes: []string{"a", "b", "c"}}
	for j := 0; j < 3; j++ {
		d.Inputs = append(d.Inputs, datasets.Attribute{Name: fmt.Sprintf("f%d", j), Type: "real", Min: math.NaN(), Max: math.NaN()})
	}
	for i := 0; i < 60; i++ {
		c := i % 3
		d.X = append(d.X, []float64{rng.NormFloat64() + float64(c), rng.NormFloat64() - 0.5*float64(c), rng.Float64()})
		d.Y = append(d.Y, c)
	}
	return d, nil
}

// sameInBothModes runs a small study (a two-point sweep reported point by
// point, on two folds: every process-mode job starts Python) in process
// and in worker mode and compares results.csv without its timing columns.
func sameInBothModes(t *testing.T, command string, params map[string]string, sweep map[string][]string) {
	o := protocol.DefaultOptions()
	o.Folds = 2
	var files []string
	for _, mode := range []string{external.ModeProcess, external.ModeWorker} {
		s := study.Study{
			Protocols: []string{"clean"}, Datasets: []string{"synthetic"}, Options: o,
			Methods: []study.MethodSpec{{Name: "external", Label: "py", Sweep: sweep, Selection: protocol.SelectSweep,
				External: &external.Spec{Command: command, Params: params, Mode: mode, Timeout: "5m"}}},
		}
		dir := t.TempDir()
		r := &runner.Runner{Load: synthetic, OutDir: dir, Jobs: 2}
		if _, err := r.Run(context.Background(), s); err != nil {
			t.Fatalf("%s mode: %v", mode, err)
		}
		recs, err := os.ReadFile(filepath.Join(dir, results.FileName))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, blankTiming(string(recs)))
	}
	if files[0] != files[1] {
		t.Errorf("results differ between modes:\n%s\n---\n%s", files[0], files[1])
	}
}

// blankTiming empties the *_seconds columns (configs hold no commas).
func blankTiming(csv string) string {
	lines := strings.Split(csv, "\n")
	header := strings.Split(lines[0], ",")
	for i := 1; i < len(lines); i++ {
		if lines[i] == "" {
			continue
		}
		cells := strings.Split(lines[i], ",")
		for j, h := range header {
			if strings.HasSuffix(h, "_seconds") && j < len(cells) {
				cells[j] = ""
			}
		}
		lines[i] = strings.Join(cells, ",")
	}
	return strings.Join(lines, "\n")
}

func TestSklearnAdapter(t *testing.T) {
	py := python(t, "sklearn")
	t.Run("conformance", func(t *testing.T) {
		conformance(t, external.Spec{Command: py + " sklearn_tree.py {dir}", Params: map[string]string{"max_depth": "4"}, Timeout: "2m", Mode: external.ModeWorker})
	})
	t.Run("modes", func(t *testing.T) {
		sameInBothModes(t, py+" sklearn_tree.py {dir}", map[string]string{"max_depth": "null"}, map[string][]string{"max_depth": {"2", "null"}})
	})
}

func TestWittgensteinAdapter(t *testing.T) {
	py := python(t, "pandas", "wittgenstein")
	t.Run("conformance", func(t *testing.T) {
		conformance(t, external.Spec{Command: py + " ripper_wittgenstein.py {dir}", Params: map[string]string{"k": "2"}, Timeout: "5m", Mode: external.ModeWorker})
	})
	t.Run("modes", func(t *testing.T) {
		sameInBothModes(t, py+" ripper_wittgenstein.py {dir}", map[string]string{"k": "2"}, map[string][]string{"k": {"1", "2"}})
	})
}

// TestExampleSpecsParse: the example specs are valid studies from any
// directory (their commands' paths are relative to the spec), and they
// run their adapters in worker mode.
func TestExampleSpecsParse(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("skipping: the example specs run python3, which is not on PATH")
	}
	for _, dir := range []string{".", "../.."} {
		t.Run(dir, func(t *testing.T) {
			t.Chdir(dir)
			prefix := map[string]string{".": "", "../..": "examples/external/"}[dir]
			for _, name := range []string{"sklearn.yaml", "ripper.yaml", "cart-check.yaml"} {
				s, err := spec.Load(prefix + name)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := study.UnitsOf(s); err != nil {
					t.Fatal(err)
				}
				if ext := s.Methods[0].External; ext == nil || ext.Mode != external.ModeWorker {
					t.Errorf("%s: the first method is not an external one in worker mode", name)
				}
			}
		})
	}
}
