//go:build unix

package redisproc

import (
	"os"
	"syscall"
)

// The signals that freeze and thaw a node (Cluster.Pause, Cluster.Resume).
var sigStop, sigCont os.Signal = syscall.SIGSTOP, syscall.SIGCONT
