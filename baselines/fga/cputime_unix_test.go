//go:build unix

package fga

import (
	"syscall"
	"time"
)

// cpuTime is the user plus system CPU time this process has used so far.
func cpuTime() time.Duration {
	var usage syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &usage) != nil {
		return 0
	}
	return time.Duration(usage.Utime.Nano()) + time.Duration(usage.Stime.Nano())
}
