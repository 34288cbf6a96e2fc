package redistest

import (
	"os/exec"
	"syscall"
)

// setParentDeath asks the kernel to kill redis-server if the test binary dies
// without running Main's cleanup (a -timeout panic, a kill).
func setParentDeath(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// alive reports whether process pid exists (signal 0 checks without sending).
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
