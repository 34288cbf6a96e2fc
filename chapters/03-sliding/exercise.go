//go:build exercise

package sliding

// This file is your exercise. Built with `-tags exercise` (make exercise
// CH=03), it replaces log.go and counter.go, and the chapter's tests run
// against your code. Config, Validate, the State types and the Keyed
// wrappers live in config.go and are shared with the reference
// implementation.
//
// Fill in the TODOs until `make exercise CH=03` passes. The rules are in the
// README and in CONTRACT.md §2 (`sliding-log`, `sliding-counter`).

import (
	"fmt"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// todo is what every unfinished constructor returns, so the tests fail with
// a pointer to the place to work instead of a nil-pointer panic.
func todo(fn string) error {
	return fmt.Errorf("exercise: implement %s in chapters/03-sliding/exercise.go — see README", fn)
}

// Log is the sliding log: the times of the allowed requests in (t-W, t].
type Log struct {
	// TODO: a ring of int64 nanoseconds, at most L entries, 0 allocs per
	// decision once it has grown.
}

// NewLog returns one key's sliding log.
func NewLog(c Config) (*Log, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	// TODO
	return nil, todo("NewLog")
}

// MaxCost is L.
func (l *Log) MaxCost() int {
	// TODO
	return 0
}

// AllowN drops entries whose age is W or more, then allows iff kept + cost
// <= L and logs the request (cost times). On a rejection RetryAfter is when
// enough of the oldest entries will have aged out. A now earlier than the
// latest seen counts as the latest, but RetryAfter is still measured from
// the caller's now (core.Algorithm).
func (l *Log) AllowN(now time.Time, cost int) core.Decision {
	// TODO
	return core.Decision{}
}

// State copies the kept timestamps, oldest first.
func (l *Log) State() LogState {
	// TODO
	return LogState{}
}

// Counter is the sliding-window counter with N sub-windows (N = 1: previous
// and current window).
type Counter struct {
	// TODO: the current sub-window id and N+1 counts.
}

// NewCounter returns one key's sliding counter.
func NewCounter(c Config) (*Counter, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	// TODO
	return nil, todo("NewCounter")
}

// MaxCost is L.
func (c *Counter) MaxCost() int {
	// TODO
	return 0
}

// Estimate is oldest*(S-e)/S + the N newer counts, at now, changing nothing.
func (c *Counter) Estimate(now time.Time) float64 {
	// TODO
	return 0
}

// AllowN allows iff estimate + cost - 1 < L (a tie rejects), counting only
// allowed requests. RetryAfter solves that inequality for the first instant
// at which it holds, possibly in a later sub-window.
func (c *Counter) AllowN(now time.Time, cost int) core.Decision {
	// TODO
	return core.Decision{}
}

// State returns the counts as of the last decision.
func (c *Counter) State() CounterState {
	// TODO
	return CounterState{}
}
