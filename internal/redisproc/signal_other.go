//go:build !unix

package redisproc

import "os"

// No SIGSTOP here: Cluster.Pause and Cluster.Resume return an error.
var sigStop, sigCont os.Signal
