//go:build linux

package sidebyside

import (
	"bufio"
	"bytes"
	"os"
	"runtime/debug"
	"strconv"
)

// resetPeakRSS prepares this process for starting a child whose peak
// memory is to be measured, and returns this process's peak after it.
//
// A child's peak from rusage includes this process's own: Go starts
// children with vfork (CLONE_VM), and the kernel records the memory's
// high-water mark at the child's exec, when that memory is still this
// process's. A harness that had just written a 190 MB file or fitted
// trees on 10^5 rows thus reported its own peak as the child's. The
// high-water mark is reset here to what is resident once the collector
// has returned its free memory (writing 5 to /proc/self/clear_refs), so
// the child inherits a floor of a few tens of MB.
func resetPeakRSS() (floor uint64, reset bool) {
	debug.FreeOSMemory()
	// Opened for writing only: the kernel's file is there or the reset is
	// not available; nothing is created or truncated.
	if f, err := os.OpenFile("/proc/self/clear_refs", os.O_WRONLY, 0); err == nil {
		_, werr := f.Write([]byte("5"))
		reset = f.Close() == nil && werr == nil
	}
	return selfPeakRSS(), reset
}

// selfPeakRSS is this process's high-water resident memory (VmHWM), in
// bytes; 0 when unknown.
func selfPeakRSS() uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if rest, ok := bytes.CutPrefix(sc.Bytes(), []byte("VmHWM:")); ok {
			kb, err := strconv.ParseUint(string(bytes.TrimSuffix(bytes.TrimSpace(rest), []byte(" kB"))), 10, 64)
			if err != nil {
				return 0
			}
			return kb * 1024
		}
	}
	return 0
}
