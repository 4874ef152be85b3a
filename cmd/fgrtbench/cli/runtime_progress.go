package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/fgrtbench/fgrtbench/timing/paperruntime"
)

// runtimeProgress shows how far the runtime study is, in place of a line
// per (size, method) pair (./run.sh used to print 162 of them). On a
// terminal it redraws one line per study; elsewhere (logs, CI) it prints a
// line at most every lineEvery, as the runner's lineProgress does, and one
// when each study ends. The pairs' fit times grow with their size, so no
// estimate of the time left is given.
type runtimeProgress struct {
	w        io.Writer
	terminal bool
	now      func() time.Time // time.Now unless a test sets it

	// prev is when the last pair finished (or the study began): a study
	// starts when the one before it ended.
	prev      time.Time
	study     string
	start     time.Time
	lastLine  time.Time
	lastWidth int
}

func (p *runtimeProgress) clock() time.Time {
	if p.now != nil {
		return p.now()
	}
	return time.Now()
}

// Step is the paperruntime.Options.Progress callback. The study calls it from
// one goroutine.
func (p *runtimeProgress) Step(s paperruntime.Step) {
	now := p.clock()
	if p.prev.IsZero() {
		p.prev = now
	}
	if s.Study != p.study {
		p.study, p.start, p.lastLine = s.Study, p.prev, p.prev
	}
	p.prev = now
	text := fmt.Sprintf("runtime: %s %d/%d (%.0f%%), elapsed %s, last %s n=%d d=%d",
		s.Study, s.Done, s.Total, 100*float64(s.Done)/float64(max(s.Total, 1)), shortDuration(now.Sub(p.start)), s.Method, s.N, s.D)
	end := s.Done >= s.Total
	if p.terminal {
		pad := ""
		if n := p.lastWidth - len(text); n > 0 {
			pad = fmt.Sprintf("%*s", n, "")
		}
		fmt.Fprintf(p.w, "\r%s%s", text, pad)
		p.lastWidth = len(text)
		if end {
			fmt.Fprintln(p.w)
			p.lastWidth = 0
		}
		return
	}
	if end || now.Sub(p.lastLine) >= lineEvery {
		fmt.Fprintln(p.w, text)
		p.lastLine = now
	}
}
