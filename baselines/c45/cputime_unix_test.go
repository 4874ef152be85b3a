//go:build unix

package c45

import "syscall"

// processCPU returns the process's user+system CPU time in nanoseconds, so
// benchmarks can report CPU time per op on a shared, oversubscribed machine
// where wall time overstates the cost.
func processCPU() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
