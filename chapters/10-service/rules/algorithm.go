package rules

import (
	"fmt"

	"github.com/ratelimit-course/ratelimit/core"
)

// Algorithm is how a rule counts: the course's field `algorithm` in a
// rules file. The default is the reference's only one, the fixed window.
type Algorithm string

// The algorithms a rule may name, each a chapter's limiter.
const (
	AlgoFixedWindow    Algorithm = "fixed-window"    // chapter 02
	AlgoSlidingCounter Algorithm = "sliding-counter" // chapter 03
	AlgoTokenBucket    Algorithm = "token-bucket"    // chapter 04
	AlgoGCRA           Algorithm = "gcra"            // chapter 04
)

// parseAlgorithm reads a rules file's algorithm name.
func parseAlgorithm(s string) (Algorithm, error) {
	switch a := Algorithm(s); a {
	case AlgoFixedWindow, AlgoSlidingCounter, AlgoTokenBucket, AlgoGCRA:
		return a, nil
	}
	return "", fmt.Errorf("%q: accepted fixed-window, sliding-counter, token-bucket or gcra", s)
}

// FailureMode is what a domain answers while the store cannot decide:
// FailOpen admits (OK, counted nowhere), FailClosed refuses (gRPC
// UNAVAILABLE, HTTP 503). It names the domain's class in chapter 06's Guard.
type FailureMode string

// The two failure modes.
const (
	FailOpen   FailureMode = "open"
	FailClosed FailureMode = "closed"
)

// ParseFailureMode reads a failure mode as a flag or a rules file writes it.
func ParseFailureMode(s string) (FailureMode, error) {
	switch m := FailureMode(s); m {
	case FailOpen, FailClosed:
		return m, nil
	}
	return "", core.BadParam("failure-mode", s, "open or closed")
}
