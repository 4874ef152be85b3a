//go:build unix

package fgrt

import (
	"syscall"
	"time"
)

// processCPU returns the process's user+system CPU time. Benchmarks report
// it per op next to wall time because the benchmark machine is shared.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
