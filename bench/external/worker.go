package external

// Worker mode: one long-lived adapter process per harness worker, sent its
// jobs over a line protocol, so that an interpreter and its libraries are
// loaded once per worker instead of once per fit.
//
// The harness starts the command (its words without placeholders) with
// FGRTBENCH_WORKER=1 in the environment, in a process group of its own.
// For each job it writes the job's files into a fresh directory, as in
// process mode, and then one JSON line on the worker's standard input:
//
//	{"id": 17, "dir": "/tmp/fgrtbench-external-123", "seed": 8123,
//	 "params": {"max_depth": 5}, "argv": ["python3", "tree.py", "/tmp/..."]}
//
// The worker answers with one JSON line on its standard output once
// predictions.txt (and result.json) are written:
//
//	{"id": 17, "ok": true}     or     {"id": 17, "ok": false, "error": "..."}
//
// One job is in flight per worker. A worker that answers with the wrong id,
// writes anything else on its standard output (or a line longer than
// maxAnswerLine), exits, or does not answer within the timeout fails its
// job and is killed with its process group; the next job starts a fresh
// one. A worker's standard input closing (end of file) asks it to exit.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// WorkerEnv is the environment variable that tells an adapter it runs as a
// worker, and its value the protocol's version.
const (
	WorkerEnv      = "FGRTBENCH_WORKER"
	WorkerProtocol = "1"
)

// idleTimeout retires a worker that no job took for this long (a run
// retires its workers when it ends; this bounds those of callers without a
// context).
var idleTimeout = time.Minute

// retireGrace is how long a retired worker (its standard input closed) may
// take to exit before its process group is killed.
const retireGrace = 2 * time.Second

// jobMessage is one job, as the worker reads it.
type jobMessage struct {
	ID     int64                      `json:"id"`
	Dir    string                     `json:"dir"`
	Seed   int64                      `json:"seed"`
	Params map[string]json.RawMessage `json:"params"`
	Argv   []string                   `json:"argv"`
}

// answerJSON is the worker's answer to a job.
type answerJSON struct {
	ID    *int64 `json:"id"`
	OK    *bool  `json:"ok"`
	Error string `json:"error"`
}

// pool holds the idle workers of one external method. Jobs take an idle
// worker or start one, so a run has at most as many workers as jobs in
// flight (its -j).
type pool struct {
	mu      sync.Mutex
	idle    []*worker
	watched map[<-chan struct{}]bool
	// ending counts the workers being retired or stopped in the
	// background; ended is signalled (with mu held) when it drops to 0.
	// Release waits for it, so that a run does not return, and the
	// process exit, while a worker's grace period runs: the worker would
	// outlive the run.
	ending int
	ended  *sync.Cond
	// started counts the workers started (tests, external try).
	started atomic.Int64
}

// worker is one running adapter process.
type worker struct {
	name   string // the program, for messages
	cmd    *exec.Cmd
	stdin  *os.File
	stdout *os.File
	lines  chan lineMsg
	quit   chan struct{}
	// exited is closed when the process has exited (cmd.Wait returned).
	exited     chan struct{}
	stderrDone chan struct{}
	stderr     stderrSink
	jobs       int
	lastID     int64 // the job it last answered (0: none yet)
	broken     bool
	idleTimer  *time.Timer
	stopOnce   sync.Once
}

// lineMsg is one line of the worker's standard output, or why there is
// none (io.EOF: the output was closed).
type lineMsg struct {
	line []byte
	err  error
}

// stderrSink keeps the tail of a worker's standard error and, during a
// traced job, echoes it.
type stderrSink struct {
	tail tailBuffer
	mu   sync.Mutex
	echo io.Writer
}

func (s *stderrSink) Write(p []byte) (int, error) {
	s.tail.Write(p)
	s.mu.Lock()
	echo := s.echo
	s.mu.Unlock()
	if echo != nil {
		echo.Write(p)
	}
	return len(p), nil
}

func (s *stderrSink) setEcho(w io.Writer) {
	s.mu.Lock()
	s.echo = w
	s.mu.Unlock()
}

// workerArgv is the command a worker is started with: the template's
// words without placeholders (the per-job values travel in the job
// message, whose argv holds the command as process mode would run it).
func (c *runConfig) workerArgv() []string {
	var out []string
	for i := range c.cmd {
		if w, ok := c.cmd.literal(i); ok {
			if i == 0 && c.program != "" {
				w = c.program
			}
			out = append(out, w)
		}
	}
	return out
}

// start starts a worker.
func (p *pool) start(rc *runConfig) (*worker, error) {
	argv := rc.workerArgv()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = rc.dir
	cmd.Env = append(os.Environ(), WorkerEnv+"="+WorkerProtocol)
	ownGroup(cmd)
	cmd.Cancel = nil      // no context: stop kills the group itself
	var pipes [6]*os.File // in r/w, out r/w, err r/w
	for i := 0; i < 6; i += 2 {
		r, w, err := os.Pipe()
		if err != nil {
			for _, f := range pipes[:i] {
				f.Close()
			}
			return nil, err
		}
		pipes[i], pipes[i+1] = r, w
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = pipes[0], pipes[3], pipes[5]
	err := cmd.Start()
	pipes[0].Close() // the worker holds its own copies
	pipes[3].Close()
	pipes[5].Close()
	if err != nil {
		pipes[1].Close()
		pipes[2].Close()
		pipes[4].Close()
		return nil, err
	}
	p.started.Add(1)
	w := &worker{name: argv[0], cmd: cmd, stdin: pipes[1], stdout: pipes[2],
		lines: make(chan lineMsg), quit: make(chan struct{}), exited: make(chan struct{}), stderrDone: make(chan struct{})}
	liveWorkers.Store(w, struct{}{})
	go w.readLines()
	go func() {
		io.Copy(&w.stderr, pipes[4])
		pipes[4].Close()
		close(w.stderrDone)
	}()
	go func() {
		cmd.Wait()
		close(w.exited)
	}()
	return w, nil
}

// readLines hands the worker's output lines to the job in flight, until
// the output ends, a line is too long, or the worker is stopped.
func (w *worker) readLines() {
	br := bufio.NewReaderSize(w.stdout, maxAnswerLine)
	for {
		line, err := br.ReadSlice('\n')
		var m lineMsg
		switch {
		case err == nil:
			m.line = bytes.Clone(line)
		case errors.Is(err, bufio.ErrBufferFull):
			m.err = fmt.Errorf("wrote an answer line longer than %d bytes (an answer is one short JSON line)", maxAnswerLine)
		case len(line) > 0:
			m.err = fmt.Errorf("wrote %s on its standard output without a newline, which is not an answer (print to stderr: stdout carries the protocol)", clip(line))
		default:
			m.err = io.EOF
		}
		select {
		case w.lines <- m:
		case <-w.quit:
			return
		}
		if m.err != nil {
			return
		}
	}
}

// clip quotes the start of an unexpected output line.
func clip(b []byte) string {
	b = bytes.TrimRight(b, "\r\n")
	if len(b) > 60 {
		return fmt.Sprintf("%q...", b[:60])
	}
	return fmt.Sprintf("%q", b)
}

// stop kills the worker's process group and releases its pipes; it waits
// (boundedly) for the process and its standard error, so that a failure
// can quote the last lines. Safe to call more than once.
func (w *worker) stop() {
	w.stopOnce.Do(func() {
		killGroup(w.cmd)
		w.stdin.Close()
		select {
		case <-w.exited:
		case <-time.After(waitDelay):
		}
		killGroup(w.cmd) // children it left behind
		select {
		case <-w.stderrDone:
		case <-time.After(time.Second):
		}
		close(w.quit)
		w.stdout.Close()
		liveWorkers.Delete(w)
	})
}

// liveWorkers are the workers started and not yet stopped, in every pool.
var liveWorkers sync.Map // *worker -> struct{}

// KillWorkers kills the process group of every worker still running, at
// once, without a grace period. A process that exits now (a second
// signal: main cannot wait for Release) calls it so that no worker
// outlives it.
func KillWorkers() {
	liveWorkers.Range(func(k, _ any) bool {
		killGroup(k.(*worker).cmd)
		return true
	})
}

// inBackground runs end (w.retire or w.stop) in a goroutine that Release
// waits for. Called with p.mu held, so that a Release that finds no idle
// worker also finds the retirement of those another caller took.
func (p *pool) inBackground(end func()) {
	if p.ended == nil {
		p.ended = sync.NewCond(&p.mu)
	}
	p.ending++
	go func() {
		end()
		p.mu.Lock()
		if p.ending--; p.ending == 0 {
			p.ended.Broadcast()
		}
		p.mu.Unlock()
	}()
}

// release retires the idle workers and waits until every worker retired or
// stopped in the background has ended: each closed input, then, once the
// grace period ends, its process group killed.
func (p *pool) release() {
	p.closeIdle()
	p.mu.Lock()
	for p.ending > 0 {
		p.ended.Wait()
	}
	p.mu.Unlock()
}

// retire asks the worker to exit (end of its input), and stops it when it
// does not within retireGrace.
func (w *worker) retire() {
	w.stdin.Close()
	select {
	case <-w.exited:
	case <-time.After(retireGrace):
	}
	w.stop()
}

// healthy reports whether an idle worker can take a job: it runs and
// wrote nothing since its last answer.
func (w *worker) healthy() bool {
	select {
	case <-w.exited:
		return false
	case <-w.lines:
		return false
	default:
		return !w.broken
	}
}

// get returns an idle healthy worker or starts one.
func (p *pool) get(ctx context.Context, rc *runConfig) (*worker, error) {
	p.mu.Lock()
	p.watch(ctx)
	for len(p.idle) > 0 {
		w := p.idle[len(p.idle)-1]
		p.idle = p.idle[:len(p.idle)-1]
		w.idleTimer.Stop()
		if w.healthy() {
			p.mu.Unlock()
			return w, nil
		}
		p.inBackground(w.stop)
	}
	p.mu.Unlock()
	return p.start(rc)
}

// put returns a worker after a job: to the idle list, or, when it is
// broken, has served its jobs, or the run is over, away.
func (p *pool) put(ctx context.Context, w *worker, maxJobs int) {
	switch {
	case w.broken:
		w.stop()
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if (maxJobs > 0 && w.jobs >= maxJobs) || (ctx != nil && ctx.Err() != nil) {
		p.inBackground(w.retire)
		return
	}
	p.idle = append(p.idle, w)
	w.idleTimer = time.AfterFunc(idleTimeout, func() { p.reap(w) })
}

// reap retires a worker that stayed idle too long.
func (p *pool) reap(w *worker) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, x := range p.idle {
		if x == w {
			p.idle = append(p.idle[:i], p.idle[i+1:]...)
			p.inBackground(w.retire)
			return
		}
	}
}

// closeIdle starts the retirement of every idle worker (workers in a job
// are retired when their job ends); release waits for them.
func (p *pool) closeIdle() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, w := range p.idle {
		w.idleTimer.Stop()
		p.inBackground(w.retire)
	}
	p.idle = nil
}

// watch retires the idle workers when ctx ends (the run is over or
// interrupted). Called with p.mu held.
func (p *pool) watch(ctx context.Context) {
	if ctx == nil || ctx.Done() == nil {
		return
	}
	done := ctx.Done()
	if p.watched[done] {
		return
	}
	if p.watched == nil {
		p.watched = map[<-chan struct{}]bool{}
	}
	p.watched[done] = true
	go func() {
		<-done
		p.mu.Lock()
		delete(p.watched, done)
		p.mu.Unlock()
		p.closeIdle()
	}()
}

// Close retires the method's workers and returns when they have ended
// (the method's Release); callers that hold a Trainer rather than the
// Method (tests, external try) call it when done.
func (t *Trainer) Close() {
	if t.run.pool != nil {
		t.run.pool.release()
	}
}

// WorkersStarted is the number of workers the method has started.
func (t *Trainer) WorkersStarted() int64 {
	if t.run.pool == nil {
		return 0
	}
	return t.run.pool.started.Load()
}

// runWorker sends the job to a worker and awaits its answer.
func (t *Trainer) runWorker(j *job) error {
	rc := t.run
	ctx := t.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	name := rc.workerArgv()[0]
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("external: %s worker stopped, the run was interrupted: %w", name, err)
	}
	msg := jobMessage{ID: j.id, Dir: j.dir, Seed: t.seed, Params: map[string]json.RawMessage{}, Argv: rc.argv(j.vars)}
	for k, v := range t.params {
		msg.Params[k] = paramValue(v)
	}
	line, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	j.record.Message = line
	w, err := rc.pool.get(ctx, rc)
	if err != nil {
		return fmt.Errorf("external: starting the %s worker: %v", name, err)
	}
	j.record.Worker = w.cmd.Process.Pid
	j.tracef("worker pid %d (job %d of this worker): %s\n-> %s\n", w.cmd.Process.Pid, w.jobs+1, strings.Join(rc.workerArgv(), " "), line)
	answer, err := w.do(ctx, rc.timeout, j.id, append(line, '\n'), t.trace)
	j.record.Answer = answer
	j.record.Output = w.stderr.tail.String()
	if answer != "" {
		j.tracef("<- %s\n", answer)
	}
	rc.pool.put(ctx, w, rc.workerJobs)
	return err
}

// do runs one job on the worker: it sends the job's line and reads the
// answer. Any failure but an orderly {"ok": false} answer marks the worker
// broken (put stops it). It returns the answer line as read.
func (w *worker) do(ctx context.Context, timeout time.Duration, id int64, line []byte, trace io.Writer) (string, error) {
	w.jobs++
	w.stderr.tail.reset()
	if trace != nil {
		w.stderr.setEcho(&linePrefixer{w: trace, prefix: "  | "})
		defer w.stderr.setEcho(nil)
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	if err := w.send(line, timeout); err != nil {
		return "", err
	}
	m, err := w.receive(ctx, timer, timeout)
	if err != nil {
		return "", err
	}
	return w.answer(m, id)
}

// fail marks the worker broken, stops it and words the failure.
func (w *worker) fail(format string, args ...any) error {
	w.broken = true
	w.stop()
	return fmt.Errorf("external: %s worker "+format, append([]any{w.name}, args...)...)
}

// send writes a job's line to the worker's standard input, within the
// job's timeout.
func (w *worker) send(line []byte, timeout time.Duration) error {
	w.stdin.SetWriteDeadline(time.Now().Add(timeout))
	_, err := w.stdin.Write(line)
	if err == nil {
		return nil
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return w.fail("timed out after %v: it does not read its standard input%s", timeout, w.stderr.tail.tail())
	}
	// The worker is gone (a broken pipe): say how it ended. The words are
	// those of a worker that died after the job reached the pipe: which of
	// the two paths a dying worker takes depends only on scheduling, and
	// the same fault must give the same line.
	select {
	case <-w.exited:
	case <-time.After(waitDelay):
	}
	return w.fail("%s before answering%s", w.ending(), w.stopTail())
}

// receive waits for the worker's answer line, its exit, the timer or the
// run's interruption.
func (w *worker) receive(ctx context.Context, timer *time.Timer, timeout time.Duration) (lineMsg, error) {
	var m lineMsg
	select {
	case m = <-w.lines:
	case <-w.exited:
		// It may have answered just before it exited: read what it wrote.
		killGroup(w.cmd)
		select {
		case m = <-w.lines:
		case <-time.After(waitDelay):
			m.err = io.EOF
		}
	case <-timer.C:
		return m, w.fail("timed out after %v%s", timeout, w.stopTail())
	case <-ctx.Done():
		return m, w.fail("stopped, the run was interrupted: %w", ctx.Err())
	}
	if m.err == io.EOF {
		select {
		case <-w.exited:
			return m, w.fail("%s before answering%s", w.ending(), w.stopTail())
		case <-time.After(waitDelay):
			return m, w.fail("closed its standard output before answering%s", w.stopTail())
		}
	}
	if m.err != nil {
		return m, w.fail("%v%s", m.err, w.stopTail())
	}
	return m, nil
}

// outOfStep is the failure of a job whose worker was out of step before
// the job was sent: the line read was another answer to the worker's
// previous job. The job itself did nothing wrong: Model.PredictChecked
// runs it once more, as a new job (its own directory and id), on another
// worker.
type outOfStep struct{ err error }

func (e *outOfStep) Error() string { return e.err.Error() }
func (e *outOfStep) Unwrap() error { return e.err }

// answer checks the worker's answer to job id and returns its text.
func (w *worker) answer(m lineMsg, id int64) (string, error) {
	answer := string(bytes.TrimRight(m.line, "\r\n"))
	var a answerJSON
	dec := json.NewDecoder(bytes.NewReader(m.line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil || a.ID == nil || a.OK == nil || dec.More() {
		return answer, w.fail("wrote %s on its standard output, which is not an answer {\"id\": %d, \"ok\": true} (print to stderr: stdout carries the protocol)%s", clip(m.line), id, w.stopTail())
	}
	if *a.ID != id {
		if w.lastID != 0 && *a.ID == w.lastID {
			// A second answer to its last job, which came too late for
			// the pool to see before this job took the worker.
			return answer, &outOfStep{w.fail("answered job %d a second time while job %d was in flight (one answer per job, in order)%s", *a.ID, id, w.stopTail())}
		}
		return answer, w.fail("answered job %d, but job %d is the one in flight (one answer per job, in order)%s", *a.ID, id, w.stopTail())
	}
	w.lastID = id
	if !*a.OK {
		msg := strings.Join(strings.Fields(a.Error), " ")
		if msg == "" {
			return answer, fmt.Errorf("external: %s worker failed the job%s", w.name, w.stderr.tail.tail())
		}
		if len(msg) > 400 {
			msg = "..." + msg[len(msg)-400:]
		}
		return answer, fmt.Errorf("external: %s worker failed the job: %s", w.name, msg)
	}
	select {
	case <-w.exited: // answered, then exited: the next job needs another
		w.broken = true
	default:
	}
	return answer, nil
}

// stopTail stops the worker and returns the last lines of its standard
// error, for a failure's message.
func (w *worker) stopTail() string {
	w.stop()
	return w.stderr.tail.tail()
}

// ending describes how an exited worker ended.
func (w *worker) ending() string {
	select {
	case <-w.exited:
	default:
		return "stopped"
	}
	ps := w.cmd.ProcessState
	if ps == nil {
		return "exited"
	}
	if ps.Exited() {
		return fmt.Sprintf("exited with status %d", ps.ExitCode())
	}
	return "ended (" + ps.String() + ")"
}
