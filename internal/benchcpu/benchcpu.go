// Package benchcpu reports process CPU time per operation in benchmarks.
// The project's benchmark machine is shared, so wall time (ns/op) overstates
// a single-threaded cost whenever other processes compete for the cores;
// with -cpu 1 the CPU time per op is the steadier number to compare.
package benchcpu

import "testing"

// Start resets the benchmark timer, turns on allocation reporting and
// returns a function that stops the timer and reports the process's
// user+system CPU time per op as "cpu-ns/op" (it includes GC work). Use it
// as `defer benchcpu.Start(b)()` after the setup of the benchmark.
func Start(b *testing.B) func() {
	b.ReportAllocs()
	b.ResetTimer()
	c0 := processCPU()
	return func() {
		b.StopTimer()
		if d := processCPU() - c0; d > 0 && b.N > 0 {
			b.ReportMetric(float64(d)/float64(b.N), "cpu-ns/op")
		}
	}
}
