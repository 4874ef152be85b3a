package external

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fgrtbench/fgrtbench/fgrt"
	"github.com/fgrtbench/fgrtbench/fuzzy"
	"github.com/fgrtbench/fgrtbench/internal/foreign"
	"github.com/fgrtbench/fgrtbench/learn"
)

// Trainer is an external method configured for one unit. Fit only records
// the training rows: the command fits and predicts in one run, when the
// model is asked to predict (learn.CheckedPredictor), so that the method
// sees the test rows exactly once and never their labels.
type Trainer struct {
	run    *runConfig
	params map[string]string
	seed   int64
	// parts are partitions prepared on other rows (the paper protocol's
	// all-rows preparation); nil means "fit them on the training rows".
	parts []fuzzy.Partition
	// ctx is the run's context (nil: none): when the run is interrupted,
	// the command in flight is killed instead of awaited.
	ctx context.Context
	// trace, when set, receives an account of each job as it runs (what
	// the adapter received, printed and returned): external try.
	trace io.Writer
}

// runConfig is what every configuration of one external method shares:
// the command, how it runs, and (worker mode) its pool of workers.
type runConfig struct {
	cmd        template
	timeout    time.Duration
	adapter    string // absolute path
	adapterSHA string
	// checked is the adapter file's stamp when it last had adapterSHA:
	// an unchanged stamp skips hashing it again (a compiled adapter is
	// megabytes, hashed before every job).
	checkedMu  sync.Mutex
	checked    fileStamp
	mode       string
	workerJobs int
	// dir is the command's working directory (absolute; "" = the current
	// one) and program its first word resolved against it when that is a
	// relative path ("" = as written).
	dir, program string
	// keep is the directory that receives the jobs' directories ("" =
	// $TMPDIR, deleted after each job).
	keep string
	pool *pool // worker mode
}

// argv expands the command for a job's placeholders.
func (c *runConfig) argv(vars map[string]string) []string {
	args := c.cmd.expand(vars)
	if c.program != "" {
		args[0] = c.program
	}
	return args
}

// WithTrace returns the trainer with an account of each job written to w.
func (t *Trainer) WithTrace(w io.Writer) *Trainer {
	c := *t
	c.trace = w
	return &c
}

// WithContext returns the trainer with its commands tied to ctx: cancelling
// ctx (an interrupted run) kills a command in flight, and the run reports
// the cancellation rather than a failure of the method.
func (t *Trainer) WithContext(ctx context.Context) learn.Trainer {
	c := *t
	c.ctx = ctx
	return &c
}

// partitions fits the quantile fuzzy partitions exactly as FGRT does.
func partitions(X [][]float64, y []int, s learn.Schema) ([]fuzzy.Partition, error) {
	t, err := fgrt.New(fgrt.DefaultConfig())
	if err != nil {
		return nil, err
	}
	parts, _, err := t.Partitions(X, y, s)
	return parts, err
}

// Prepare fits the fuzzy partitions on the given rows, as FGRT's Prepare
// does, so that under the paper protocol an external fuzzy learner gets the
// partitions FGRT gets.
func (t *Trainer) Prepare(X [][]float64, y []int, s learn.Schema) (learn.Trainer, error) {
	parts, err := partitions(X, y, s)
	if err != nil {
		return nil, fmt.Errorf("external: fuzzy partitions: %w", err)
	}
	c := *t
	c.parts = parts
	return &c, nil
}

// Fit validates and copies the training rows.
func (t *Trainer) Fit(X [][]float64, y []int, s learn.Schema) (learn.Model, error) {
	if err := learn.CheckXY(X, y, s, false); err != nil {
		return nil, err
	}
	parts := t.parts
	if parts == nil {
		var err error
		if parts, err = partitions(X, y, s); err != nil {
			return nil, fmt.Errorf("external: fuzzy partitions: %w", err)
		}
	}
	xtr := make([][]float64, len(X))
	for i, row := range X {
		xtr[i] = append([]float64(nil), row...)
	}
	return &Model{t: t, in: inputs{schema: s, xtr: xtr, ytr: append([]int(nil), y...), partitions: parts, seed: t.seed, params: t.params}}, nil
}

// Model runs the command when it predicts. Complexity and Rules describe
// the most recent successful run (the same for every run of a
// deterministic method).
type Model struct {
	t  *Trainer
	in inputs

	mu   sync.Mutex
	last resultJSON
	// scores are the scores.csv of the last run and scoredX the test rows
	// they score (Scores answers only for those rows).
	scores  [][]float64
	scoredX [][]float64
}

// resultJSON is the optional result record an adapter writes.
type resultJSON struct {
	FitSeconds *float64        `json:"fit_seconds"`
	Complexity *complexityJSON `json:"complexity"`
	Rules      string          `json:"rules"`
}

type complexityJSON struct {
	Rules         int `json:"rules"`
	Antecedents   int `json:"antecedents"`
	Leaves        int `json:"leaves"`
	InternalNodes int `json:"internal_nodes"`
}

// Predict runs the command; it returns nil when the run fails (the runner
// uses PredictChecked, which says why).
func (m *Model) Predict(X [][]float64) []int {
	pred, _, err := m.PredictChecked(X)
	if err != nil {
		return nil
	}
	return pred
}

// Complexity reports the complexity record of the last run.
func (m *Model) Complexity() learn.Complexity {
	m.mu.Lock()
	defer m.mu.Unlock()
	if c := m.last.Complexity; c != nil {
		return learn.Complexity{Rules: c.Rules, Antecedents: c.Antecedents, Leaves: c.Leaves, InternalNodes: c.InternalNodes}
	}
	return learn.Complexity{}
}

// Rules returns the rules text of the last run.
func (m *Model) Rules(learn.Schema) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.last.Rules
}

// PredictChecked writes the unit's files into a fresh directory, runs the
// job (a process, or a worker's round trip) and reads its predictions and
// result record. A job whose worker turns out to have been out of step
// before it was sent (outOfStep) runs again, once, as a new job.
func (m *Model) PredictChecked(X [][]float64) (pred []int, fit float64, err error) {
	pred, fit, err = m.predictJob(X)
	var stale *outOfStep
	if errors.As(err, &stale) {
		pred, fit, err = m.predictJob(X)
	}
	return pred, fit, err
}

// predictJob is one job of PredictChecked.
func (m *Model) predictJob(X [][]float64) (pred []int, fit float64, err error) {
	in := m.in
	in.xte = X
	rc := m.t.run
	if err := rc.checkAdapter(); err != nil {
		return nil, 0, err
	}
	j, err := newJob(rc, m.t)
	if err != nil {
		return nil, 0, err
	}
	defer func() { err = j.finish(err) }()
	if err := in.write(j.dir); err != nil {
		return nil, 0, fmt.Errorf("external: writing inputs: %w", err)
	}
	j.traceInputs()
	start := time.Now()
	if rc.mode == ModeWorker {
		err = m.t.runWorker(j)
	} else {
		err = m.t.runProcess(j)
	}
	wall := time.Since(start).Seconds()
	j.record.Seconds = wall
	if err != nil {
		return nil, 0, err
	}
	if pred, err = readPredictions(filepath.Join(j.dir, PredictionsFile), len(X), in.schema); err != nil {
		return nil, 0, err
	}
	res, err := readResult(filepath.Join(j.dir, ResultFile))
	if err != nil {
		return nil, 0, err
	}
	scores, err := readScores(filepath.Join(j.dir, ScoresFile), len(X), in.schema)
	if err != nil {
		return nil, 0, err
	}
	fit = wall
	if res.FitSeconds != nil {
		fit = *res.FitSeconds
	}
	m.mu.Lock()
	m.last = res
	m.scores, m.scoredX = scores, X
	m.mu.Unlock()
	return pred, fit, nil
}

// Scores returns the scores the adapter wrote to scores.csv for the test
// rows X of its last run (nil when it wrote none, or for other rows): a
// model's scores exist only for the rows it was run on.
func (m *Model) Scores(X [][]float64) [][]float64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.scores == nil || len(X) != len(m.scoredX) {
		return nil
	}
	// By value: the caller may hold the same rows in another slice.
	for i, row := range X {
		if !slices.EqualFunc(row, m.scoredX[i], sameValue) {
			return nil
		}
	}
	return m.scores
}

// sameValue is == with a missing value (NaN) equal to itself.
func sameValue(a, b float64) bool { return a == b || (math.IsNaN(a) && math.IsNaN(b)) }

// maxScoreCellBytes bounds one score cell of scores.csv: a float64 in its
// shortest form takes at most 24 bytes; with separators and slack, 40.
const maxScoreCellBytes = 40

// readScores reads the optional scores.csv: a header naming every class of
// the schema once (in any order), then exactly n rows of finite numbers,
// one per class. Like predictions.txt it is read only as a regular file
// and only up to the size n rows can take.
func readScores(path string, n int, s learn.Schema) ([][]float64, error) {
	k := s.NumClasses()
	limit := int64(k)*int64(maxScoreCellBytes)*int64(n+1) + 1024
	for c := 0; c < k; c++ {
		limit += int64(len(s.ClassName(c)))
	}
	data, err := readBounded(path, limit)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, nil
	case errors.As(err, new(tooLarge)):
		return nil, fmt.Errorf("external: %s is larger than %d bytes, the most %d rows of %d scores can take", ScoresFile, limit, n, k)
	case err != nil:
		return nil, fileError(ScoresFile, err)
	}
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = k
	r.ReuseRecord = true
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("external: %s: header: %v (want one column per class: %s)", ScoresFile, err, strings.Join(classNames(s), ", "))
	}
	col, err := scoreColumns(header, s)
	if err != nil {
		return nil, err
	}
	return scoreRows(r, col, n)
}

// scoreColumns maps each header column of the scores file to its class
// index; each class must appear once.
func scoreColumns(header []string, s learn.Schema) ([]int, error) {
	k := s.NumClasses()
	index := map[string]int{}
	for c := 0; c < k; c++ {
		index[s.ClassName(c)] = c
	}
	col := make([]int, k) // header column -> class index
	seen := map[int]bool{}
	for i, h := range header {
		c, ok := index[strings.TrimSpace(h)]
		if !ok || seen[c] {
			return nil, fmt.Errorf("external: %s: header column %d %q is not a class of the schema, or repeats one (want each of %s once)", ScoresFile, i+1, h, strings.Join(classNames(s), ", "))
		}
		seen[c], col[i] = true, c
	}
	return col, nil
}

// scoreRows reads the n score rows after the header, each a finite number
// per class, into class order.
func scoreRows(r *csv.Reader, col []int, n int) ([][]float64, error) {
	out := make([][]float64, 0, n)
	for line := 2; ; line++ {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("external: %s: %v", ScoresFile, err)
		}
		if len(out) == n {
			return nil, fmt.Errorf("external: %s has more than %d score rows for %d test rows", ScoresFile, n, n)
		}
		row := make([]float64, len(col))
		for i, f := range rec {
			v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil || foreign.Finite(v) != nil {
				return nil, fmt.Errorf("external: %s line %d column %d: %q is not a finite number", ScoresFile, line, i+1, f)
			}
			row[col[i]] = v
		}
		out = append(out, row)
	}
	if len(out) != n {
		return nil, fmt.Errorf("external: %s has %d score rows for %d test rows", ScoresFile, len(out), n)
	}
	return out, nil
}

// removeDir removes a unit's directory, also when the command left
// directories in it without write permission.
func removeDir(dir string) {
	if os.RemoveAll(dir) == nil {
		return
	}
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(path, 0o700)
		}
		return nil
	})
	os.RemoveAll(dir)
}

// checkAdapter refuses to run an adapter that changed since the study
// resolved it: its rows would belong to a different study.
func (c *runConfig) checkAdapter() error {
	stamp, stamped := stampOf(c.adapter)
	c.checkedMu.Lock()
	same := stamped && stamp == c.checked
	c.checkedMu.Unlock()
	if same {
		return nil
	}
	sum, err := FileSHA256(c.adapter)
	if err != nil {
		return fmt.Errorf("external: adapter: %v", err)
	}
	if sum != c.adapterSHA {
		return fmt.Errorf("external: adapter %s changed during the study (SHA-256 %s, the study pins %s)", c.adapter, sum[:12], c.adapterSHA[:12])
	}
	if stamped {
		c.checkedMu.Lock()
		c.checked = stamp
		c.checkedMu.Unlock()
	}
	return nil
}

// runProcess executes the command once for the job, with the job's
// placeholders and the timeout.
func (t *Trainer) runProcess(j *job) error {
	rc := t.run
	args := rc.argv(j.vars)
	j.record.Argv = args
	j.tracef("command: %s\n", strings.Join(args, " "))
	parent := t.ctx
	if parent == nil {
		parent = context.Background()
	}
	ctx, cancel := context.WithTimeout(parent, rc.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Dir = rc.dir
	cmd.Env = append(os.Environ(), "FGRTBENCH_UNIT_DIR="+j.dir)
	cmd.WaitDelay = waitDelay
	ownGroup(cmd)
	var output tailBuffer
	var sink io.Writer = &output
	if t.trace != nil {
		sink = io.MultiWriter(&output, &linePrefixer{w: t.trace, prefix: "  | "})
	}
	err := runCollecting(cmd, sink)
	j.record.Output = output.String()
	switch {
	case parent.Err() != nil:
		return fmt.Errorf("external: %s stopped, the run was interrupted: %w", args[0], parent.Err())
	case ctx.Err() == context.DeadlineExceeded:
		return fmt.Errorf("external: %s timed out after %v%s", args[0], rc.timeout, output.tail())
	case err != nil:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return fmt.Errorf("external: %s exited with status %d%s", args[0], ee.ExitCode(), output.tail())
		}
		return fmt.Errorf("external: %v", err)
	}
	j.tracef("exit status 0\n")
	return nil
}

// waitDelay bounds how long a command is awaited after it was killed, and
// how long its output is read after it exited (a child that escaped its
// process group may hold the pipe open).
const waitDelay = 5 * time.Second

// runCollecting runs cmd with its stdout and stderr going to out through a
// pipe the harness owns, so that waiting for the command is waiting for its
// process, not for every process that inherited the pipe. When the command
// has exited, the processes it left in its group are killed, and its output
// is read to the end.
func runCollecting(cmd *exec.Cmd, out io.Writer) error {
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	cmd.Stdout, cmd.Stderr = w, w
	err = cmd.Start()
	w.Close() // the command holds its own copy
	if err != nil {
		r.Close()
		return err
	}
	copied := make(chan struct{})
	go func() {
		io.Copy(out, r)
		close(copied)
	}()
	err = cmd.Wait()
	killGroup(cmd)
	select {
	case <-copied:
	case <-time.After(waitDelay):
	}
	r.Close()
	return err
}

// tailBuffer keeps the last few kilobytes a command printed.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

const tailKeep = 4096

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) > 2*tailKeep {
		b.buf = append([]byte(nil), b.buf[len(b.buf)-tailKeep:]...)
	}
	return len(p), nil
}

// reset forgets what was written (a worker's next job).
func (b *tailBuffer) reset() {
	b.mu.Lock()
	b.buf = b.buf[:0]
	b.mu.Unlock()
}

// String returns the kept output (its last kilobytes).
func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.buf) > tailKeep {
		return string(b.buf[len(b.buf)-tailKeep:])
	}
	return string(b.buf)
}

// tail renders the last lines of output on one line: ": a | b | c".
func (b *tailBuffer) tail() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var lines []string
	for _, l := range strings.Split(string(b.buf), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		return " (no output)"
	}
	if len(lines) > 3 {
		lines = lines[len(lines)-3:]
	}
	s := strings.Join(lines, " | ")
	if len(s) > 400 {
		s = "..." + s[len(s)-400:]
	}
	return ": " + s
}

// predictionsSlack is what predictions.txt may hold beyond one line per
// test row: a trailing line, a final newline (docs/shared-storage.md gives
// the cap as (test rows + 1) × (longest class name + 2) + 4 KiB).
const predictionsSlack = 4 << 10

// predictionsCap is the size beyond which predictions.txt is refused
// unread: n lines of the longest class name and "\r\n", one more, and
// predictionsSlack.
func predictionsCap(n, longest int) int64 {
	return int64(n+1)*int64(longest+2) + predictionsSlack
}

// readPredictions reads one class name per line; it must have exactly n
// lines, each a class of the schema.
//
// The file is another program's output: a link, FIFO or device in its
// place is refused (never followed, never waited on), and so is a file
// larger than predictionsCap. A file refused for its size is still read up
// to the cap, so that the refusal names what made it large when the lines
// show it (a label that is not a class, with its line).
func readPredictions(path string, n int, s learn.Schema) ([]int, error) {
	index := map[string]int{}
	longest := 0
	for k := range s.Classes {
		index[s.ClassName(k)] = k
		longest = max(longest, len(s.ClassName(k)))
	}
	limit := predictionsCap(n, longest)
	data, err := readBounded(path, limit)
	truncated := errors.As(err, new(tooLarge))
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("external: the command exited 0 but wrote no %s", PredictionsFile)
	case err != nil && !truncated:
		return nil, fileError(PredictionsFile, err)
	}
	pred := make([]int, 0, n)
	rest := data
	for line := 1; len(rest) > 0; line++ {
		var text []byte
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			text, rest = rest[:i], rest[i+1:]
		} else if truncated && len(rest) <= longest+1 {
			break // cut by the cap: may be the start of a class name
		} else if truncated {
			return nil, fmt.Errorf("external: %s line %d: %s, running past the file's cap of %d bytes, is not a class of the schema (%s)", PredictionsFile, line, quoteClipped(string(rest)), limit, strings.Join(classNames(s), ", "))
		} else {
			text, rest = rest, nil
		}
		label := strings.TrimSuffix(string(text), "\r")
		k, ok := index[label]
		if !ok {
			return nil, fmt.Errorf("external: %s line %d: %s is not a class of the schema (%s)%s", PredictionsFile, line, quoteClipped(label), strings.Join(classNames(s), ", "), labelHint(label, index))
		}
		pred = append(pred, k)
	}
	switch {
	case truncated && len(pred) > n:
		return nil, fmt.Errorf("external: %s is larger than %d bytes, the most %d test rows of class names can take: its first %d lines are classes, one per test row wanted", PredictionsFile, limit, n, len(pred))
	case truncated:
		return nil, fmt.Errorf("external: %s is larger than %d bytes, the most %d test rows of class names can take", PredictionsFile, limit, n)
	case len(pred) != n:
		return nil, fmt.Errorf("external: %s has %d predictions for %d test rows", PredictionsFile, len(pred), n)
	}
	return pred, nil
}

// quoteClipped quotes a label, clipped to its first 60 bytes.
func quoteClipped(label string) string {
	if len(label) > 60 {
		return fmt.Sprintf("%q... (%d bytes)", label[:60], len(label))
	}
	return fmt.Sprintf("%q", label)
}

// labelHint says why a line that is not a class may be one in disguise:
// a byte-order mark, or spaces or tabs around it.
func labelHint(label string, index map[string]int) string {
	bare, hadBOM := strings.CutPrefix(label, "\ufeff")
	trimmed := strings.TrimSpace(bare)
	_, isClass := index[trimmed]
	switch {
	case hadBOM && isClass:
		return "; it starts with a byte-order mark: write the file without one"
	case hadBOM:
		return "; the file starts with a byte-order mark: write it without one"
	case isClass && trimmed != label:
		return fmt.Sprintf("; it is %q with spaces around it: write class names as they are", trimmed)
	}
	return ""
}

func classNames(s learn.Schema) []string {
	out := make([]string, s.NumClasses())
	for k := range out {
		out[k] = s.ClassName(k)
	}
	return out
}

// readResult reads the optional result record; unknown fields, values of
// the wrong type, trailing data, negative counts and a negative fit time are
// errors, worded in the file's own terms (the adapter's author reads them).
func readResult(path string) (resultJSON, error) {
	var r resultJSON
	data, err := readBounded(path, maxResultBytes)
	if errors.Is(err, os.ErrNotExist) {
		return r, nil
	}
	if err != nil {
		return r, fileError(ResultFile, err)
	}
	malformed := func(format string, args ...any) error {
		return fmt.Errorf("external: malformed %s: %s", ResultFile, fmt.Sprintf(format, args...))
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return r, malformed("%s is a JSON %s, want %s", typeErr.Field, typeErr.Value, jsonKind(typeErr.Type.Kind()))
		}
		if msg, ok := strings.CutPrefix(err.Error(), "json: "); ok {
			return r, malformed("%s", msg)
		}
		return r, malformed("%v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return r, malformed("more than one JSON value (data after the first object)")
	}
	if c := r.Complexity; c != nil {
		for _, f := range []struct {
			name string
			n    int
		}{{"rules", c.Rules}, {"antecedents", c.Antecedents}, {"leaves", c.Leaves}, {"internal_nodes", c.InternalNodes}} {
			if foreign.Count(f.n) != nil {
				return r, malformed("complexity.%s is %d; counts cannot be negative", f.name, f.n)
			}
		}
	}
	// JSON has no NaN or infinity: a time foreign.Seconds refuses is negative.
	if f := r.FitSeconds; f != nil && foreign.Seconds(*f) != nil {
		return r, malformed("fit_seconds %v is negative", *f)
	}
	return r, nil
}

// jsonKind names what a Go field of this kind accepts, in JSON's terms.
func jsonKind(k reflect.Kind) string {
	switch k {
	case reflect.Int, reflect.Int64:
		return "a whole number"
	case reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Struct, reflect.Pointer:
		return "an object"
	}
	return k.String()
}
