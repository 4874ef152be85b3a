//go:build !unix

package sidebyside

import "os"

// peakRSS is unknown where the platform's wait reports no rusage.
func peakRSS(*os.ProcessState) uint64 { return 0 }
