//go:build !unix

package redistest

import "os"

// No SIGSTOP here: Cluster.Pause and Cluster.Resume return an error.
var sigStop, sigCont os.Signal
