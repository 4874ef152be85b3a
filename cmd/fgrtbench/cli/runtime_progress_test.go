package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/fgrtbench/fgrtbench/timing/paperruntime"
)

// TestRuntimeProgress: instead of one line per (size, method) pair, a log
// gets a line every lineEvery and one at the end of each study, and a
// terminal one redrawn line per study.
func TestRuntimeProgress(t *testing.T) {
	// Two studies: 12 pairs one second apart, then 2 pairs.
	steps := func(p *runtimeProgress, clock *time.Time) {
		for i := 1; i <= 12; i++ {
			*clock = clock.Add(time.Second)
			p.Step(paperruntime.Step{Study: "samples", Method: "fgrt", N: 100 * i, D: 10, Done: i, Total: 12})
		}
		for i := 1; i <= 2; i++ {
			*clock = clock.Add(time.Second)
			p.Step(paperruntime.Step{Study: "real/wine", Method: "cart", N: 178, D: 13, Done: i, Total: 2})
		}
	}
	cases := []struct {
		name     string
		terminal bool
		want     []string // the lines, after carriage-return redraws
	}{
		{"log", false, []string{
			"runtime: samples 5/12 (42%), elapsed 5.0s, last fgrt n=500 d=10",
			"runtime: samples 10/12 (83%), elapsed 10s, last fgrt n=1000 d=10",
			"runtime: samples 12/12 (100%), elapsed 12s, last fgrt n=1200 d=10",
			"runtime: real/wine 2/2 (100%), elapsed 2.0s, last cart n=178 d=13",
		}},
		{"terminal", true, []string{
			"runtime: samples 12/12 (100%), elapsed 12s, last fgrt n=1200 d=10",
			"runtime: real/wine 2/2 (100%), elapsed 2.0s, last cart n=178 d=13",
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			p := &runtimeProgress{w: &buf, terminal: c.terminal, now: func() time.Time { return clock }, prev: clock}
			steps(p, &clock)
			if c.terminal != strings.Contains(buf.String(), "\r") {
				t.Errorf("carriage returns on a terminal only:\n%q", buf.String())
			}
			var got []string
			for _, line := range strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n") {
				// What a terminal shows: the text after the last redraw,
				// without the padding that erased a longer line.
				got = append(got, strings.TrimRight(line[strings.LastIndex(line, "\r")+1:], " "))
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("lines:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}
