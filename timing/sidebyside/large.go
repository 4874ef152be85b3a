package sidebyside

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/fgrtbench/fgrtbench/internal/foreign"
	"github.com/fgrtbench/fgrtbench/timing/paperruntime"
)

// LargeOptions configure the large-data task: a generated CSV of Rows ×
// Cols numbers (paperruntime.WriteLargeCSV), read by `fgrtbench datasets` and by
// pandas.read_csv, then a clean-protocol study of FGRT and CART on it, each
// in its own process so that its peak resident memory is its own.
type LargeOptions struct {
	// Binary is the fgrtbench executable to time.
	Binary string
	// Python is an interpreter that imports pandas ("" skips pandas).
	Python string
	// Dir holds the data file and the study's output (a temporary
	// directory when empty).
	Dir        string
	Rows, Cols int // paperruntime.LargeRows × paperruntime.LargeCols when zero
	Jobs       int // the study's -j (2 when zero)
	Log        io.Writer
}

// LargeRun is one timed process.
type LargeRun struct {
	What    string
	Wall    float64 // seconds
	PeakRSS uint64  // bytes; 0 where the platform does not report it
	// CPU is the child's user and system time, in seconds: its work,
	// whatever threads it ran on.
	CPU  float64
	Note string
}

// LargeResult is the large-data task's measurement.
type LargeResult struct {
	Rows, Cols int
	FileBytes  int64
	Jobs       int
	Runs       []LargeRun
	// Stages is the study's --profile line (time per stage).
	Stages string
}

// Matrix is the bytes of the data as a float64 matrix.
func (r LargeResult) Matrix() uint64 { return uint64(r.Rows) * uint64(r.Cols) * 8 }

// StudyArgs are the arguments of the timed study (out is its directory):
// the study of the large-data issue as a user runs it, its report
// included (the report reads back the study's artifacts, which on 10^6
// rows is several seconds and its own peak of memory).
func StudyArgs(data, out string, jobs int) []string {
	return []string{"reproduce", "--methods", "fgrt,cart", "--no-variants", "--protocol", "clean", "--datasets", data,
		"-j", strconv.Itoa(jobs), "--profile", "--out", out}
}

// pandasScript reads the CSV with pandas.read_csv and prints its own
// reading time and the row count.
const pandasScript = `
import sys, time
import pandas as pd
t0 = time.perf_counter()
df = pd.read_csv(sys.argv[1])
print(time.perf_counter() - t0, len(df))
`

// RunLarge generates the data (once per directory) and times the three
// processes.
func RunLarge(ctx context.Context, o LargeOptions) (LargeResult, error) {
	if o.Rows == 0 {
		o.Rows, o.Cols = paperruntime.LargeRows, paperruntime.LargeCols
	}
	if o.Jobs == 0 {
		o.Jobs = 2
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	dir, cleanup, err := scratchDir(o.Dir, "fgrtbench-large-")
	if err != nil {
		return LargeResult{}, err
	}
	defer cleanup()
	o.Dir = dir
	res := LargeResult{Rows: o.Rows, Cols: o.Cols, Jobs: o.Jobs}
	data := filepath.Join(o.Dir, fmt.Sprintf("large-%dx%d.csv", o.Rows, o.Cols))
	if _, err := os.Stat(data); err != nil {
		fmt.Fprintf(o.Log, "speed: writing %d × %d CSV to %s\n", o.Rows, o.Cols, data)
		if err := paperruntime.WriteLargeCSVFile(data, o.Rows, o.Cols); err != nil {
			return res, err
		}
	}
	if st, err := os.Stat(data); err == nil {
		res.FileBytes = st.Size()
	}
	base := filepath.Base(data)
	if res.Runs, err = o.timeReads(ctx, base); err != nil {
		return res, err
	}
	r, stages, err := o.timeStudy(ctx, base)
	if err != nil {
		return res, err
	}
	res.Runs, res.Stages = append(res.Runs, r), stages
	return res, nil
}

// timeReads times `fgrtbench datasets` reading the file base, and
// pandas.read_csv when o.Python is set.
func (o LargeOptions) timeReads(ctx context.Context, base string) ([]LargeRun, error) {
	r, _, err := timeProcess(ctx, o.Dir, "`fgrtbench datasets "+base+"`", o.Binary, "datasets", base)
	if err != nil {
		return nil, err
	}
	runs := []LargeRun{r}
	fmt.Fprintf(o.Log, "speed: %s %.2fs, peak %s\n", r.What, r.Wall, megabytes(r.PeakRSS))
	if o.Python == "" {
		return runs, nil
	}
	r, out, err := timeProcess(ctx, o.Dir, "`pandas.read_csv("+base+")` (Python process)", o.Python, "-c", pandasScript, base)
	if err != nil {
		return runs, err
	}
	if f := strings.Fields(out); len(f) == 2 {
		if _, err := foreign.ParseSeconds(f[0]); err != nil {
			return runs, fmt.Errorf("%s: its own reading time: %w", r.What, err)
		}
		r.Note = "read_csv itself " + f[0][:min(len(f[0]), 5)] + " s"
	}
	fmt.Fprintf(o.Log, "speed: %s %.2fs, peak %s\n", r.What, r.Wall, megabytes(r.PeakRSS))
	return append(runs, r), nil
}

// timeStudy times the study on the file base (StudyArgs) and returns its
// run and its --profile line.
func (o LargeOptions) timeStudy(ctx context.Context, base string) (LargeRun, string, error) {
	if err := os.RemoveAll(filepath.Join(o.Dir, "study")); err != nil {
		return LargeRun{}, "", err
	}
	args := StudyArgs(base, "study", o.Jobs)
	// Shown as run, but for the output directory (a temporary one).
	r, stderr, err := timeProcess(ctx, o.Dir, "`fgrtbench "+strings.Join(args[:len(args)-2], " ")+"`", o.Binary, args...)
	if err != nil {
		return r, "", err
	}
	stages := ""
	for _, l := range strings.Split(stderr, "\n") {
		if rest, ok := strings.CutPrefix(l, "fgrtbench: profile: "); ok {
			stages, _, _ = strings.Cut(rest, " (summed") // the block says how it is summed
		}
	}
	fmt.Fprintf(o.Log, "speed: %s %.1fs, peak %s\n", r.What, r.Wall, megabytes(r.PeakRSS))
	return r, stages, nil
}

// timeProcess runs a command in dir and returns its wall time, its peak
// resident memory and its output (stdout and stderr together).
func timeProcess(ctx context.Context, dir, what, name string, args ...string) (LargeRun, string, error) {
	return timeProcessEnv(ctx, dir, nil, what, name, args...)
}

// timeProcessEnv is timeProcess with the child's environment (this
// process's when nil), without OneProcessEnv.
func timeProcessEnv(ctx context.Context, dir string, env []string, what, name string, args ...string) (LargeRun, string, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = dir, childEnv(env)
	floor, _ := resetPeakRSS()
	t0 := time.Now()
	out, err := foreign.CombinedOutput(cmd)
	r := LargeRun{What: what, Wall: time.Since(t0).Seconds()}
	if err != nil {
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		return r, "", fmt.Errorf("%s: %w: %s", what, err, lines[len(lines)-1])
	}
	r.PeakRSS = peakRSS(cmd.ProcessState)
	r.CPU = (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
	if floor > 0 && r.PeakRSS <= floor {
		// The figure may be this process's memory, not the child's: say
		// so instead of printing it as the child's.
		r.Note = fmt.Sprintf("peak at most %s (the measuring process's own)", megabytes(floor))
		r.PeakRSS = 0
	}
	return r, string(out), nil
}

func megabytes(b uint64) string {
	if b == 0 {
		return "unknown"
	}
	return fmt.Sprintf("%.0f MB", float64(b)/1e6)
}

// LargeMarkdown renders the large-data measurement for the README's
// performance block.
func LargeMarkdown(r LargeResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Large data (`fgrtbench speed --large-data`): a generated CSV of %s rows × %d numeric columns and 3 classes (%.0f MB of text, a %.0f MB float64 matrix); each command in its own process, wall time and peak resident memory (the child's rusage; on Linux the measuring process's own high-water mark is reset before each start, since a child started by vfork inherits it).\n\n",
		thousands(r.Rows), r.Cols, float64(r.FileBytes)/1e6, float64(r.Matrix())/1e6)
	b.WriteString("| command | wall time | peak memory (× matrix) | note |\n|---|---:|---:|---|\n")
	for _, run := range r.Runs {
		mem := "—"
		if run.PeakRSS > 0 {
			mem = fmt.Sprintf("%s (%.1f×)", megabytes(run.PeakRSS), float64(run.PeakRSS)/float64(r.Matrix()))
		}
		note := run.Note
		if note == "" {
			note = "—"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", run.What, seconds(run.Wall), mem, note)
	}
	if r.Stages != "" {
		fmt.Fprintf(&b, "\nThe study's time per stage (`--profile`, summed over -j %d): %s.\n", r.Jobs, r.Stages)
	}
	return b.String()
}
