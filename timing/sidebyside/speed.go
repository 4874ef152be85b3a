// Package sidebyside measures fgrtbench's learners side by side with the
// reference implementations installed on the machine — scikit-learn's
// DecisionTreeClassifier (through a Python interpreter that imports
// sklearn) and Weka's J48 and JRip (through its jar) — on the same data: the
// authors' runtime data (randn, 10 features, 3 random classes; the 80 %
// training part that the runtime study fits on), written to files that
// both sides read. Each time is the fastest of a few repeated fits after a
// warm-up (one fit when a fit takes over a few seconds); Weka's times are
// its own "Time taken to build model" of one JVM run per fit. Nothing is
// installed here; missing references are reported as absent.
//
// The performance block of docs/performance.md is this package's Markdown, regenerated
// by scripts/speed.sh, so that every speed figure there comes from one
// command.
package sidebyside

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strconv"
	"strings"
	"time"

	"github.com/fgrtbench/fgrtbench/bench/methods"
	"github.com/fgrtbench/fgrtbench/internal/foreign"
	"github.com/fgrtbench/fgrtbench/internal/par"
	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/timing/paperruntime"
)

// Options configure a measurement.
type Options struct {
	// Python is an interpreter that imports sklearn ("" skips scikit-learn).
	Python string
	// WekaJar is Weka's jar ("" skips Weka); Java runs it.
	WekaJar, Java string
	// Large adds the 10^6-row CART fits (scikit-learn needs minutes there).
	Large bool
	// Dir holds the data files (a temporary directory when empty).
	Dir string
	// Log receives progress lines.
	Log io.Writer
	// Threads is the CPU budget of each of our timed fits (-j): a learner
	// that spreads its loops (learn.Threaded) may keep that many threads
	// busy. 0 or 1 times fits on one thread. Models are the same for
	// every value.
	Threads int
}

// Result is one measured task: our time and the reference's (NaN when
// there is none or it is not installed).
type Result struct {
	Task      string
	Rows      int // training rows (predicted rows for a predict task)
	Ours, Ref float64
	// Alloc is the bytes our fit (or predict) allocated, Matrix the bytes
	// of its input matrix (float64).
	Alloc, Matrix uint64
	RefName       string
	Note          string
}

// Ratio is the reference's time over ours (NaN without a reference).
func (r Result) Ratio() float64 { return r.Ref / r.Ours }

// task is one comparison: our method (runtime-study settings) and the
// reference that runs the same algorithm.
type task struct {
	name, method string
	sizes        []int
	ref          string // "sklearn:gini", "sklearn:entropy", "weka:<class>", ""
	predict      bool   // time Predict on every row instead of Fit
}

func tasks(large bool) []task {
	cartSizes := []int{10_000, 100_000}
	if large {
		cartSizes = append(cartSizes, 1_000_000)
	}
	return []task{
		{name: "CART fit (gini)", method: "cart", sizes: cartSizes, ref: "sklearn:gini"},
		{name: "entropy tree fit (the paper's \"C4.5\")", method: "c45-entropy", sizes: cartSizes, ref: "sklearn:entropy"},
		{name: "FGRT fit", method: "fgrt", sizes: []int{10_000, 100_000, 1_000_000}},
		{name: "FGRT predict (all rows)", method: "fgrt", sizes: []int{1_000_000}, predict: true},
		{name: "C4.5 fit (J48)", method: "c45", sizes: []int{10_000}, ref: "weka:weka.classifiers.trees.J48"},
		{name: "RIPPER fit (JRip)", method: "ripper", sizes: []int{10_000}, ref: "weka:weka.classifiers.rules.JRip"},
	}
}

// scratchDir returns dir, or when it is "" a new temporary directory
// named by prefix, with the function that removes what it made (nothing
// for a directory the caller gave).
func scratchDir(dir, prefix string) (string, func(), error) {
	if dir != "" {
		return dir, func() {}, nil
	}
	made, err := os.MkdirTemp("", prefix)
	if err != nil {
		return "", nil, err
	}
	return made, func() { os.RemoveAll(made) }, nil
}

// slowFit is the fit time above which a fit is timed once.
const slowFit = 3.0

// repeats is the number of timed fits after the warm-up.
const repeats = 3

// Run measures every task.
func Run(ctx context.Context, o Options) ([]Result, error) {
	if o.Log == nil {
		o.Log = io.Discard
	}
	dir, cleanup, err := scratchDir(o.Dir, "fgrtbench-speed-")
	if err != nil {
		return nil, err
	}
	defer cleanup()
	o.Dir = dir
	var out []Result
	for _, tk := range tasks(o.Large) {
		for _, n := range tk.sizes {
			if err := ctx.Err(); err != nil {
				return out, err
			}
			r, err := o.measure(ctx, tk, n)
			if err != nil {
				return out, fmt.Errorf("speed: %s n=%d: %w", tk.name, n, err)
			}
			ref := ""
			if !math.IsNaN(r.Ref) {
				ref = fmt.Sprintf("  %s %.4gs", r.RefName, r.Ref)
			}
			fmt.Fprintf(o.Log, "speed: %-40s n=%-8d ours %.4gs%s\n", tk.name, n, r.Ours, ref)
			out = append(out, r)
		}
	}
	return out, nil
}

// measure times our side of one task at n rows, then the reference's.
func (o Options) measure(ctx context.Context, tk task, n int) (Result, error) {
	const d = 10
	X, y := paperruntime.SyntheticTraining(n, d)
	r := Result{Task: tk.name, Rows: len(X), Ref: math.NaN()}
	ours, err := o.timeOurs(tk, n, X, y, &r)
	if err != nil || math.IsNaN(r.Ours) {
		return r, err
	}
	kind, arg, _ := strings.Cut(tk.ref, ":")
	switch {
	case kind == "sklearn" && o.Python != "":
		r.RefName = "scikit-learn"
		nodes := 0
		if r.Ref, nodes, err = o.sklearn(ctx, X, y, arg); err != nil {
			return r, err
		}
		if c, ok := ours.(interface{ NodeCount() int }); ok && c.NodeCount() != nodes {
			r.Note = fmt.Sprintf("trees differ: %d nodes, scikit-learn %d", c.NodeCount(), nodes)
		}
	case kind == "weka" && o.WekaJar != "":
		r.RefName = "Weka " + arg[strings.LastIndex(arg, ".")+1:]
		if r.Ref, err = o.weka(ctx, X, y, arg); err != nil {
			return r, err
		}
	case kind == "sklearn":
		r.RefName = "scikit-learn (not installed)"
	case kind == "weka":
		r.RefName = "Weka (not installed)"
	}
	return r, nil
}

// timeOurs times our fit of the task's method on X, y (or its prediction
// of n rows), each run holding one thread of a budget of o.Threads, and
// records the time and allocation in r. A failed fit leaves r.Ours NaN
// and returns its error.
func (o Options) timeOurs(tk task, n int, X [][]float64, y []int, r *Result) (learn.Model, error) {
	const d = 10
	s := paperruntime.SyntheticSchema(d)
	m, err := methods.Lookup(tk.method)
	if err != nil {
		return nil, err
	}
	cfg, err := m.Resolve(paperruntime.DefaultOptions().Params[tk.method])
	if err != nil {
		return nil, err
	}
	tr, err := m.New(cfg, 42)
	if err != nil {
		return nil, err
	}
	var budget *par.Budget
	if o.Threads > 1 {
		budget = par.NewBudget(o.Threads)
		tr = learn.WithThreads(tr, budget)
	}
	var ours learn.Model
	if tk.predict {
		if budget.Do(func() { ours, err = tr.Fit(X, y, s) }); err != nil {
			return nil, err
		}
		all, _ := paperruntime.Synthetic(n, d)
		r.Rows = n
		r.Ours, r.Alloc = best(func() error { budget.Do(func() { ours.Predict(all) }); return nil })
	} else {
		r.Ours, r.Alloc = best(func() (err error) { budget.Do(func() { ours, err = tr.Fit(X, y, s) }); return err })
	}
	r.Matrix = uint64(r.Rows * d * 8)
	if math.IsNaN(r.Ours) {
		_, err = tr.Fit(X, y, s)
	}
	return ours, err
}

// best returns the fastest of the timed runs of f after one warm-up run
// (only the warm-up when it is slow), NaN if f fails, and the bytes the
// warm-up allocated.
func best(f func() error) (float64, uint64) {
	var m0, m1 goruntime.MemStats
	goruntime.GC()
	goruntime.ReadMemStats(&m0)
	t0 := time.Now()
	if f() != nil {
		return math.NaN(), 0
	}
	first := time.Since(t0).Seconds()
	goruntime.ReadMemStats(&m1)
	alloc := m1.TotalAlloc - m0.TotalAlloc
	if first > slowFit {
		return first, alloc
	}
	b := math.Inf(1)
	for i := 0; i < repeats; i++ {
		goruntime.GC()
		t0 := time.Now()
		if f() != nil {
			return math.NaN(), 0
		}
		b = math.Min(b, time.Since(t0).Seconds())
	}
	return b, alloc
}

// sklearnScript fits DecisionTreeClassifier(criterion, random_state=42),
// scikit-learn's defaults otherwise (the runtime study's settings), on the
// matrix and labels in the two files, timing it as best does, and prints
// the best time and the tree's node count.
const sklearnScript = `
import sys, time, gc
import numpy as np
from sklearn.tree import DecisionTreeClassifier
X = np.fromfile(sys.argv[1], dtype="<f8").reshape(-1, int(sys.argv[3]))
y = np.fromfile(sys.argv[2], dtype="<i8")
def fit():
    gc.collect()
    t0 = time.perf_counter()
    m = DecisionTreeClassifier(criterion=sys.argv[4], random_state=42).fit(X, y)
    return time.perf_counter() - t0, m.tree_.node_count
first, nodes = fit()
best = first
if first <= float(sys.argv[5]):
    best = min(fit()[0] for _ in range(int(sys.argv[6])))
print(best, nodes)
`

func (o Options) sklearn(ctx context.Context, X [][]float64, y []int, criterion string) (float64, int, error) {
	xf, yf := filepath.Join(o.Dir, "X.f64"), filepath.Join(o.Dir, "y.i64")
	if err := writeBinary(xf, yf, X, y); err != nil {
		return 0, 0, err
	}
	out, err := foreign.Output(exec.CommandContext(ctx, o.Python, "-c", sklearnScript, xf, yf, strconv.Itoa(len(X[0])), criterion,
		strconv.FormatFloat(slowFit, 'g', -1, 64), strconv.Itoa(repeats)))
	if err != nil {
		return 0, 0, fmt.Errorf("%s: %w%s", o.Python, err, stderrOf(err))
	}
	t, nodes, err := timeAndCount(out)
	if err != nil {
		return 0, 0, fmt.Errorf("scikit-learn printed %s: %w", clip(out), err)
	}
	return t, nodes, nil
}

// timeAndCount reads a driver's answer, "SECONDS COUNT", each checked
// (foreign.ParseSeconds, foreign.ParseCount) before it reaches a table.
func timeAndCount(out []byte) (float64, int, error) {
	f := strings.Fields(string(out))
	if len(f) != 2 {
		return 0, 0, fmt.Errorf("%d words where a time and a count belong", len(f))
	}
	t, err := foreign.ParseSeconds(f[0])
	if err != nil {
		return 0, 0, err
	}
	n, err := foreign.ParseCount(f[1])
	if err != nil {
		return 0, 0, err
	}
	return t, n, nil
}

// clip quotes the start of a driver's output for a message.
func clip(out []byte) string {
	if len(out) > 80 {
		return fmt.Sprintf("%q...", out[:80])
	}
	return fmt.Sprintf("%q", out)
}

func writeBinary(xf, yf string, X [][]float64, y []int) error {
	var bx, by bytes.Buffer
	for i, row := range X {
		for _, v := range row {
			bx.Write(binary.LittleEndian.AppendUint64(nil, math.Float64bits(v)))
		}
		by.Write(binary.LittleEndian.AppendUint64(nil, uint64(y[i])))
	}
	if err := os.WriteFile(xf, bx.Bytes(), 0o644); err != nil {
		return err
	}
	return os.WriteFile(yf, by.Bytes(), 0o644)
}

// weka times a Weka classifier with its defaults on the rows as ARFF: the
// best "Time taken to build model" of a warm-up plus repeats JVM runs
// (Weka prints it in hundredths of a second).
func (o Options) weka(ctx context.Context, X [][]float64, y []int, class string) (float64, error) {
	arff := filepath.Join(o.Dir, "train.arff")
	if err := writeARFF(arff, X, y); err != nil {
		return 0, err
	}
	java := o.Java
	if java == "" {
		java = "java"
	}
	b := math.Inf(1)
	for i := 0; i <= repeats; i++ {
		out, err := foreign.Output(exec.CommandContext(ctx, java, "-cp", o.WekaJar, class, "-t", arff, "-no-cv"))
		if err != nil {
			return 0, fmt.Errorf("weka %s: %w%s", class, err, stderrOf(err))
		}
		t, err := buildTime(out)
		if err != nil {
			return 0, fmt.Errorf("weka %s: %w", class, err)
		}
		if i > 0 || t > slowFit {
			b = math.Min(b, t)
		}
		if t > slowFit {
			break
		}
	}
	return b, nil
}

// buildTime finds Weka's "Time taken to build model: S seconds".
func buildTime(out []byte) (float64, error) {
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "Time taken to build model:"); ok {
			return foreign.ParseSeconds(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "seconds")))
		}
	}
	return 0, fmt.Errorf("no \"Time taken to build model\" in its output")
}

func writeARFF(path string, X [][]float64, y []int) error {
	var b bytes.Buffer
	b.WriteString("@relation runtime\n")
	for j := range X[0] {
		fmt.Fprintf(&b, "@attribute x%d numeric\n", j)
	}
	b.WriteString("@attribute class {0,1,2}\n@data\n")
	for i, row := range X {
		for _, v := range row {
			b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(y[i]))
		b.WriteByte('\n')
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

func stderrOf(err error) string {
	if ee, ok := err.(*exec.ExitError); ok && len(ee.Stderr) > 0 {
		lines := strings.Split(strings.TrimSpace(string(ee.Stderr)), "\n")
		return ": " + lines[len(lines)-1]
	}
	return ""
}
