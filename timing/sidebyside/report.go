package sidebyside

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"time"

	"github.com/fgrtbench/fgrtbench/internal/atomicfile"
	"github.com/fgrtbench/fgrtbench/internal/foreign"
	"github.com/fgrtbench/fgrtbench/internal/safefile"
)

// Machine names the machine and the software a measurement ran on.
type Machine struct {
	CPU          string
	Cores        int
	MemGiB       float64
	Go           string
	Sklearn      string // "scikit-learn 1.2.1 (numpy 1.24.2)" or ""
	Weka         string // "Weka 3.6.14" or ""
	Load0, Load1 string // 1/5/15-minute load averages before and after
	// Threads is the budget of each of our timed fits (speed -j); 0 or 1
	// is one core.
	Threads int
}

// DescribeMachine reads the facts of this machine (Linux /proc files; what
// it cannot read stays empty).
func DescribeMachine(ctx context.Context, o Options) Machine {
	m := Machine{Cores: goruntime.NumCPU(), Go: goruntime.Version(), Load0: loadAverage(), Threads: o.Threads}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPU = strings.TrimSpace(v)
				break
			}
		}
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		var kb float64
		if _, err := fmt.Sscanf(string(b), "MemTotal: %f kB", &kb); err == nil {
			m.MemGiB = kb / (1 << 20)
		}
	}
	if o.Python != "" {
		out, err := foreign.Output(exec.CommandContext(ctx, o.Python, "-c", "import sklearn, numpy; print(sklearn.__version__, numpy.__version__)"))
		if f := strings.Fields(string(out)); err == nil && len(f) == 2 {
			m.Sklearn = fmt.Sprintf("scikit-learn %s (numpy %s, %s)", f[0], f[1], o.Python)
		}
	}
	if o.WekaJar != "" {
		java := o.Java
		if java == "" {
			java = "java"
		}
		if out, err := foreign.Output(exec.CommandContext(ctx, java, "-cp", o.WekaJar, "weka.core.Version")); err == nil {
			m.Weka = "Weka " + strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
		}
	}
	return m
}

func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " / ")
	}
	return "unknown"
}

// Finish records the load average after the measurement.
func (m *Machine) Finish() { m.Load1 = loadAverage() }

// WholeRun is the measured cost of one whole command (./run.sh, a study).
type WholeRun struct {
	// What describes the command in the README's sentence.
	What      string
	Wall, CPU float64 // seconds; CPU is user+system of the command and its reaped children
}

// TimeRunSh runs root/run.sh into a temporary output directory and measures
// its wall and CPU time.
func TimeRunSh(ctx context.Context, root string, log io.Writer) (WholeRun, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return WholeRun{}, err
	}
	jobs := "as many workers as cores"
	if j := os.Getenv("JOBS"); j != "" {
		jobs = "JOBS=" + j
	}
	what := "`./run.sh` (build, datasets, both protocols with every method, the runtime study, the report; " + jobs + ")"
	return timeCommand(ctx, what, root, log, func(out string) *exec.Cmd {
		cmd := exec.CommandContext(ctx, filepath.Join(root, "run.sh"))
		cmd.Env = append(childEnv(nil), "OUT="+out)
		return cmd
	})
}

// TimeStudy runs `fgrtbench run --spec spec` with the given binary into a
// temporary output directory (report included, -j cores) and measures it.
func TimeStudy(ctx context.Context, binary, root, spec string, log io.Writer) (WholeRun, error) {
	jobs := fmt.Sprint(goruntime.NumCPU())
	what := fmt.Sprintf("`fgrtbench run --spec %s -j %s` (report included)", spec, jobs)
	return timeCommand(ctx, what, root, log, func(out string) *exec.Cmd {
		cmd := exec.CommandContext(ctx, binary, "run", "--spec", spec, "--out", out, "-j", jobs)
		cmd.Env = childEnv(nil)
		return cmd
	})
}

func timeCommand(ctx context.Context, what, dir string, log io.Writer, command func(out string) *exec.Cmd) (WholeRun, error) {
	out, err := os.MkdirTemp("", "fgrtbench-speed-run-")
	if err != nil {
		return WholeRun{}, err
	}
	defer os.RemoveAll(out)
	// The command creates the directory itself: run and reproduce refuse
	// nothing for a new path, and a fresh one keeps resume out of the timing.
	out = filepath.Join(out, "out")
	cmd := command(out)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = log, log
	t0 := time.Now()
	err = cmd.Run()
	r := WholeRun{What: what, Wall: time.Since(t0).Seconds()}
	if err != nil {
		return r, fmt.Errorf("%s: %w", what, err)
	}
	// On unix the wait status's rusage counts the command's reaped
	// descendants too, which is where run.sh's work happens.
	r.CPU = (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
	return r, nil
}

// Markdown renders the measurement: the machine, the table with ratios,
// and the run.sh sentence when it was timed.
func Markdown(m Machine, rs []Result, runs []WholeRun) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Measured by `scripts/speed.sh` on %s, %d cores, %.1f GiB, %s; %s; %s. Load average (1/5/15 min) %s before, %s after.\n\n",
		orUnknown(m.CPU), m.Cores, m.MemGiB, m.Go, orNone(m.Sklearn, "scikit-learn not installed"), orNone(m.Weka, "Weka not installed"), m.Load0, m.Load1)
	cores := "one core for our fits"
	if m.Threads > 1 {
		cores = fmt.Sprintf("a budget of %d threads for each of our fits (`speed -j %d`)", m.Threads, m.Threads)
	}
	fmt.Fprintf(&b, "The authors' runtime data (randn, 10 features, 3 random classes; the 80 %% training part), the runtime study's settings, %s; fastest of a warm-up and three fits (one fit above 3 s). Allocated: what our warm-up fit allocated in all (Go's total allocations, at least its peak memory) over its float64 input matrix. Weka's times are its own build times of one JVM run.\n\n", cores)
	b.WriteString("| task | rows (training; predicted for predict) | fgrtbench | allocated (× input matrix) | reference | reference time | reference / fgrtbench |\n|---|---:|---:|---:|---|---:|---:|\n")
	for _, r := range rs {
		ref, ratio := "—", "—"
		if !math.IsNaN(r.Ref) {
			ref, ratio = seconds(r.Ref), fmt.Sprintf("%.1f×", r.Ratio())
		}
		name := r.RefName
		if name == "" {
			name = "—"
		}
		if r.Note != "" {
			ratio += " (" + r.Note + ")"
		}
		alloc := "—"
		if r.Matrix > 0 {
			alloc = fmt.Sprintf("%.1f MB (%.2f×)", float64(r.Alloc)/1e6, float64(r.Alloc)/float64(r.Matrix))
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n", r.Task, thousands(r.Rows), seconds(r.Ours), alloc, name, ref, ratio)
	}
	if g, e := pairTimes(rs, "CART fit (gini)", "entropy tree fit"); len(g) > 0 {
		b.WriteString("\nEntropy tree over gini tree, fgrtbench:")
		for i := range g {
			fmt.Fprintf(&b, " %.2f×", e[i].Ours/g[i].Ours)
		}
		if !math.IsNaN(g[0].Ref) {
			b.WriteString("; scikit-learn:")
			for i := range g {
				fmt.Fprintf(&b, " %.2f×", e[i].Ref/g[i].Ref)
			}
		}
		b.WriteString(" (by size, as in the table).\n")
	}
	if len(runs) > 0 {
		b.WriteString("\n")
	}
	for _, r := range runs {
		fmt.Fprintf(&b, "%s took %.0f s wall and %.0f s CPU (user + system) on this machine.\n", r.What, r.Wall, r.CPU)
	}
	return b.String()
}

func pairTimes(rs []Result, a, b string) (as, bs []Result) {
	for _, r := range rs {
		if r.Task == a {
			for _, s := range rs {
				if strings.HasPrefix(s.Task, b) && s.Rows == r.Rows {
					as, bs = append(as, r), append(bs, s)
				}
			}
		}
	}
	return as, bs
}

func seconds(s float64) string {
	switch {
	case s < 0.01:
		return fmt.Sprintf("%.2f ms", s*1e3)
	case s < 1:
		return fmt.Sprintf("%.0f ms", s*1e3)
	case s < 10:
		return fmt.Sprintf("%.2f s", s)
	}
	return fmt.Sprintf("%.1f s", s)
}

func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func orUnknown(s string) string { return orNone(s, "unknown CPU") }

func orNone(s, none string) string {
	if s == "" {
		return none
	}
	return s
}

// Markers delimit the generated block in docs/performance.md.
const (
	BeginMarker = "<!-- speed:begin (generated by scripts/speed.sh --readme; do not edit) -->"
	EndMarker   = "<!-- speed:end -->"
)

// ErrNoMarkers is returned when the file has no generated block.
var ErrNoMarkers = errors.New("speed: the file has no " + BeginMarker + " … " + EndMarker + " block")

// UpdateFile replaces the generated block of path with block.
func UpdateFile(path, block string) error {
	b, err := safefile.ReadFile(path, 64*safefile.MiB)
	if err != nil {
		return err
	}
	i := bytes.Index(b, []byte(BeginMarker))
	j := bytes.Index(b, []byte(EndMarker))
	if i < 0 || j < i {
		return fmt.Errorf("%s: %w", path, ErrNoMarkers)
	}
	var out bytes.Buffer
	out.Write(b[:i+len(BeginMarker)])
	out.WriteString("\n" + strings.TrimRight(block, "\n") + "\n")
	out.Write(b[j:])
	return atomicfile.WriteFile(path, out.Bytes())
}
