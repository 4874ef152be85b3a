package external

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// nextJob numbers the jobs of this process: a worker's answer must carry
// the number of the job in flight, and a kept directory is named after it.
var nextJob atomic.Int64

// job is one run of the adapter: fit on the training rows, predict the
// test rows, in a directory of its own.
type job struct {
	id    int64
	dir   string // absolute
	kept  bool
	vars  map[string]string
	trace io.Writer
	// record is the account kept in job.json beside a kept job's files.
	record jobRecord
}

// jobRecord is job.json, written into a kept job directory after the job
// (the adapter never sees it): what ran, how long, what it printed, and
// how it ended.
type jobRecord struct {
	ID      int64           `json:"id"`
	Mode    string          `json:"mode"`
	Argv    []string        `json:"argv,omitempty"`
	Message json.RawMessage `json:"message,omitempty"`
	Answer  string          `json:"answer,omitempty"`
	Worker  int             `json:"worker_pid,omitempty"`
	Seconds float64         `json:"seconds"`
	Error   string          `json:"error,omitempty"`
	Output  string          `json:"output,omitempty"`
}

// JobRecordFile is the account of a job kept beside its files.
const JobRecordFile = "job.json"

// newJob makes the job's directory: fresh under $TMPDIR (deleted by
// finish), or under the keep directory, named after the job, and kept.
func newJob(rc *runConfig, t *Trainer) (*job, error) {
	j := &job{id: nextJob.Add(1), trace: t.trace}
	j.record.ID = j.id
	j.record.Mode = ModeProcess
	if rc.mode == ModeWorker {
		j.record.Mode = ModeWorker
	}
	var err error
	if rc.keep != "" {
		if err := os.MkdirAll(rc.keep, 0o755); err != nil {
			return nil, fmt.Errorf("external: keeping job directories: %v", err)
		}
		j.dir, err = os.MkdirTemp(rc.keep, fmt.Sprintf("job-%06d-", j.id))
		j.kept = true
	} else {
		j.dir, err = os.MkdirTemp("", "fgrtbench-external-")
	}
	if err != nil {
		return nil, err
	}
	// A relative $TMPDIR would name another directory for a command that
	// runs in the spec's directory.
	if abs, err := filepath.Abs(j.dir); err == nil {
		j.dir = abs
	}
	j.vars = map[string]string{
		"dir": j.dir, "seed": strconv.FormatInt(t.seed, 10),
		"train": filepath.Join(j.dir, TrainFile), "test": filepath.Join(j.dir, TestFile),
		"schema": filepath.Join(j.dir, SchemaFile), "partitions": filepath.Join(j.dir, PartitionsFile),
		"params": filepath.Join(j.dir, ParamsFile), "predictions": filepath.Join(j.dir, PredictionsFile),
		"result": filepath.Join(j.dir, ResultFile),
	}
	for k, v := range t.params {
		j.vars[k] = v
	}
	j.tracef("job %d (%s mode): %s\n", j.id, j.record.Mode, j.dir)
	return j, nil
}

// finish removes the job's directory, or, when it is kept, writes
// job.json into it and names it in the error.
func (j *job) finish(err error) error {
	if !j.kept {
		removeDir(j.dir)
		return err
	}
	if err != nil {
		j.record.Error = err.Error()
	}
	if data, merr := json.MarshalIndent(j.record, "", "  "); merr == nil {
		os.WriteFile(filepath.Join(j.dir, JobRecordFile), append(data, '\n'), 0o644)
	}
	if err != nil {
		return &KeptError{Err: err, Dir: j.dir}
	}
	return nil
}

// KeptError is a failed job whose files were kept: the error names their
// directory. A caller that deletes the directory afterwards (external try
// without --keep-unit-dirs) reports Err alone, not a claim that has become
// untrue.
type KeptError struct {
	Err error
	Dir string
}

func (e *KeptError) Error() string { return fmt.Sprintf("%v (job files kept in %s)", e.Err, e.Dir) }
func (e *KeptError) Unwrap() error { return e.Err }

func (j *job) tracef(format string, args ...any) {
	if j.trace != nil {
		fmt.Fprintf(j.trace, format, args...)
	}
}

// traceInputs lists the input files with their sizes and first lines.
func (j *job) traceInputs() {
	if j.trace == nil {
		return
	}
	entries, _ := os.ReadDir(j.dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(j.dir, name))
		if err != nil {
			continue
		}
		lines := bytes.Count(data, []byte{'\n'})
		fmt.Fprintf(j.trace, "  %-16s %8d bytes %6d lines  %s\n", name, len(data), lines, firstLine(data, 70))
	}
}

// firstLine returns the start of data's first line, clipped.
func firstLine(data []byte, n int) string {
	line, _, _ := strings.Cut(string(data), "\n")
	if len(line) > n {
		line = line[:n] + "..."
	}
	return line
}

// linePrefixer writes each line with a prefix (an adapter's output inside
// a trace).
type linePrefixer struct {
	mu     sync.Mutex
	w      io.Writer
	prefix string
	mid    bool // inside a line
}

func (p *linePrefixer) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out bytes.Buffer
	for _, c := range b {
		if !p.mid {
			out.WriteString(p.prefix)
			p.mid = true
		}
		out.WriteByte(c)
		if c == '\n' {
			p.mid = false
		}
	}
	if _, err := p.w.Write(out.Bytes()); err != nil {
		return 0, err
	}
	return len(b), nil
}
