package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// cpuProfileEnv names the file a run writes its CPU profile to (read it
// with go tool pprof): a whole study or report profiled as it runs, which
// the packages' benchmarks cannot show (docs/development.md#profiling).
// The file must not exist: the profile never replaces anything.
const cpuProfileEnv = "FGRTBENCH_CPUPROFILE"

// startCPUProfile starts the CPU profile getenv(cpuProfileEnv) asks for
// and returns the function that ends it and closes its file; without the
// variable both do nothing.
func startCPUProfile(getenv func(string) string) (stop func() error, err error) {
	path := getenv(cpuProfileEnv)
	if path == "" {
		return func() error { return nil }, nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, fmt.Errorf("%s: %v (the profile is written only to a new file)", cpuProfileEnv, err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		os.Remove(path)
		return nil, fmt.Errorf("%s: %v", cpuProfileEnv, err)
	}
	return func() error {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			return fmt.Errorf("%s: %v", cpuProfileEnv, err)
		}
		return nil
	}, nil
}
