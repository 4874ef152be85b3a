//go:build linux && !cgo

package main

import (
	"fmt"
	"syscall"
)

// addressSpaceLimit returns the soft limit on the process's virtual
// memory (ulimit -v) in bytes, and whether there is one (RLIM_INFINITY,
// all ones, is none).
func addressSpaceLimit() (uint64, bool) {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &r); err != nil || r.Cur == ^uint64(0) {
		return 0, false
	}
	return r.Cur, true
}

// limitCheckedBeforeRuntime: this build checks the limit in main, after
// the Go runtime started.
const limitCheckedBeforeRuntime = false

// checkAddressSpace refuses, in one line, a limit on virtual memory below
// what any fgrtbench command needs (minAddressSpaceKiB), rather than a Go
// out-of-memory trace at a random point of the run. A build with cgo
// checks in startup_cgo.go's constructor instead, before the Go runtime
// starts; here the runtime has started, which it does not do under some
// limits too low (it then stops with its own message).
func checkAddressSpace() error {
	limit, ok := addressSpaceLimit()
	if !ok || limit>>10 >= minAddressSpaceKiB {
		return nil
	}
	return fmt.Errorf("the address-space limit (ulimit -v) is %d KiB; fgrtbench needs at least %d KiB of virtual memory, more for a large study (docs/large-data.md, \"Virtual memory\"): raise it with ulimit -v",
		limit>>10, uint64(minAddressSpaceKiB))
}
