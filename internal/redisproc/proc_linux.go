package redisproc

import (
	"os/exec"
	"syscall"
)

// setParentDeath asks the kernel to kill redis-server if the process that
// started it dies first (a panic, a -timeout, a kill).
func setParentDeath(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// Alive reports whether process pid exists (signal 0 checks without sending).
func Alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
