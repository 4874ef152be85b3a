//go:build !linux

package sidebyside

// resetPeakRSS cannot reset this process's high-water mark here; it
// returns no floor (0) and false, and a child's peak is reported as
// rusage gives it.
func resetPeakRSS() (floor uint64, reset bool) { return 0, false }
