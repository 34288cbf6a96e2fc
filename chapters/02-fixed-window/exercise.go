//go:build exercise

package fixedwindow

// This file is your exercise. Built with `-tags exercise` (make exercise
// CH=02), it replaces fixedwindow.go, and the chapter's tests run against
// your code. Config, Validate, State and the Keyed wrappers live in
// config.go and are shared with the reference implementation.
//
// Fill in the TODOs until `make exercise CH=02` passes. The rules are in the
// README and in CONTRACT.md §2 (`fixed-window`, `fixed-window-ttl`).

import (
	"fmt"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// todo is what every unfinished constructor returns, so the tests fail with
// a pointer to the place to work instead of a nil-pointer panic.
func todo(fn string) error {
	return fmt.Errorf("exercise: implement %s in chapters/02-fixed-window/exercise.go — see README", fn)
}

// Window is the aligned fixed window: window k is [kW, (k+1)W).
type Window struct {
	// TODO: what must one key remember? (hint: which window, and its count)
}

// New returns one key's aligned fixed window.
func New(c Config) (*Window, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	// TODO: build the Window from c.
	return nil, todo("New")
}

// MaxCost is L.
func (w *Window) MaxCost() int {
	// TODO
	return 0
}

// AllowN decides a request of the given cost at now. Count rejected requests
// too (as INCR does); on a rejection set RetryAfter to the time until the
// next window starts. A cost outside [1, L] is rejected with RetryAfter 0 and
// changes nothing. A now earlier than the latest seen counts as the latest,
// but RetryAfter is still measured from the caller's now (core.Algorithm).
func (w *Window) AllowN(now time.Time, cost int) core.Decision {
	// TODO
	return core.Decision{}
}

// State returns the counter as of the last decision.
func (w *Window) State() State {
	// TODO
	return State{}
}

// TTLWindow is the fixed window that opens at a key's first request after
// the previous window expired, and lasts W.
type TTLWindow struct {
	// TODO
}

// NewTTL returns one key's first-hit fixed window.
func NewTTL(c Config) (*TTLWindow, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	// TODO: build the TTLWindow from c.
	return nil, todo("NewTTL")
}

// MaxCost is L.
func (w *TTLWindow) MaxCost() int {
	// TODO
	return 0
}

// AllowN decides a request of the given cost at now.
func (w *TTLWindow) AllowN(now time.Time, cost int) core.Decision {
	// TODO
	return core.Decision{}
}

// State returns the counter as of the last decision: WindowID counts the
// windows opened so far, Start is when the current one opened.
func (w *TTLWindow) State() State {
	// TODO
	return State{}
}
