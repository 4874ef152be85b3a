package cli

import (
	"context"
	"sync"

	"github.com/fgrtbench/fgrtbench/bench/external"
)

// A first SIGINT or SIGTERM cancels the command's context: it stops where
// it can and says what it kept. A second one exits the process at once
// (main's signalContext), for a command that something keeps from
// stopping. Two things here keep that exit honest: a command holds off the
// exit while it writes files that must change together (holdExit: a
// merge's results and manifest), and the line printed at the exit is the
// command's own (SecondSignal).
var exitGuard struct {
	// hold is read-locked by writes the exit must not cut; SecondSignal
	// write-locks it and never unlocks: the process is about to exit.
	hold sync.RWMutex
	mu   sync.Mutex
	note func() string // set by the command running; nil: by its name
}

// holdExit delays an exit at a second signal until release is called.
func holdExit() (release func()) {
	exitGuard.hold.RLock()
	return exitGuard.hold.RUnlock
}

// setExitNote sets what a second signal says, for the command running.
func setExitNote(note func() string) {
	exitGuard.mu.Lock()
	exitGuard.note = note
	exitGuard.mu.Unlock()
}

// SecondSignal is called by main on a second signal, just before it exits:
// it waits for the writes in progress that hold the exit off, and returns
// what to print after "fgrtbench CMD: second SIGNAL: ", worded for the
// command args run.
func SecondSignal(args []string) string {
	exitGuard.hold.Lock()
	// The run cannot wait out its workers' grace period any more: end
	// them now rather than leave them orphaned.
	external.KillWorkers()
	return exitNote(args)
}

// exitNote is SecondSignal's line, without the wait.
func exitNote(args []string) string {
	exitGuard.mu.Lock()
	note := exitGuard.note
	exitGuard.mu.Unlock()
	if note != nil {
		return note()
	}
	if len(args) > 0 {
		switch args[0] {
		case "run", "reproduce", "check":
			return "exiting now; finished units are kept, run the same command again to resume"
		}
	}
	return "exiting now"
}

// mergeCommitHook, when set (tests), runs when a merge has taken the exit
// hold, before it writes.
var mergeCommitHook func()

// mergeHold is merge's hold on the exit at a second signal: taken just
// before the merge writes, so that results.csv, the manifest and the
// artifacts are written in full, and released once they are (or failed).
type mergeHold struct {
	release func()
	written bool
}

// take is the merge's Commit: a first signal before it, or while the hold
// is taken, stops the merge with nothing written.
func (h *mergeHold) take(ctx context.Context) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	h.release = holdExit()
	if mergeCommitHook != nil {
		mergeCommitHook()
	}
	if ctx.Err() != nil {
		h.done(false)
		return ctx.Err()
	}
	return nil
}

// done releases the hold, if taken, noting whether the merge was written.
func (h *mergeHold) done(written bool) {
	if h.release != nil {
		h.written = written
		h.release()
		h.release = nil
	}
}

// note is what a second signal says during a merge into out.
func (h *mergeHold) note(out string) func() string {
	return func() string {
		if h.written {
			return "exiting now; the merge was written in full to " + out + " before the exit"
		}
		return "exiting now; nothing was merged, " + out + " is as it was"
	}
}
