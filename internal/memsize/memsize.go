// Package memsize reads and writes amounts of memory as a user gives them
// ("4GB", "1500MB", "512MiB", "50%") and finds how much memory the machine
// gives this process: the two things a memory budget needs.
package memsize

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"github.com/fgrtbench/fgrtbench/internal/safefile"
	"math"
	"strconv"
	"strings"
)

// units are the suffixes Parse accepts, longest first so that "MiB" is not
// read as "B". Decimal units are powers of 1000 (as /usr/bin/time and the
// docs' tables print GB), binary ones powers of 1024.
var units = []struct {
	suffix string
	bytes  int64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40},
	{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12},
	{"k", 1e3}, {"m", 1e6}, {"g", 1e9}, {"t", 1e12},
	{"b", 1},
}

// Parse reads an amount of memory: a number with a unit (B, KB, MB, GB,
// TB, their binary KiB, MiB, GiB, TiB, or K, M, G, T for the decimal
// ones; case does not matter), or a percentage of total ("50%", above 0
// and at most 100). A bare number is bytes. The result is at least 1 byte;
// the error is one line that says what was wrong.
func Parse(s string, total int64) (int64, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, errors.New("empty size: give one such as 4GB, 1500MB or 50%")
	}
	if pct, ok := strings.CutSuffix(t, "%"); ok {
		p, err := strconv.ParseFloat(strings.TrimSpace(pct), 64)
		if err != nil || math.IsNaN(p) || p <= 0 || p > 100 {
			return 0, fmt.Errorf("%q: a percentage of the machine's memory must be above 0 and at most 100", s)
		}
		if total <= 0 {
			return 0, fmt.Errorf("%q: the machine's memory is unknown, so give the size in bytes (such as 4GB)", s)
		}
		return max(1, int64(float64(total)*p/100)), nil
	}
	lower := strings.ToLower(t)
	mult := int64(1)
	for _, u := range units {
		if num, ok := strings.CutSuffix(lower, u.suffix); ok {
			lower, mult = strings.TrimSpace(num), u.bytes
			break
		}
	}
	v, err := strconv.ParseFloat(lower, 64)
	if err != nil || strings.ContainsAny(lower, "xp_") { // no hex floats, no 1_000
		return 0, fmt.Errorf("%q: not a size (give a number and a unit: B, KB, MB, GB, TB, KiB, MiB, GiB, TiB; or a percentage such as 50%%)", s)
	}
	bytes := v * float64(mult)
	switch {
	case math.IsNaN(bytes) || bytes < 1:
		return 0, fmt.Errorf("%q: a memory budget must be at least 1 byte", s)
	case bytes >= math.MaxInt64:
		return 0, fmt.Errorf("%q: too large a size", s)
	}
	return int64(bytes), nil
}

// Format writes n bytes in the largest decimal unit that leaves a number
// of at least 1, with two decimals above bytes: "1.30 GB", "512 B".
func Format(n int64) string {
	switch {
	case n >= 1e12:
		return fmt.Sprintf("%.2f TB", float64(n)/1e12)
	case n >= 1e9:
		return fmt.Sprintf("%.2f GB", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.2f MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.2f KB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d B", n)
}

// Machine is the memory this process may use, and where that figure came
// from.
type Machine struct {
	Bytes  int64
	Source string // "MemTotal of /proc/meminfo", "cgroup memory.max", ...
}

// Files Detect reads, variables so that tests can point them elsewhere.
var (
	meminfoPath = "/proc/meminfo"
	cgroupPaths = []string{
		"/sys/fs/cgroup/memory.max",                   // cgroup v2
		"/sys/fs/cgroup/memory/memory.limit_in_bytes", // cgroup v1
	}
)

// Detect returns the machine's total memory (MemTotal), or the limit of
// the process's control group when that is lower (a container's limit:
// the kernel kills a process above it whatever the machine has). Total
// rather than MemAvailable: what is available moves with the page cache
// and with every other process, so a default drawn from it would differ
// from run to run of the same command; a share of the total is a fixed
// figure a user can reason about. Bytes is 0 when nothing could be read.
func Detect() Machine {
	var m Machine
	if total, err := memTotal(meminfoPath); err == nil {
		m = Machine{Bytes: total, Source: "MemTotal of " + meminfoPath}
	}
	for _, p := range cgroupPaths {
		limit, ok := cgroupLimit(p)
		if ok && (m.Bytes == 0 || limit < m.Bytes) {
			m = Machine{Bytes: limit, Source: "the control group's limit " + p}
		}
	}
	return m
}

// memTotal reads MemTotal (kB) from a meminfo file.
func memTotal(path string) (int64, error) {
	data, err := safefile.ReadFile(path, safefile.SmallCap)
	if err != nil {
		return 0, err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil || kb <= 0 {
				return 0, fmt.Errorf("%s: MemTotal %q", path, f[1])
			}
			return kb << 10, nil
		}
	}
	return 0, fmt.Errorf("%s: no MemTotal", path)
}

// cgroupLimit reads a control group's memory limit in bytes; false for
// none ("max", cgroup v1's huge "unlimited" value, a missing file).
func cgroupLimit(path string) (int64, bool) {
	data, err := safefile.ReadFile(path, safefile.SmallCap)
	if err != nil {
		return 0, false
	}
	v, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	if err != nil || v <= 0 || v >= 1<<62 {
		return 0, false
	}
	return v, true
}

// statusPath is the file PeakRSS reads (a variable for tests).
var statusPath = "/proc/self/status"

// PeakRSS is the largest resident memory this process has had so far
// (VmHWM of /proc/self/status), in bytes; 0 when it cannot be read.
func PeakRSS() int64 {
	data, err := safefile.ReadFile(statusPath, safefile.SmallCap)
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "VmHWM:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil || kb < 0 {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}
