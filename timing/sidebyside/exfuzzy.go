package sidebyside

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fgrtbench/fgrtbench/bench/methods"
	"github.com/fgrtbench/fgrtbench/internal/foreign"
	"github.com/fgrtbench/fgrtbench/learn"
)

// ExFuzzyEnv names the environment variable that gives the Ex-Fuzzy
// checkout when --exfuzzy does not.
const ExFuzzyEnv = "FGRT_EXFUZZY"

// ExFuzzyDatasets are the datasets FuzzyCART is timed on beside Ex-Fuzzy:
// the paper's two largest, where fit time is worth comparing.
var ExFuzzyDatasets = []string{"ring", "spambase"}

// ExFuzzyModules returns the directory holding Ex-Fuzzy's modules
// (tree_learning.py) for dir: the directory itself, or ex_fuzzy/ex_fuzzy
// of a checkout of Fuminides/ex-fuzzy. The error says what is missing.
func ExFuzzyModules(dir string) (string, error) {
	for _, d := range []string{dir, filepath.Join(dir, "ex_fuzzy", "ex_fuzzy")} {
		if st, err := os.Stat(filepath.Join(d, "tree_learning.py")); err == nil && st.Mode().IsRegular() {
			return d, nil
		}
	}
	return "", fmt.Errorf("%s holds no tree_learning.py, nor ex_fuzzy/ex_fuzzy/tree_learning.py (a checkout of Fuminides/ex-fuzzy at commit 96f0cf2d)", dir)
}

// exFuzzyScript is fgrtbench's own driver of Ex-Fuzzy's FuzzyCART: it
// imports the modules from argv[1] (replacing pymoo, which the package's
// __init__ imports and FuzzyCART does not use, by an empty stand-in),
// reads one training fold (float64 matrix, int64 labels, nominal mask),
// and times what a user of the library runs — construct_partitions on
// the training rows, then FuzzyCART(partitions).fit(X, y) with the
// defaults — as best does: one warm-up, then the fastest of the repeats
// unless the warm-up is slow. It prints the time and the leaf count.
const exFuzzyScript = `
import sys, time, gc, types, importlib.abc, importlib.machinery
import numpy as np

class Stub(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith('__'):
            raise AttributeError(name)
        return type(name, (), {'__init__': lambda self, *a, **k: None})

class StubFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path, target=None):
        if fullname == 'pymoo' or fullname.startswith('pymoo.'):
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None
    def create_module(self, spec):
        m = Stub(spec.name)
        m.__path__ = []
        return m
    def exec_module(self, module):
        pass

sys.meta_path.insert(0, StubFinder())
sys.path.insert(0, sys.argv[1])
import fuzzy_sets, utils, tree_learning

X = np.fromfile(sys.argv[2], dtype="<f8").reshape(-1, int(sys.argv[4]))
y = np.fromfile(sys.argv[3], dtype="<i8")
mask = [c == "1" for c in sys.argv[5]]
mask = mask if any(mask) else None

def fit():
    gc.collect()
    np.random.seed(0)
    t0 = time.perf_counter()
    parts = utils.construct_partitions(X, fuzzy_sets.FUZZY_SETS.t1, categorical_mask=mask, n_partitions=3)
    m = tree_learning.FuzzyCART(parts)
    m.fit(X, y)
    return time.perf_counter() - t0, int(m.get_tree_stats()['leaves'])

first, leaves = fit()
best = first
if first <= float(sys.argv[6]):
    best = min(fit()[0] for _ in range(int(sys.argv[7])))
print(best, leaves)
`

// ExFuzzyOptions configure the FuzzyCART comparison.
type ExFuzzyOptions struct {
	// Python imports numpy; Modules is Ex-Fuzzy's module directory
	// (ExFuzzyModules). Without either the reference is skipped.
	Python, Modules string
	// Dir holds the fold files (a temporary directory when empty).
	Dir string
	Log io.Writer
}

// ExFuzzyData is one dataset's training folds, exactly as the learner
// receives them (the caller plans them: the clean protocol's defaults).
type ExFuzzyData struct {
	Name   string
	Schema learn.Schema
	X      [][][]float64 // per fold
	Y      [][]int
}

// RunExFuzzy times FuzzyCART's fit with the defaults on each training
// fold of each dataset, beside Ex-Fuzzy's own fit of the same rows when
// a reference is given: one result per dataset, the per-fold best times
// summed. A fold whose leaf count differs from the reference's is named
// in the note (the two fits should grow one tree:
// docs/fidelity.md#fuzzycart).
func RunExFuzzy(ctx context.Context, o ExFuzzyOptions, data []ExFuzzyData) ([]Result, error) {
	if o.Log == nil {
		o.Log = io.Discard
	}
	dir, cleanup, err := scratchDir(o.Dir, "fgrtbench-exfuzzy-")
	if err != nil {
		return nil, err
	}
	defer cleanup()
	o.Dir = dir
	m, err := methods.Lookup("fuzzycart")
	if err != nil {
		return nil, err
	}
	cfg, err := m.Resolve(nil)
	if err != nil {
		return nil, err
	}
	var out []Result
	for _, d := range data {
		r, err := o.dataset(ctx, m, cfg, d)
		if err != nil {
			return out, err
		}
		out = append(out, r)
	}
	return out, nil
}

// dataset times FuzzyCART (and Ex-Fuzzy when given) on each training fold
// of d, summing the times over the folds.
func (o ExFuzzyOptions) dataset(ctx context.Context, m *learn.Spec, cfg learn.Values, d ExFuzzyData) (Result, error) {
	name := d.Name
	r := Result{Task: fmt.Sprintf("FuzzyCART fit, %s (%d clean folds)", name, len(d.X)), Ref: math.NaN(), RefName: "Ex-Fuzzy (not given)"}
	if len(d.X) != len(d.Y) || len(d.X) == 0 {
		return r, fmt.Errorf("speed: %s: %d training matrices and %d label vectors", name, len(d.X), len(d.Y))
	}
	if o.Python != "" && o.Modules != "" {
		r.RefName, r.Ref = "Ex-Fuzzy 2.1.5", 0
	}
	var differ []string
	for k := range d.X {
		if err := ctx.Err(); err != nil {
			return r, err
		}
		diff, err := o.fold(ctx, m, cfg, d, k, &r)
		if err != nil {
			return r, err
		}
		if diff != "" {
			differ = append(differ, diff)
		}
	}
	if len(differ) > 0 {
		r.Note = "trees differ: " + strings.Join(differ, "; ")
	} else if !math.IsNaN(r.Ref) {
		r.Note = "same leaf count on every fold; KEEL data, the clean protocol's training folds (rows: the largest), times summed over the folds, construct_partitions included"
	}
	return r, nil
}

// fold times fold k of d into r, and returns how the trees differ in leaf
// count ("" when they do not, or without Ex-Fuzzy).
func (o ExFuzzyOptions) fold(ctx context.Context, m *learn.Spec, cfg learn.Values, d ExFuzzyData, k int, r *Result) (string, error) {
	X, y := d.X[k], d.Y[k]
	tr, err := m.New(cfg, 42)
	if err != nil {
		return "", err
	}
	var model learn.Model
	t, alloc := best(func() (err error) { model, err = tr.Fit(X, y, d.Schema); return err })
	if math.IsNaN(t) {
		_, err := tr.Fit(X, y, d.Schema)
		return "", fmt.Errorf("speed: fuzzycart on %s fold %d: %w", d.Name, k, err)
	}
	r.Ours += t
	r.Rows = max(r.Rows, len(X))
	r.Alloc = max(r.Alloc, alloc)
	r.Matrix = max(r.Matrix, uint64(len(X)*len(X[0])*8))
	line := fmt.Sprintf("speed: FuzzyCART %s fold %d (%d rows): ours %.4gs", d.Name, k, len(X), t)
	diff := ""
	if !math.IsNaN(r.Ref) {
		ref, leaves, err := o.exFuzzy(ctx, X, y, d.Schema.NominalMask())
		if err != nil {
			return "", fmt.Errorf("speed: Ex-Fuzzy on %s fold %d: %w", d.Name, k, err)
		}
		r.Ref += ref
		if ours := model.Complexity().Leaves; ours != leaves {
			diff = fmt.Sprintf("fold %d: %d leaves, Ex-Fuzzy %d", k, ours, leaves)
		}
		line += fmt.Sprintf("  Ex-Fuzzy %.4gs", ref)
	}
	fmt.Fprintln(o.Log, line)
	return diff, nil
}

func (o ExFuzzyOptions) exFuzzy(ctx context.Context, X [][]float64, y []int, nominal []bool) (float64, int, error) {
	xf, yf := filepath.Join(o.Dir, "X.f64"), filepath.Join(o.Dir, "y.i64")
	if err := writeBinary(xf, yf, X, y); err != nil {
		return 0, 0, err
	}
	var mask strings.Builder
	for _, b := range nominal {
		mask.WriteByte("01"[boolInt(b)])
	}
	out, err := foreign.Output(exec.CommandContext(ctx, o.Python, "-c", exFuzzyScript, o.Modules, xf, yf, strconv.Itoa(len(X[0])), mask.String(),
		strconv.FormatFloat(slowFit, 'g', -1, 64), strconv.Itoa(repeats)))
	if err != nil {
		return 0, 0, fmt.Errorf("%s: %w%s", o.Python, err, stderrOf(err))
	}
	t, leaves, err := timeAndCount(out)
	if err != nil {
		return 0, 0, fmt.Errorf("the Ex-Fuzzy driver printed %s: %w", clip(out), err)
	}
	return t, leaves, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
