package memsize

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	const total = 24 << 30 // a 24 GiB machine
	cases := []struct {
		in   string
		want int64
	}{
		{"4GB", 4e9},
		{"4gb", 4e9},
		{"4G", 4e9},
		{"1500MB", 1.5e9},
		{"1.3GB", 1.3e9},
		{"512MiB", 512 << 20},
		{"2GiB", 2 << 30},
		{"64KiB", 64 << 10},
		{"1TB", 1e12},
		{"1 GB", 1e9},
		{"1000", 1000},
		{"1000B", 1000},
		{"50%", 12 << 30},
		{"100%", total},
		{"12.5%", 3 << 30},
	}
	for _, c := range cases {
		got, err := Parse(c.in, total)
		if err != nil || got != c.want {
			t.Errorf("Parse(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
}

func TestParseRefuses(t *testing.T) {
	cases := []struct {
		in    string
		total int64
		want  string
	}{
		{"", 1e9, "empty size"},
		{"4XB", 1e9, "not a size"},
		{"GB", 1e9, "not a size"},
		{"four GB", 1e9, "not a size"},
		{"0x10GB", 1e9, "not a size"},
		{"1_000MB", 1e9, "not a size"},
		{"0", 1e9, "at least 1 byte"},
		{"-4GB", 1e9, "at least 1 byte"},
		{"0.5B", 1e9, "at least 1 byte"},
		{"NaN", 1e9, "at least 1 byte"},
		{"inf", 1e9, "too large"},
		{"1e30TB", 1e9, "too large"},
		{"0%", 1e9, "above 0 and at most 100"},
		{"150%", 1e9, "above 0 and at most 100"},
		{"-5%", 1e9, "above 0 and at most 100"},
		{"half%", 1e9, "above 0 and at most 100"},
		{"50%", 0, "machine's memory is unknown"},
	}
	for _, c := range cases {
		got, err := Parse(c.in, c.total)
		if err == nil {
			t.Errorf("Parse(%q) = %d, want an error", c.in, got)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, c.want) || strings.Contains(msg, "\n") {
			t.Errorf("Parse(%q): %q, want one line with %q", c.in, msg, c.want)
		}
	}
}

func TestFormat(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{
		{512, "512 B"}, {1500, "1.50 KB"}, {1.3e9, "1.30 GB"}, {12884901888, "12.88 GB"}, {2e12, "2.00 TB"}, {999_999, "1000.00 KB"},
	} {
		if got := Format(c.n); got != c.want {
			t.Errorf("Format(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

// TestDetect reads fake /proc and cgroup files: the lower of MemTotal and
// a control group's limit wins, and "max" or a missing file is no limit.
func TestDetect(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	meminfo := write("meminfo", "MemTotal:       24684096 kB\nMemFree:        18000000 kB\nMemAvailable:   24109748 kB\n")
	cases := []struct {
		name, meminfo string
		cgroups       []string
		want          int64
		source        string
	}{
		{"no cgroup", meminfo, []string{filepath.Join(dir, "absent")}, 24684096 << 10, "MemTotal"},
		{"cgroup max", meminfo, []string{write("v2max", "max\n")}, 24684096 << 10, "MemTotal"},
		{"cgroup v1 unlimited", meminfo, []string{write("v1", "9223372036854771712\n")}, 24684096 << 10, "MemTotal"},
		{"cgroup lower", meminfo, []string{write("v2", "8589934592\n")}, 8 << 30, "control group"},
		{"cgroup higher", meminfo, []string{write("v2high", "68719476736\n")}, 24684096 << 10, "MemTotal"},
		{"no meminfo, cgroup", filepath.Join(dir, "absent"), []string{write("v2b", "4294967296\n")}, 4 << 30, "control group"},
		{"nothing", filepath.Join(dir, "absent"), nil, 0, ""},
		{"meminfo without MemTotal", write("bad", "MemFree: 1 kB\n"), nil, 0, ""},
	}
	oldInfo, oldCg := meminfoPath, cgroupPaths
	defer func() { meminfoPath, cgroupPaths = oldInfo, oldCg }()
	for _, c := range cases {
		meminfoPath, cgroupPaths = c.meminfo, c.cgroups
		m := Detect()
		if m.Bytes != c.want || !strings.Contains(m.Source, c.source) {
			t.Errorf("%s: Detect() = %+v, want %d bytes from %q", c.name, m, c.want, c.source)
		}
	}
}

func TestPeakRSS(t *testing.T) {
	dir := t.TempDir()
	old := statusPath
	defer func() { statusPath = old }()
	for _, c := range []struct {
		name, text string
		want       int64
	}{
		{"vmhwm", "Name:\tfgrtbench\nVmPeak:\t 2000000 kB\nVmHWM:\t 1134000 kB\nVmRSS:\t 900000 kB\n", 1134000 << 10},
		{"none", "Name:\tfgrtbench\n", 0},
		{"garbled", "VmHWM:\t lots kB\n", 0},
	} {
		statusPath = filepath.Join(dir, c.name)
		if err := os.WriteFile(statusPath, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := PeakRSS(); got != c.want {
			t.Errorf("%s: PeakRSS() = %d, want %d", c.name, got, c.want)
		}
	}
	statusPath = old
	if got := PeakRSS(); got <= 0 && old == "/proc/self/status" {
		if _, err := os.Stat(old); err == nil {
			t.Errorf("PeakRSS() = %d on a machine with %s", got, old)
		}
	}
}

// The files Detect and PeakRSS read are the kernel's, but a path that
// names something else (a FIFO, which would block a plain read, or a
// file larger than a status file can be) gives "unknown", at once.
func TestReadsAreBounded(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	huge := filepath.Join(dir, "huge")
	if err := os.WriteFile(huge, []byte("MemTotal: 1 kB\nVmHWM: 1 kB\n"+strings.Repeat("x", 2<<20)), 0o644); err != nil {
		t.Fatal(err)
	}
	oldInfo, oldCg, oldStatus := meminfoPath, cgroupPaths, statusPath
	defer func() { meminfoPath, cgroupPaths, statusPath = oldInfo, oldCg, oldStatus }()
	for _, p := range []string{fifo, huge} {
		done := make(chan struct{})
		go func() {
			defer close(done)
			meminfoPath, cgroupPaths, statusPath = p, []string{p}, p
			if m := Detect(); m.Bytes != 0 {
				t.Errorf("%s: Detect() = %+v, want unknown", p, m)
			}
			if got := PeakRSS(); got != 0 {
				t.Errorf("%s: PeakRSS() = %d, want 0", p, got)
			}
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: reading blocked", p)
		}
	}
}
