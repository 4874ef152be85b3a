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

// barProgress draws a progress bar on a terminal. The bar's own estimate
// counts units, which the largest-first order makes far too long early in
// a run, so the description carries the run's estimate instead (eta).
type barProgress struct {
	w   io.Writer
	bar *progressbar.ProgressBar
	testClock
	start time.Time
	count progressCount
}

// testClock is time.Now unless a test sets now.
type testClock struct{ now func() time.Time }

func (c testClock) clock() time.Time {
	if c.now != nil {
		return c.now()
	}
	return time.Now()
}

func (p *barProgress) Start(total int, work int64) {
	p.start = p.clock()
	p.count = progressCount{total: total, totalWork: work}
	p.bar = progressbar.NewOptions(total,
		progressbar.OptionSetWriter(p.w),
		progressbar.OptionSetDescription("units"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(false),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionThrottle(100*time.Millisecond),
	)
}

func (p *barProgress) Done(u study.Unit, work int64, err error) {
	p.count.add(work, err)
	p.bar.Describe("ETA " + p.count.eta(p.clock().Sub(p.start)) + " · " + u.Dataset + " " + u.Label)
	_ = p.bar.Add(1)
}

func (p *barProgress) Finish() { _ = p.bar.Finish() }

// progressCount is how far a run is, in units and in work (training
// cells).
type progressCount struct {
	total, done, failed int
	totalWork, doneWork int64
}

func (c *progressCount) add(work int64, err error) {
	c.done++
	c.doneWork += work
	if err != nil {
		c.failed++
	}
}

// eta estimates the time left after elapsed, as a range where the two
// estimates differ. Units start largest first (bench/runner/order.go), so
// the units done are larger than those left: the time per unit so far
// overestimates what is left (at a tenth of the paper study's units, 1m29s
// for the 16 s left), and the time per cell of work underestimates it (a
// small unit costs more per cell). If a unit's time is a fixed part plus a
// part per cell, the time left lies between the two, so both are shown
// (the earlier is first) until they agree within a quarter or read the
// same once rounded; then the later alone.
func (c progressCount) eta(elapsed time.Duration) string {
	if c.done >= c.total {
		return "0s"
	}
	if c.done == 0 {
		return "?"
	}
	perUnit := time.Duration(float64(elapsed) / float64(c.done) * float64(c.total-c.done))
	if c.doneWork <= 0 || c.totalWork <= c.doneWork {
		return ShortDuration(perUnit)
	}
	perWork := time.Duration(float64(elapsed) / float64(c.doneWork) * float64(c.totalWork-c.doneWork))
	lo, hi := min(perUnit, perWork), max(perUnit, perWork)
	short, long := ShortDuration(lo), ShortDuration(hi)
	if float64(hi) <= 1.25*float64(lo) || short == long {
		return long
	}
	return short + "–" + long
}

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
	w io.Writer
	testClock

	mu         sync.Mutex
	count      progressCount
	start      time.Time
	lastLine   time.Time
	lastBucket int // done*100/total / linePercent at the last line
}

func (p *lineProgress) Start(total int, work int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.count = progressCount{total: total, totalWork: work}
	p.start = p.clock()
	p.lastLine, p.lastBucket = p.start, 0
	fmt.Fprintf(p.w, "fgrtbench: %d units to run\n", total)
}

func (p *lineProgress) Done(_ study.Unit, work int64, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.count.add(work, err)
	now := p.clock()
	c := p.count
	bucket := 0
	if c.total > 0 {
		bucket = c.done * 100 / c.total / linePercent
	}
	if c.done == 1 || c.done == c.total || now.Sub(p.lastLine) >= LineEvery || bucket > p.lastBucket {
		p.line(now)
		p.lastLine, p.lastBucket = now, bucket
	}
}

func (p *lineProgress) Finish() {}

// line prints the state, with the estimate of the time left (eta).
func (p *lineProgress) line(now time.Time) {
	c := p.count
	elapsed := now.Sub(p.start)
	pct := 100.0
	if c.total > 0 {
		pct = 100 * float64(c.done) / float64(c.total)
	}
	failed := ""
	if c.failed > 0 {
		failed = fmt.Sprintf(", %d failed", c.failed)
	}
	fmt.Fprintf(p.w, "fgrtbench: %d/%d units (%.0f%%)%s, elapsed %s, ETA %s\n", c.done, c.total, pct, failed, ShortDuration(elapsed), c.eta(elapsed))
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
