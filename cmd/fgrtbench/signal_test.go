//go:build unix

package main

import (
	"bytes"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe to write from the signal goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestSecondSignalExitsAtOnce: the first SIGTERM cancels the context (a
// graceful stop), the second exits at once (within 3 s on a loaded machine) with status 143 and one
// line saying the results are resumable.
func TestSecondSignalExitsAtOnce(t *testing.T) {
	var stderr syncBuffer
	exited := make(chan int, 1)
	ctx, stop := signalContext(&stderr, func(code int) { exited <- code }, func() string { return "exiting now; finished units are kept, run the same command again to resume" })
	defer stop()

	syscall.Kill(syscall.Getpid(), syscall.SIGTERM)
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the first signal did not cancel the run")
	}
	select {
	case code := <-exited:
		t.Fatalf("the first signal exited (%d); it must let the run stop gracefully", code)
	case <-time.After(100 * time.Millisecond):
	}
	start := time.Now()
	syscall.Kill(syscall.Getpid(), syscall.SIGTERM)
	select {
	case code := <-exited:
		if code != 143 {
			t.Errorf("exit status %d, want 143", code)
		}
		// "At once" against a run that would go on for minutes: the
		// bound leaves a loaded CI machine room to schedule the
		// signal's goroutine.
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("second signal took %v to exit", d)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the second signal did not exit")
	}
	if e := stderr.String(); strings.Count(e, "\n") != 1 || !strings.Contains(e, "resume") {
		t.Errorf("stderr %q", e)
	}
}
