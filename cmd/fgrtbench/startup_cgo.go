//go:build cgo && linux

package main

// A build with cgo (the default where a C compiler is found: package net
// links it) starts its threads through glibc, and two of glibc's defaults
// cost address space that fgrtbench never uses: every thread that
// allocates got a malloc arena of its own, reserving 64 to 128 MiB each,
// and every thread an 8 MiB stack. A tiny study then peaked at 1.8 GB of
// virtual memory, and under an address-space limit (ulimit -v 1500000,
// common on shared login nodes) runs died at random in pthread_create or
// with Go's out-of-memory trace. fgrtbench allocates with Go, not malloc:
// one arena is enough, and 2 MiB is ample for a thread's system stack
// (Go's goroutines have their own). The constructor runs when the program
// is loaded, before the Go runtime starts, so it is also where a limit too
// low for the runtime's own reservations is refused in one line: the
// runtime would otherwise die before main with its own trace
// (docs/large-data.md#virtual-memory).

/*
#define _GNU_SOURCE
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

#define FGRTBENCH_MIN_ADDRESS_SPACE_KIB 1400000

__attribute__((constructor)) static void fgrtbench_startup(void) {
	struct rlimit r;
	if (getrlimit(RLIMIT_AS, &r) == 0 && r.rlim_cur != RLIM_INFINITY &&
	    r.rlim_cur / 1024 < FGRTBENCH_MIN_ADDRESS_SPACE_KIB) {
		// The words of addrspace_linux.go's check (builds without cgo).
		fprintf(stderr, "fgrtbench: the address-space limit (ulimit -v) is %llu KiB; fgrtbench needs at least %llu KiB of virtual memory, more for a large study (docs/large-data.md, \"Virtual memory\"): raise it with ulimit -v\n",
			(unsigned long long)(r.rlim_cur / 1024), (unsigned long long)FGRTBENCH_MIN_ADDRESS_SPACE_KIB);
		_exit(1);
	}
#ifdef M_ARENA_MAX
	mallopt(M_ARENA_MAX, 1);
#endif
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 18))
	pthread_attr_t attr;
	if (pthread_getattr_default_np(&attr) == 0) {
		size_t size;
		if (pthread_attr_getstacksize(&attr, &size) == 0 && size > (2 << 20)) {
			pthread_attr_setstacksize(&attr, 2 << 20);
			pthread_setattr_default_np(&attr);
		}
		pthread_attr_destroy(&attr);
	}
#endif
}
*/
import "C"

// checkAddressSpace: the constructor has checked the limit, before the Go
// runtime started.
func checkAddressSpace() error { return nil }

// limitCheckedBeforeRuntime: this build refuses a limit too low before the
// Go runtime starts (the [startupcheck] condition of the script tests).
const limitCheckedBeforeRuntime = true

// The constructor's minimum is the Go check's: a compile error otherwise.
const (
	_ = uint64(minAddressSpaceKiB - C.FGRTBENCH_MIN_ADDRESS_SPACE_KIB)
	_ = uint64(C.FGRTBENCH_MIN_ADDRESS_SPACE_KIB - minAddressSpaceKiB)
)
