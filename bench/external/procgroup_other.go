//go:build !unix

package external

import "os/exec"

// ownGroup leaves the command as exec starts it: without process groups,
// cancelling kills the command's own process only (docs/external.md).
func ownGroup(cmd *exec.Cmd) {}

// killGroup has no group to kill.
func killGroup(cmd *exec.Cmd) error { return nil }
