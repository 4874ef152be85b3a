//go:build cgo && linux

package main

// A build with cgo (the default where a C compiler is found: package net
// links it) starts its threads through glibc, which gives each thread that
// allocates a malloc arena of its own, reserving 64 to 128 MiB of address
// space each: a tiny study then peaked at 1.8 GB of virtual memory, and
// under an address-space limit (ulimit -v 1500000, common on shared login
// nodes) a third of the runs died in pthread_create or with Go's
// out-of-memory trace. fgrtbench allocates with Go, not malloc, so one
// arena is all it needs. The constructor runs when the program is loaded,
// before the Go runtime starts any thread.

/*
#include <malloc.h>

__attribute__((constructor)) static void fgrtbench_one_malloc_arena(void) {
#ifdef M_ARENA_MAX
	mallopt(M_ARENA_MAX, 1);
#endif
}
*/
import "C"
