//go:build !linux

package redistest

import "os/exec"

// setParentDeath has no portable equivalent outside Linux; Main still stops
// the process on a normal exit.
func setParentDeath(cmd *exec.Cmd) {}
