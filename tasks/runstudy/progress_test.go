package runstudy

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/fgrtbench/fgrtbench/bench/study"
)

func TestLineProgressThrottlesAndEstimates(t *testing.T) {
	var buf bytes.Buffer
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := &lineProgress{w: &buf, testClock: testClock{now: func() time.Time { return clock }}}
	p.Start(100, 0)
	// 100 units, one per second: a line at the first unit, then every 5 s
	// (linePercent=10 % = 10 units is coarser than 5 s here), and at the end.
	for i := 1; i <= 100; i++ {
		clock = clock.Add(time.Second)
		var err error
		if i == 7 {
			err = errors.New("boom")
		}
		p.Done(study.Unit{}, 0, err)
	}
	p.Finish()
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if lines[0] != "fgrtbench: 100 units to run" {
		t.Errorf("first line %q", lines[0])
	}
	if want := "fgrtbench: 1/100 units (1%), elapsed 1.0s, ETA 1m39s"; lines[1] != want {
		t.Errorf("line for the first unit %q, want %q", lines[1], want)
	}
	if want := "fgrtbench: 50/100 units (50%), 1 failed, elapsed 50s, ETA 50s"; !strings.Contains(buf.String(), want+"\n") {
		t.Errorf("no line %q in\n%s", want, buf.String())
	}
	if last, want := lines[len(lines)-1], "fgrtbench: 100/100 units (100%), 1 failed, elapsed 1m40s, ETA 0s"; last != want {
		t.Errorf("last line %q, want %q", last, want)
	}
	if n := len(lines); n < 20 || n > 23 {
		t.Errorf("%d lines for 100 s of work, want one every 5 s", n)
	}
}

func TestLineProgressEveryFewPercentWhenFast(t *testing.T) {
	var buf bytes.Buffer
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := &lineProgress{w: &buf, testClock: testClock{now: func() time.Time { return clock }}}
	p.Start(1000, 0)
	for i := 0; i < 1000; i++ {
		clock = clock.Add(time.Millisecond)
		p.Done(study.Unit{}, 0, nil)
	}
	// Start line, first unit, one line per 10 % (the last one is the end).
	if n := strings.Count(buf.String(), "\n"); n != 12 {
		t.Errorf("%d lines, want 12:\n%s", n, buf.String())
	}
}

func TestShortDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		400 * time.Millisecond:          "0.4s",
		12 * time.Second:                "12s",
		185 * time.Second:               "3m05s",
		2*time.Hour + 7*time.Minute:     "2h07m",
		59*time.Minute + 59*time.Second: "59m59s",
	} {
		if got := ShortDuration(d); got != want {
			t.Errorf("ShortDuration(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestProgressEstimate(t *testing.T) {
	cases := []struct {
		name string
		c    progressCount
		el   time.Duration
		want string
	}{
		{"nothing done", progressCount{total: 4, totalWork: 40}, 0, "?"},
		{"all done", progressCount{total: 4, done: 4, totalWork: 40, doneWork: 40}, 9 * time.Second, "0s"},
		{"no work known: per unit", progressCount{total: 4, done: 1}, 2 * time.Second, "6.0s"},
		{"equal units: one estimate", progressCount{total: 4, done: 1, totalWork: 40, doneWork: 10}, 2 * time.Second, "6.0s"},
		// A tenth of the units holding most of the work: per unit 45 s,
		// per cell 1.0 s.
		{"largest first: a range", progressCount{total: 100, done: 10, totalWork: 1000, doneWork: 900}, 9 * time.Second, "1.0s–1m21s"},
		{"within a quarter: the later", progressCount{total: 10, done: 5, totalWork: 100, doneWork: 45}, 10 * time.Second, "12s"},
		{"the same once rounded", progressCount{total: 100, done: 50, totalWork: 1000, doneWork: 625}, 100 * time.Millisecond, "0.1s"},
		{"work done but not counted", progressCount{total: 10, done: 5, totalWork: 100, doneWork: 100}, 10 * time.Second, "10s"},
	}
	for _, c := range cases {
		if got := c.c.eta(c.el); got != c.want {
			t.Errorf("%s: eta %q, want %q", c.name, got, c.want)
		}
	}
}

// TestProgressRangeHoldsTheTimeLeft: units whose time is a fixed part
// plus a part per cell, finished largest first, one after the other: at
// every line the time left lies within the range shown, and the
// per-unit estimate alone would have been over four times too long early.
func TestProgressRangeHoldsTheTimeLeft(t *testing.T) {
	var cells []int64
	for i := 0; i < 10; i++ {
		cells = append(cells, 200_000) // a few large units
	}
	for i := 0; i < 90; i++ {
		cells = append(cells, 2_000)
	}
	cost := func(c int64) time.Duration { return 10*time.Millisecond + time.Duration(c)*time.Microsecond }
	var work int64
	var left time.Duration
	for _, c := range cells {
		work += c
		left += cost(c)
	}
	var buf bytes.Buffer
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := &lineProgress{w: &buf, testClock: testClock{now: func() time.Time { return clock }}}
	p.Start(len(cells), work)
	for i, c := range cells {
		clock = clock.Add(cost(c))
		left -= cost(c)
		p.Done(study.Unit{}, c, nil)
		if i == len(cells)-1 {
			break
		}
		est := p.count.eta(clock.Sub(p.start))
		lo, hi, ok := strings.Cut(est, "–")
		if !ok {
			hi = lo
		}
		parse := func(s string) time.Duration {
			d, err := time.ParseDuration(s)
			if err != nil {
				t.Fatalf("estimate %q: %v", est, err)
			}
			return d
		}
		// ShortDuration rounds to a tenth of a second or a second.
		if l, h := parse(lo), parse(hi); left < l-time.Second || left > h+time.Second {
			t.Errorf("after %d units: %v left, estimate %s", i+1, left, est)
		}
		if i == 9 {
			perUnit := time.Duration(float64(clock.Sub(p.start)) / 10 * 90)
			if perUnit < 4*left {
				t.Errorf("after the large units the per-unit estimate is %v for %v left: the case does not test the range", perUnit, left)
			}
		}
	}
}
