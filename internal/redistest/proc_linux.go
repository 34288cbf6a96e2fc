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
