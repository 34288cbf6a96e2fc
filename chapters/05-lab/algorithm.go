package lab

import (
	"strconv"
	"strings"

	"github.com/ratelimit-course/ratelimit/core"
)

// Algorithm is the name of one algorithm the lab runs, spelled as the
// command line and CONTRACT.md §2 spell it. Algorithms lists every one.
type Algorithm string

// The algorithms of chapters 02–04, by their command-line names.
const (
	FixedWindow    Algorithm = "fixed-window"
	FixedWindowTTL Algorithm = "fixed-window-ttl"
	SlidingLog     Algorithm = "sliding-log"
	SlidingCounter Algorithm = "sliding-counter"
	TokenBucket    Algorithm = "token-bucket"
	GCRA           Algorithm = "gcra"
	LeakyQueue     Algorithm = "leaky-queue"
)

// Algorithms lists every algorithm the lab can run (CONTRACT.md §2), in the
// order the course introduces them.
var Algorithms = []Algorithm{
	FixedWindow,
	FixedWindowTTL,
	SlidingLog,
	SlidingCounter,
	TokenBucket,
	GCRA,
	LeakyQueue,
}

// AlgorithmNames lists the names of Algorithms as plain strings, in the same
// order, for messages and help text.
func AlgorithmNames() []string {
	names := make([]string, len(Algorithms))
	for i, a := range Algorithms {
		names[i] = string(a)
	}
	return names
}

// ParseAlgorithm turns a name read from outside (a flag, a file) into an
// Algorithm. An unknown name is a *core.ParamError for the "algo" parameter
// that lists the accepted names; the match is exact (no trimming, no case
// folding).
func ParseAlgorithm(name string) (Algorithm, error) {
	for _, a := range Algorithms {
		if string(a) == name {
			return a, nil
		}
	}
	return "", unknownAlgorithm(name)
}

// unknownAlgorithm is the error for a name that is not one of Algorithms.
func unknownAlgorithm(name string) error {
	return core.BadParam("algo", strconv.Quote(name), "one of "+strings.Join(AlgorithmNames(), ", "))
}
