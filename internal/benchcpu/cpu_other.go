//go:build !unix

package benchcpu

// processCPU is unavailable here; Start then reports no CPU metric.
func processCPU() int64 { return 0 }
