// Package foreign holds fgrtbench to what other programs tell it. The
// output of a child process (a Python or Java driver that speed times, the
// go tool, git, an fgrtbench it starts) is read under one cap, OutputCap,
// so that a program that floods its standard output is stopped with one
// line instead of exhausting memory; and every number such a program
// reports (a time, a count, a score) is range-checked here before it
// reaches a table, so that a clock that ran backwards or a garbled line is
// refused rather than printed as -25,000 ms and a negative ratio.
//
// The external-method adapters of bench/external talk through files and a
// line protocol with their own bounds (safefile's caps, one answer line);
// their numbers go through the checks here too.
package foreign

import (
	"errors"
	"fmt"
	"math"
	"os/exec"
	"strconv"
	"sync"
)

// OutputCap bounds what fgrtbench keeps of one child process's output.
// Every legitimate output is far below it (a driver prints one line,
// Weka's J48 on the runtime data prints its tree and an evaluation, a few
// megabytes at most); it is far below what would exhaust memory.
const OutputCap = 64 << 20

// TailCap is how much of a child's standard error is kept to quote when it
// fails: its last lines.
const TailCap = 32 << 10

// Flood is a child process that printed more than its cap: it was killed.
type Flood struct {
	Program string
	Stream  string // "standard output", or "output" for both streams together
	Cap     int64
}

func (e *Flood) Error() string {
	return fmt.Sprintf("%s printed more than %d MiB on its %s, more than any answer it owes holds; it was stopped",
		e.Program, e.Cap>>20, e.Stream)
}

// Output runs cmd and returns its standard output, read under OutputCap;
// a command that prints more is killed and refused with a *Flood. Like
// exec.Cmd.Output, a failed command's *exec.ExitError carries the end of
// its standard error (the last TailCap bytes) when cmd.Stderr was not set.
func Output(cmd *exec.Cmd) ([]byte, error) {
	return output(cmd, OutputCap)
}

// CombinedOutput runs cmd and returns its standard output and error
// together, read under OutputCap like Output.
func CombinedOutput(cmd *exec.Cmd) ([]byte, error) {
	return combinedOutput(cmd, OutputCap)
}

func output(cmd *exec.Cmd, limit int64) ([]byte, error) {
	if cmd.Stdout != nil {
		return nil, errors.New("foreign: Stdout already set")
	}
	out := &capped{limit: limit, cmd: cmd}
	cmd.Stdout = out
	var tail *Tail
	if cmd.Stderr == nil {
		tail = &Tail{}
		cmd.Stderr = tail
	}
	err := cmd.Run()
	if out.flooded() {
		return nil, &Flood{Program: cmd.Path, Stream: "standard output", Cap: limit}
	}
	var ee *exec.ExitError
	if tail != nil && errors.As(err, &ee) {
		ee.Stderr = tail.Bytes()
	}
	return out.bytes(), err
}

func combinedOutput(cmd *exec.Cmd, limit int64) ([]byte, error) {
	if cmd.Stdout != nil || cmd.Stderr != nil {
		return nil, errors.New("foreign: Stdout or Stderr already set")
	}
	out := &capped{limit: limit, cmd: cmd}
	cmd.Stdout, cmd.Stderr = out, out
	err := cmd.Run()
	if out.flooded() {
		return nil, &Flood{Program: cmd.Path, Stream: "output", Cap: limit}
	}
	return out.bytes(), err
}

// errFlood stops exec's copy of a stream that went over its cap.
var errFlood = errors.New("foreign: output over its cap")

// capped keeps what a command writes up to limit bytes; the write that
// would pass it kills the command (which would otherwise block on a full
// pipe, or go on producing) and fails the copy.
type capped struct {
	mu    sync.Mutex
	buf   []byte
	limit int64
	over  bool
	cmd   *exec.Cmd
}

func (c *capped) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.over {
		return 0, errFlood
	}
	if int64(len(c.buf))+int64(len(p)) > c.limit {
		c.over = true
		// Writes come from exec's copying goroutine, started after the
		// process: cmd.Process is set.
		c.cmd.Process.Kill()
		return 0, errFlood
	}
	c.buf = append(c.buf, p...)
	return len(p), nil
}

func (c *capped) flooded() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.over
}

func (c *capped) bytes() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf
}

// Tail is an io.Writer that keeps the last TailCap bytes written to it:
// a child's standard error, to quote its last lines when it fails, at a
// bounded cost however much it prints.
type Tail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *Tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > 2*TailCap {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-TailCap:]...)
	}
	return len(p), nil
}

// Bytes returns the kept bytes (at most the last TailCap).
func (t *Tail) Bytes() []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.buf) > TailCap {
		return append([]byte(nil), t.buf[len(t.buf)-TailCap:]...)
	}
	return append([]byte(nil), t.buf...)
}

// String returns the kept text.
func (t *Tail) String() string { return string(t.Bytes()) }

// Seconds checks a time another program reports: a finite number of
// seconds, not negative. The error quotes the value as it was given.
func Seconds(v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return fmt.Errorf("%s seconds is not a time (a finite number >= 0: a clock that ran backwards, or garbled output)", strconv.FormatFloat(v, 'g', -1, 64))
	}
	return nil
}

// Count checks a count another program reports (nodes, leaves, rules):
// not negative.
func Count(n int) error {
	if n < 0 {
		return fmt.Errorf("%d is not a count (counts are >= 0)", n)
	}
	return nil
}

// Finite checks a score another program reports: a finite number.
func Finite(v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("%s is not a finite number", strconv.FormatFloat(v, 'g', -1, 64))
	}
	return nil
}

// ParseSeconds parses a time a program printed and checks it (Seconds).
func ParseSeconds(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number of seconds", s)
	}
	if err := Seconds(v); err != nil {
		return 0, err
	}
	return v, nil
}

// ParseCount parses a count a program printed and checks it (Count).
func ParseCount(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a whole number", s)
	}
	if err := Count(n); err != nil {
		return 0, err
	}
	return n, nil
}
