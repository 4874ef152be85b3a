//go:build unix

package external

import (
	"errors"
	"os/exec"
	"syscall"
)

// ownGroup starts the command in a process group of its own and makes
// cancelling it (timeout, interrupted run) kill the whole group: a wrapper
// script's children (sh running a learner without exec) die with it
// instead of running on and holding the output pipes open.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return killGroup(cmd) }
}

// killGroup kills every process left in the command's group. It is called
// on cancellation and again after the command exits, for children it left
// behind; a group with no processes left is not an error.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}
