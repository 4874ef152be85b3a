//go:build unix

package foreign

import (
	"bytes"
	"errors"
	"math"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// finish fails the test when fn does not return within limit: a flooding
// child must be stopped, not read to its end.
func finish(t *testing.T, limit time.Duration, fn func()) {
	t.Helper()
	ch := make(chan struct{})
	go func() { fn(); close(ch) }()
	select {
	case <-ch:
	case <-time.After(limit):
		t.Fatal("still reading a child's output: it was not stopped at the cap")
	}
}

// TestOutputStopsAFlood: a child that prints without end, on its standard
// output or (read together) on its standard error, is killed at the cap
// and refused with a *Flood; what stays under the cap comes back whole.
func TestOutputStopsAFlood(t *testing.T) {
	const limit = 1 << 20
	for _, c := range []struct {
		name     string
		script   string
		combined bool
		flood    bool
		want     string
	}{
		{"stdout without end", "exec yes flood", false, true, ""},
		{"stderr without end, combined", "exec yes flood >&2", true, true, ""},
		{"a pipeline's stdout without end", "yes flood | cat", false, true, ""},
		{"just under the cap", "head -c 1048576 /dev/zero", false, false, strings.Repeat("\x00", limit)},
		{"one line", "echo 0.25 17", false, false, "0.25 17\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out []byte
			var err error
			finish(t, 20*time.Second, func() {
				cmd := exec.Command("sh", "-c", c.script)
				if c.combined {
					out, err = combinedOutput(cmd, limit)
				} else {
					out, err = output(cmd, limit)
				}
			})
			var fl *Flood
			if got := errors.As(err, &fl); got != c.flood {
				t.Fatalf("flood %v, want %v (err %v)", got, c.flood, err)
			}
			if c.flood {
				if !strings.Contains(err.Error(), "printed more than 1 MiB") || out != nil {
					t.Errorf("err %q, %d bytes kept", err, len(out))
				}
				return
			}
			if err != nil || string(out) != c.want {
				t.Errorf("got %d bytes, %v; want %d bytes", len(out), err, len(c.want))
			}
		})
	}
}

// TestOutputKeepsTheEndOfStderr: a failing child's error carries the last
// lines of its standard error, not all of it.
func TestOutputKeepsTheEndOfStderr(t *testing.T) {
	cmd := exec.Command("sh", "-c", "yes noise | head -c 1000000 >&2; echo the reason >&2; exit 3")
	_, err := Output(cmd)
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Fatalf("err %v, want exit status 3", err)
	}
	if len(ee.Stderr) > TailCap || !bytes.HasSuffix(ee.Stderr, []byte("the reason\n")) {
		t.Errorf("kept %d bytes of stderr ending %q; want at most %d ending with the reason", len(ee.Stderr), ee.Stderr[max(0, len(ee.Stderr)-20):], TailCap)
	}
}

// TestNumbers: a time is finite and >= 0, a count >= 0, a score finite;
// each refusal quotes the value as the program gave it.
func TestNumbers(t *testing.T) {
	for _, c := range []struct {
		text string
		err  string // "" accepted
	}{
		{"0.25", ""}, {"0", ""}, {"-0", ""}, {"3e2", ""},
		{"-25", "-25 seconds is not a time"}, {"-1e-9", "-1e-09 seconds is not a time"},
		{"NaN", "NaN seconds is not a time"}, {"inf", "+Inf seconds is not a time"}, {"-Inf", "-Inf seconds is not a time"},
		{"1e400", `"1e400" is not a number of seconds`}, {"fast", `"fast" is not a number of seconds`}, {"", `"" is not a number`},
	} {
		v, err := ParseSeconds(c.text)
		if c.err == "" {
			if err != nil || math.IsNaN(v) || v < 0 {
				t.Errorf("ParseSeconds(%q) = %v, %v; want it accepted", c.text, v, err)
			}
		} else if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("ParseSeconds(%q) = %v, %v; want an error with %q", c.text, v, err, c.err)
		}
	}
	for _, c := range []struct {
		text string
		err  string
	}{{"0", ""}, {"17", ""}, {"-1", "-1 is not a count"}, {"3.5", `"3.5" is not a whole number`}, {"99999999999999999999", "not a whole number"}} {
		_, err := ParseCount(c.text)
		if (err == nil) != (c.err == "") || (err != nil && !strings.Contains(err.Error(), c.err)) {
			t.Errorf("ParseCount(%q): %v; want %q", c.text, err, c.err)
		}
	}
	for _, c := range []struct {
		v  float64
		ok bool
	}{{0, true}, {-3.5, true}, {math.MaxFloat64, true}, {math.NaN(), false}, {math.Inf(1), false}, {math.Inf(-1), false}} {
		if got := Finite(c.v) == nil; got != c.ok {
			t.Errorf("Finite(%v) accepted %v, want %v", c.v, got, c.ok)
		}
	}
}
