//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// killTreeOnCancel makes cmd the leader of a process group of its own and,
// when its context is done, kills the group: go build and the compilers
// and linker it started, which would otherwise go on writing into a
// folder being removed.
func killTreeOnCancel(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
