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
	p := &lineProgress{w: &buf, now: func() time.Time { return clock }}
	p.Start(100)
	// 100 units, one per second: a line at the first unit, then every 5 s
	// (linePercent=10 % = 10 units is coarser than 5 s here), and at the end.
	for i := 1; i <= 100; i++ {
		clock = clock.Add(time.Second)
		var err error
		if i == 7 {
			err = errors.New("boom")
		}
		p.Done(study.Unit{}, err)
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
	p := &lineProgress{w: &buf, now: func() time.Time { return clock }}
	p.Start(1000)
	for i := 0; i < 1000; i++ {
		clock = clock.Add(time.Millisecond)
		p.Done(study.Unit{}, nil)
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
