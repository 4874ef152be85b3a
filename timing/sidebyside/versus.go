package sidebyside

import (
	"cmp"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/fgrtbench/fgrtbench/internal/foreign"
)

// The comparison of two builds (`fgrtbench speed --scaling --versus BIN
// --rounds N`): every study at every -j runs N times in each build,
// alternately, the order of the two swapped from one round to the next
// (this, other; other, this; …), so that a machine whose speed drifts over
// the minutes of a measurement charges both builds alike. A figure is the
// median of its N runs: one slow run (another job's burst) moves the mean
// but not the median. Each run of the paper study is followed by its
// report, timed as a child of its own, and every run's fit time is summed
// per method from its results.csv, so one command gives the serial fits,
// the studies, their peak memory and the report of both builds.

// Build labels of the runs of a comparison.
const (
	BuildThis   = "this"
	BuildVersus = "versus"
)

// maxResultsBytes bounds the read of a child's results.csv: the paper
// study's is about 1 MB.
const maxResultsBytes = 256 << 20

// fitSecondsByMethod sums the fit_seconds column of a results.csv per
// method (the column found by name, so that an earlier build's file reads
// alike).
func fitSecondsByMethod(path string) (map[string]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || st.Size() > maxResultsBytes {
		return nil, fmt.Errorf("%s: not a results file of at most %d bytes", path, maxResultsBytes)
	}
	r := csv.NewReader(io.LimitReader(f, maxResultsBytes))
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	mi, fi := slices.Index(header, "method"), slices.Index(header, "fit_seconds")
	if mi < 0 || fi < 0 {
		return nil, fmt.Errorf("%s: no method or fit_seconds column", path)
	}
	out := map[string]float64{}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if len(rec) <= max(mi, fi) {
			return nil, fmt.Errorf("%s: a row of %d fields", path, len(rec))
		}
		v, err := strconv.ParseFloat(rec[fi], 64)
		if err != nil {
			return nil, fmt.Errorf("%s: fit_seconds %q: %w", path, rec[fi], err)
		}
		out[rec[mi]] += v
	}
}

// median of xs (the mean of the middle two for an even count); NaN when
// empty.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// versusGroup is one study at one -j in one build: its rounds' figures.
type versusGroup struct {
	study, build              string
	jobs                      int
	wall, cpu, peak, rep, rpk []float64
	fits                      map[string][]float64
}

// versusGroups collects the runs by study, -j and build, in the order the
// runs came.
func versusGroups(runs []ScalingRun) []*versusGroup {
	var out []*versusGroup
	find := func(r ScalingRun) *versusGroup {
		for _, g := range out {
			if g.study == r.Study && g.jobs == r.Jobs && g.build == r.Build {
				return g
			}
		}
		g := &versusGroup{study: r.Study, jobs: r.Jobs, build: r.Build, fits: map[string][]float64{}}
		out = append(out, g)
		return g
	}
	for _, r := range runs {
		g := find(r)
		g.wall = append(g.wall, r.Wall)
		if r.CPU > 0 {
			g.cpu = append(g.cpu, r.CPU)
		}
		if r.PeakRSS > 0 {
			g.peak = append(g.peak, float64(r.PeakRSS))
		}
		if r.ReportWall > 0 {
			g.rep = append(g.rep, r.ReportWall)
		}
		if r.ReportPeakRSS > 0 {
			g.rpk = append(g.rpk, float64(r.ReportPeakRSS))
		}
		for m, s := range r.Fits {
			g.fits[m] = append(g.fits[m], s)
		}
	}
	return out
}

// VersusTable renders a comparison: per study and -j, each build's median
// wall time, CPU time (user + system: the work, whatever threads it ran
// on), peak memory and (paper study) report, with the ratio this ÷
// versus (the "ratio" row); then each method's fit seconds (summed over the study's rows,
// median over the rounds) in both builds. Ratios below 1 favour this build.
func VersusTable(runs []ScalingRun) string {
	groups := versusGroups(runs)
	var b strings.Builder
	fmt.Fprintf(&b, "%-6s %4s %-7s %6s %10s %10s %10s %10s %10s\n", "study", "-j", "build", "rounds", "wall", "CPU", "peak RSS", "report", "rep. peak")
	other := func(g *versusGroup) *versusGroup {
		for _, h := range groups {
			if h.study == g.study && h.jobs == g.jobs && h.build != g.build {
				return h
			}
		}
		return nil
	}
	secs := func(v float64) string {
		if math.IsNaN(v) {
			return "—"
		}
		return fmt.Sprintf("%.2fs", v)
	}
	mb := func(v float64) string {
		if math.IsNaN(v) {
			return "—"
		}
		return fmt.Sprintf("%.0f MB", v/1e6)
	}
	rat := func(a, c float64) string {
		if math.IsNaN(a) || math.IsNaN(c) || c == 0 {
			return "—"
		}
		return fmt.Sprintf("%.3f×", a/c)
	}
	line := func(g *versusGroup) {
		fmt.Fprintf(&b, "%-6s %4d %-7s %6d %10s %10s %10s %10s %10s\n", g.study, g.jobs, g.build, len(g.wall),
			secs(median(g.wall)), secs(median(g.cpu)), mb(median(g.peak)), secs(median(g.rep)), mb(median(g.rpk)))
	}
	for _, g := range groups {
		h := other(g)
		switch {
		case h == nil:
			line(g)
		case g.build == BuildThis:
			line(g)
			line(h)
			fmt.Fprintf(&b, "%-6s %4d %-7s %6s %10s %10s %10s %10s %10s\n", g.study, g.jobs, "ratio", "",
				rat(median(g.wall), median(h.wall)), rat(median(g.cpu), median(h.cpu)), rat(median(g.peak), median(h.peak)),
				rat(median(g.rep), median(h.rep)), rat(median(g.rpk), median(h.rpk)))
		}
	}
	for _, g := range groups {
		h := other(g)
		if g.build != BuildThis || len(g.fits) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\nfit seconds per method, %s study at -j %d (summed over its rows; median of the rounds):\n", g.study, g.jobs)
		fmt.Fprintf(&b, "%-22s %10s %10s %8s\n", "method", BuildThis, BuildVersus, "ratio")
		methods := make([]string, 0, len(g.fits))
		for m := range g.fits {
			methods = append(methods, m)
		}
		slices.SortFunc(methods, func(x, y string) int {
			return cmp.Or(-cmp.Compare(median(g.fits[x]), median(g.fits[y])), cmp.Compare(x, y))
		})
		for _, m := range methods {
			v := math.NaN()
			if h != nil {
				if s, ok := h.fits[m]; ok {
					v = median(s)
				}
			}
			fmt.Fprintf(&b, "%-22s %10s %10s %8s\n", m, secs(median(g.fits[m])), secs(v), rat(median(g.fits[m]), v))
		}
	}
	return b.String()
}

// VersusCSVHeader is the header of VersusFile: one row per run.
var VersusCSVHeader = []string{"study", "jobs", "build", "round", "wall_seconds", "cpu_seconds", "peak_rss_bytes", "report_seconds", "report_peak_rss_bytes", "fit_seconds_by_method"}

// VersusFile is the CSV that --scaling --versus writes into --out.
const VersusFile = "versus.csv"

// VersusCSV renders every run of a comparison under VersusCSVHeader; the
// fit seconds are "method=seconds" pairs joined by ";", methods sorted.
func VersusCSV(runs []ScalingRun) ([]byte, error) {
	var b strings.Builder
	w := csv.NewWriter(&b)
	w.Write(VersusCSVHeader)
	u := func(v uint64) string {
		if v == 0 {
			return ""
		}
		return strconv.FormatUint(v, 10)
	}
	f := func(v float64) string {
		if v == 0 {
			return ""
		}
		return strconv.FormatFloat(v, 'f', 3, 64)
	}
	for _, r := range runs {
		methods := make([]string, 0, len(r.Fits))
		for m := range r.Fits {
			methods = append(methods, m)
		}
		slices.Sort(methods)
		var fits []string
		for _, m := range methods {
			fits = append(fits, m+"="+strconv.FormatFloat(r.Fits[m], 'f', 4, 64))
		}
		w.Write([]string{r.Study, strconv.Itoa(r.Jobs), r.Build, strconv.Itoa(r.Round), f(r.Wall), f(r.CPU), u(r.PeakRSS), f(r.ReportWall), u(r.ReportPeakRSS), strings.Join(fits, ";")})
	}
	w.Flush()
	return []byte(b.String()), w.Error()
}

// versionLine asks a build for its version line (`BIN version`, in the
// children's environment env), to name it in the comparison's log.
func versionLine(bin string, env []string) string {
	cmd := exec.Command(bin, "version")
	cmd.Env = childEnv(env)
	out, err := foreign.CombinedOutput(cmd)
	if err != nil {
		return filepath.Base(bin) + ": " + err.Error()
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return line
}
