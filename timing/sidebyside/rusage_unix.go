//go:build unix

package sidebyside

import (
	"os"
	"runtime"
	"syscall"
)

// peakRSS is the peak resident memory of a finished process, from the
// rusage its wait returned (kilobytes on Linux, bytes on macOS).
func peakRSS(ps *os.ProcessState) uint64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru.Maxrss <= 0 {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return uint64(ru.Maxrss)
	}
	return uint64(ru.Maxrss) * 1024
}
