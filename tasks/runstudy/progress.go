package runstudy

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/fgrtbench/fgrtbench/bench/runner"
	"github.com/fgrtbench/fgrtbench/bench/study"
)

// Progress shows a run's units on w as they finish: a bar redrawn in
// place on a terminal, plain lines now and then elsewhere.
func Progress(w io.Writer, terminal bool) runner.Progress {
	if terminal {
		return &barProgress{w: w}
	}
	return &lineProgress{w: w}
}

// barProgress draws a progress bar on a terminal.
type barProgress struct {
	w   io.Writer
	bar *progressbar.ProgressBar
}

func (p *barProgress) Start(total int) {
	p.bar = progressbar.NewOptions(total,
		progressbar.OptionSetWriter(p.w),
		progressbar.OptionSetDescription("units"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionThrottle(100*time.Millisecond),
	)
}

func (p *barProgress) Done(u study.Unit, err error) {
	p.bar.Describe(u.Dataset + " " + u.Label)
	_ = p.bar.Add(1)
}

func (p *barProgress) Finish() { _ = p.bar.Finish() }

// Progress lines for a stderr that is not a terminal (Slurm logs, CI): a
// bar redrawn with carriage returns would be noise there, so lineProgress
// prints a plain line now and then instead.
const (
	LineEvery   = 5 * time.Second // at most this long without a line
	linePercent = 10              // and a line at every crossing of this many percent
)

// lineProgress prints "units done/total (p%), elapsed, ETA" lines to w:
// at the first finished unit, whenever LineEvery has passed or another
// linePercent of the units is done since the last line, and at the end.
type lineProgress struct {
	w   io.Writer
	now func() time.Time // time.Now unless a test sets it

	mu         sync.Mutex
	total      int
	done       int
	failed     int
	start      time.Time
	lastLine   time.Time
	lastBucket int // done*100/total / linePercent at the last line
}

func (p *lineProgress) clock() time.Time {
	if p.now != nil {
		return p.now()
	}
	return time.Now()
}

func (p *lineProgress) Start(total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total, p.done, p.failed = total, 0, 0
	p.start = p.clock()
	p.lastLine, p.lastBucket = p.start, 0
	fmt.Fprintf(p.w, "fgrtbench: %d units to run\n", total)
}

func (p *lineProgress) Done(_ study.Unit, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	if err != nil {
		p.failed++
	}
	now := p.clock()
	bucket := 0
	if p.total > 0 {
		bucket = p.done * 100 / p.total / linePercent
	}
	if p.done == 1 || p.done == p.total || now.Sub(p.lastLine) >= LineEvery || bucket > p.lastBucket {
		p.line(now)
		p.lastLine, p.lastBucket = now, bucket
	}
}

func (p *lineProgress) Finish() {}

// line prints the state; the estimate assumes the remaining units take as
// long on average as the finished ones.
func (p *lineProgress) line(now time.Time) {
	elapsed := now.Sub(p.start)
	pct := 100.0
	if p.total > 0 {
		pct = 100 * float64(p.done) / float64(p.total)
	}
	eta := "0s"
	if p.done < p.total {
		remaining := time.Duration(float64(elapsed) / float64(p.done) * float64(p.total-p.done))
		eta = ShortDuration(remaining)
	}
	failed := ""
	if p.failed > 0 {
		failed = fmt.Sprintf(", %d failed", p.failed)
	}
	fmt.Fprintf(p.w, "fgrtbench: %d/%d units (%.0f%%)%s, elapsed %s, ETA %s\n", p.done, p.total, pct, failed, ShortDuration(elapsed), eta)
}

// ShortDuration rounds a duration for a log line: 0.4s, 12s, 3m05s, 2h07m.
func ShortDuration(d time.Duration) string {
	switch {
	case d < 10*time.Second:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Round(time.Second).Seconds()))
	case d < time.Hour:
		d = d.Round(time.Second)
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	default:
		d = d.Round(time.Minute)
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	}
}
