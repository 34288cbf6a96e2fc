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
	// FixedWindow is chapter 02's window aligned to multiples of W.
	FixedWindow Algorithm = "fixed-window"
	// FixedWindowTTL is chapter 02's window that opens at a key's first
	// request and expires W later.
	FixedWindowTTL Algorithm = "fixed-window-ttl"
	// SlidingLog is chapter 03's log of every allowed request.
	SlidingLog Algorithm = "sliding-log"
	// SlidingCounter is chapter 03's weighted estimate over counters.
	SlidingCounter Algorithm = "sliding-counter"
	// TokenBucket is chapter 04's bucket of tokens refilled at R.
	TokenBucket Algorithm = "token-bucket"
	// GCRA is chapter 04's generic cell rate algorithm: one instant, TAT.
	GCRA Algorithm = "gcra"
	// LeakyQueue is chapter 04's leaky bucket as a queue that sends
	// requests upstream T apart.
	LeakyQueue Algorithm = "leaky-queue"
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
