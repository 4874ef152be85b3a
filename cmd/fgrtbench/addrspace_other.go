//go:build !linux

package main

// checkAddressSpace: the limit is checked on Linux only, where shared
// login nodes set it.
func checkAddressSpace() error { return nil }

const limitCheckedBeforeRuntime = false
