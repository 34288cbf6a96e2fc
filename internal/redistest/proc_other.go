//go:build !linux

package redistest

import "os/exec"

// setParentDeath has no portable equivalent outside Linux; Main still stops
// the process on a normal exit.
func setParentDeath(cmd *exec.Cmd) {}

// alive cannot tell outside Linux, so sweep never removes anything there.
func alive(pid int) bool { return true }
