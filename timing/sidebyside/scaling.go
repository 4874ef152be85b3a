package sidebyside

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/fgrtbench/fgrtbench/internal/owned"
	"github.com/fgrtbench/fgrtbench/timing/paperruntime"
)

// The scaling measurement (`fgrtbench speed --scaling`, issue 33): a study
// run at -j 1, 2, 4, …, nproc, each run a fresh child process
// (`fgrtbench reproduce …` into a fresh directory), timed by its wall
// clock and its peak resident memory (the child's rusage). Wall time, not
// CPU time, is what -j buys; a fresh process per run keeps one run's heap
// and caches out of the next one's figures.

// Scaling study names.
const (
	// ScalingPaper is the paper's study as ./run.sh runs it: both
	// protocols, every method, no report.
	ScalingPaper = "paper"
	// ScalingLarge is the 10^6 × 20 study of docs/large-data.md (FGRT and
	// CART, clean protocol, with its report), on a generated CSV.
	ScalingLarge = "large"
)

// ScalingStudies are the studies --scaling knows, in the order it runs them.
var ScalingStudies = []string{ScalingPaper, ScalingLarge}

// ScalingOptions configure a scaling measurement.
type ScalingOptions struct {
	// Binary is the fgrtbench executable each run starts.
	Binary string
	// Studies are names of ScalingStudies (all when empty).
	Studies []string
	// Jobs are the -j values (DefaultScalingJobs when empty).
	Jobs []int
	// Dir holds the generated data and each run's output (a temporary
	// directory when empty); each run's output is removed after it.
	Dir string
	// Rows × Cols is the large study's CSV (paperruntime.LargeRows ×
	// paperruntime.LargeCols when zero); a test makes it tiny.
	Rows, Cols int
	// Env is the children's environment (this process's when nil): the
	// paper study reads the datasets where FGRT_DATA_MIRROR or the cache
	// says.
	Env []string
	Log io.Writer
	// Versus is another build's executable (an earlier revision) to run
	// beside Binary, round by round (versus.go); empty runs Binary only.
	Versus string
	// Rounds is the number of runs of each study at each -j in each build
	// (1 when zero); with Versus, the builds alternate within a round and
	// swap their order from one round to the next.
	Rounds int
	// Methods, when set, restricts the paper study to these methods and
	// their variants (reproduce --methods …): the methods an earlier build
	// knew, or FuzzyCART alone.
	Methods []string
}

// ScalingRun is one timed run of a study.
type ScalingRun struct {
	Study   string
	Jobs    int
	Wall    float64 // seconds
	PeakRSS uint64  // bytes; 0 where the platform does not report it
	// CPU is the study's user and system time in seconds (comparisons).
	CPU float64
	// Build is BuildThis or BuildVersus; Round counts from 0.
	Build string
	Round int
	// ReportWall and ReportPeakRSS time the paper study's report, rendered
	// by a child of its own after the study (comparisons only; 0 otherwise).
	ReportWall    float64
	ReportPeakRSS uint64
	// Fits sums the study's fit_seconds per method (from its results.csv).
	Fits map[string]float64
}

// DefaultScalingJobs are 1, 2, 4, … up to n, and n itself.
func DefaultScalingJobs(n int) []int {
	var out []int
	for j := 1; j < n; j *= 2 {
		out = append(out, j)
	}
	return append(out, max(n, 1))
}

// RunScaling runs each study at each -j, smallest first, and returns the
// runs in that order.
func RunScaling(ctx context.Context, o ScalingOptions) ([]ScalingRun, error) {
	if err := o.Check(); err != nil {
		return nil, err
	}
	o.defaults()
	if o.Dir != "" {
		// A directory the caller names (speed --scaling-data) keeps the
		// generated CSV for the next measurement.
		if err := os.MkdirAll(o.Dir, 0o755); err != nil {
			return nil, err
		}
	}
	dir, cleanup, err := scratchDir(o.Dir, "fgrtbench-scaling-")
	if err != nil {
		return nil, err
	}
	defer cleanup()
	o.Dir = dir
	builds := []string{BuildThis}
	bins := map[string]string{BuildThis: o.Binary}
	if o.Versus != "" {
		builds = append(builds, BuildVersus)
		bins[BuildVersus] = o.Versus
		for _, b := range builds {
			fmt.Fprintf(o.Log, "speed: %s build: %s\n", b, versionLine(bins[b], o.Env))
		}
	}
	var runs []ScalingRun
	for _, name := range o.Studies {
		args, err := o.studyArgs(name)
		if err != nil {
			return runs, err
		}
		for _, j := range o.Jobs {
			for round := range max(o.Rounds, 1) {
				order := slices.Clone(builds)
				if round%2 == 1 {
					slices.Reverse(order)
				}
				for _, b := range order {
					r, err := o.timeRun(ctx, name, j, args, b, bins[b], round)
					if err != nil {
						return runs, err
					}
					fmt.Fprintf(o.Log, "speed: scaling %s -j %d (%s build, round %d): %.1fs, peak %s\n", name, j, b, round+1, r.Wall, megabytes(r.PeakRSS))
					runs = append(runs, r)
				}
			}
		}
	}
	return runs, nil
}

// Check refuses unknown studies and -j values below 1, so that a caller
// can refuse them before it writes anything.
func (o *ScalingOptions) Check() error {
	for _, s := range o.Studies {
		if s != ScalingPaper && s != ScalingLarge {
			return fmt.Errorf("speed --scaling: unknown study %q (known: %s)", s, strings.Join(ScalingStudies, ", "))
		}
	}
	for _, j := range o.Jobs {
		if j < 1 {
			return fmt.Errorf("speed --scaling: -j %d is below 1", j)
		}
	}
	if o.Rounds < 0 {
		return fmt.Errorf("speed --scaling: --rounds %d is below 1", o.Rounds)
	}
	if o.Versus != "" {
		if st, err := os.Stat(o.Versus); err != nil || !st.Mode().IsRegular() || st.Mode().Perm()&0o111 == 0 {
			return fmt.Errorf("speed --scaling: --versus %s is not an executable file", o.Versus)
		}
	}
	return nil
}

// defaults fills the unset options.
func (o *ScalingOptions) defaults() {
	if len(o.Studies) == 0 {
		o.Studies = ScalingStudies
	}
	if len(o.Jobs) == 0 {
		o.Jobs = DefaultScalingJobs(runtime.NumCPU())
	}
	if o.Rows == 0 {
		o.Rows, o.Cols = paperruntime.LargeRows, paperruntime.LargeCols
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
}

// studyArgs returns a function of (output directory, -j) giving the
// study's reproduce arguments, after generating its data if it has any.
func (o *ScalingOptions) studyArgs(name string) (func(out string, jobs int) []string, error) {
	if name == ScalingPaper {
		return func(out string, jobs int) []string {
			args := []string{"reproduce", "--no-report", "--out", out, "-j", strconv.Itoa(jobs)}
			if len(o.Methods) > 0 {
				// The methods' variants come with them, as in reproduce.
				args = append(args, "--methods", strings.Join(o.Methods, ","))
			}
			return args
		}, nil
	}
	data := fmt.Sprintf("large-%dx%d.csv", o.Rows, o.Cols)
	// The CSV is reused only when fgrtbench wrote it (the directory's
	// ownership marker lists it): a file of that name that a user put in
	// --scaling-data, or a link, is refused rather than timed as if it
	// were the generator's data.
	dir, err := owned.Open(o.Dir)
	if err != nil {
		return nil, err
	}
	if err := dir.Check(data); err != nil {
		return nil, err
	}
	if _, err := os.Lstat(filepath.Join(o.Dir, data)); err != nil {
		fmt.Fprintf(o.Log, "speed: writing %d × %d CSV to %s\n", o.Rows, o.Cols, filepath.Join(o.Dir, data))
		if err := dir.Write(data, func(w io.Writer) error { return paperruntime.WriteLargeCSV(w, o.Rows, o.Cols) }); err != nil {
			return nil, err
		}
	}
	return func(out string, jobs int) []string { return StudyArgs(data, out, jobs) }, nil
}

// timeRun runs one study at -j jobs in a fresh child process of build's
// binary bin and a fresh output directory, which it removes afterwards. In
// a comparison the paper study's report is then rendered by a child of its
// own and timed. Each run's fit seconds are read from its results.csv.
func (o *ScalingOptions) timeRun(ctx context.Context, name string, jobs int, args func(string, int) []string, build, bin string, round int) (ScalingRun, error) {
	out := fmt.Sprintf("scaling-%s-j%d", name, jobs)
	if build != BuildThis {
		out += "-" + build
	}
	// Only what this run made is removed: a path already there (a caller's
	// Dir holding something of that name) is refused, not deleted.
	if _, err := os.Lstat(filepath.Join(o.Dir, out)); err == nil {
		return ScalingRun{}, fmt.Errorf("%s already exists; scaling runs write only new directories", filepath.Join(o.Dir, out))
	}
	defer os.RemoveAll(filepath.Join(o.Dir, out))
	what := fmt.Sprintf("%s study at -j %d (%s build)", name, jobs, build)
	r, _, err := timeProcessEnv(ctx, o.Dir, o.Env, what, bin, args(out, jobs)...)
	if err != nil {
		return ScalingRun{}, err
	}
	run := ScalingRun{Study: name, Jobs: jobs, Wall: r.Wall, PeakRSS: r.PeakRSS, CPU: r.CPU, Build: build, Round: round}
	if run.Fits, err = fitSecondsByMethod(filepath.Join(o.Dir, out, "results.csv")); err != nil {
		return ScalingRun{}, err
	}
	if o.Versus != "" && name == ScalingPaper {
		rep, _, err := timeProcessEnv(ctx, o.Dir, o.Env, "report of "+what, bin, "report", "--results", out)
		if err != nil {
			return ScalingRun{}, err
		}
		run.ReportWall, run.ReportPeakRSS = rep.Wall, rep.PeakRSS
	}
	return run, nil
}

// scalingRow is a run with its speed-ups: over the study's -j 1 run, and
// over its -j 2 run (NaN without that run).
type scalingRow struct {
	ScalingRun
	overJ1, overJ2, efficiency float64
}

// scalingRows derives each run's speed-ups and efficiency (speed-up over
// -j 1 divided by -j) from the study's runs at -j 1 and 2.
func scalingRows(runs []ScalingRun) []scalingRow {
	base := map[string]map[int]float64{}
	for _, r := range runs {
		if base[r.Study] == nil {
			base[r.Study] = map[int]float64{}
		}
		if r.Jobs <= 2 {
			base[r.Study][r.Jobs] = r.Wall
		}
	}
	nan := func(b map[int]float64, j int) float64 {
		if w, ok := b[j]; ok && w > 0 {
			return w
		}
		return math.NaN()
	}
	out := make([]scalingRow, len(runs))
	for i, r := range runs {
		j1, j2 := nan(base[r.Study], 1), nan(base[r.Study], 2)
		out[i] = scalingRow{ScalingRun: r, overJ1: j1 / r.Wall, overJ2: j2 / r.Wall}
		out[i].efficiency = out[i].overJ1 / float64(r.Jobs)
	}
	return out
}

// ScalingTable renders the runs as a text table: study, -j, wall time,
// speed-up over -j 1 and over -j 2, efficiency, peak memory ("—" where a
// figure is missing).
func ScalingTable(runs []ScalingRun) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-6s %5s %10s %9s %9s %10s %10s\n", "study", "-j", "wall", "vs -j 1", "vs -j 2", "efficiency", "peak RSS")
	for _, r := range scalingRows(runs) {
		fmt.Fprintf(&b, "%-6s %5d %9.1fs %9s %9s %10s %10s\n", r.Study, r.Jobs, r.Wall,
			ratio(r.overJ1, "×"), ratio(r.overJ2, "×"), ratio(100*r.efficiency, " %"), peak(r.PeakRSS))
	}
	return b.String()
}

// ScalingCSVHeader is the header of ScalingFile.
var ScalingCSVHeader = []string{"study", "jobs", "wall_seconds", "speedup_vs_j1", "speedup_vs_j2", "efficiency", "peak_rss_bytes"}

// ScalingFile is the CSV that --scaling writes into --out.
const ScalingFile = "scaling.csv"

// ScalingCSV renders the runs as CSV under ScalingCSVHeader; a missing
// figure is an empty field.
func ScalingCSV(runs []ScalingRun) ([]byte, error) {
	var b strings.Builder
	w := csv.NewWriter(&b)
	w.Write(ScalingCSVHeader)
	f := func(v float64) string {
		if math.IsNaN(v) {
			return ""
		}
		return strconv.FormatFloat(v, 'f', 3, 64)
	}
	for _, r := range scalingRows(runs) {
		rss := ""
		if r.PeakRSS > 0 {
			rss = strconv.FormatUint(r.PeakRSS, 10)
		}
		w.Write([]string{r.Study, strconv.Itoa(r.Jobs), f(r.Wall), f(r.overJ1), f(r.overJ2), f(r.efficiency), rss})
	}
	w.Flush()
	return []byte(b.String()), w.Error()
}

func ratio(v float64, unit string) string {
	if math.IsNaN(v) {
		return "—"
	}
	if unit == " %" {
		return fmt.Sprintf("%.0f%s", v, unit)
	}
	return fmt.Sprintf("%.2f%s", v, unit)
}

func peak(b uint64) string {
	if b == 0 {
		return "—"
	}
	return megabytes(b)
}
