//go:build exercise

package fixedwindow

// This file is your exercise. Built with `-tags exercise` (make exercise
// CH=02), it replaces fixedwindow.go, and the chapter's tests run against
// your code. Config, Validate, State and the Keyed wrappers (NewLimiter,
// NewTTLLimiter) live in config.go and are already done: New and NewTTL
// call Validate for you.
//
// Fill in the TODOs until `make exercise CH=02` passes: Window first (its
// tests: TestE1_CrossBoundarySpike/fixed-window, then ExampleWindow), then
// TTLWindow. The README walks through both rules; CONTRACT.md §2 has them
// in one line each (`fixed-window`, `fixed-window-ttl`).
//
// Arithmetic: take t := now.UnixNano() and work in int64 nanoseconds.
// Validate keeps W within 1 ns..1e18 ns and the tests keep instants between
// 1970 and 2200, so t >= 0, plain t/W is floor(t/W), and adding one window
// to a time cannot overflow. No special cases are needed.

import (
	"fmt"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// todo is what every unfinished constructor returns, so the tests fail with
// a pointer to the place to work instead of a nil-pointer panic. Delete it
// when you are done.
func todo(fn string) error {
	return fmt.Errorf("exercise: implement %s in chapters/02-fixed-window/exercise.go — see the chapter README", fn)
}

// Window is the aligned fixed window: window k is [kW, (k+1)W), k = floor(t/W).
type Window struct {
	// TODO: what must one key remember? W (as int64 ns) and L from the
	// Config, the id k of the window being counted, and its count.
}

// New returns one key's aligned fixed window.
func New(c Config) (*Window, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	// TODO: build the Window from c and return it with a nil error.
	return nil, todo("New")
}

// MaxCost is L.
func (w *Window) MaxCost() int {
	// TODO
	return 0
}

// AllowN decides a request of the given cost at now:
//
//  1. k := t/W, but never below the window already counted (a late request,
//     stamped before the latest one seen, counts in the latest window).
//  2. If k is a new window, its count starts at 0.
//  3. A cost outside [1, L]: return Decision{Remaining: max(0, L-count)}
//     (count of the window from step 2) and change nothing.
//  4. Remember k, add cost to the count (rejected requests count too, as
//     INCR does), and allow iff count <= L: Remaining = L - count.
//  5. On a rejection RetryAfter is the time from the caller's t to the start
//     of window k+1, (k+1)*W - t.
func (w *Window) AllowN(now time.Time, cost int) core.Decision {
	// TODO
	return core.Decision{}
}

// State returns the counter as of the last decision: WindowID is k, Start
// is time.Unix(0, k*W), Count the count (0, 0 and 0 for a key never seen).
func (w *Window) State() State {
	// TODO
	return State{}
}

// TTLWindow is the fixed window that opens at a key's first request after
// the previous window expired, and lasts W: [start, start+W).
type TTLWindow struct {
	// TODO: W and L, how many windows the key has opened (0: never seen),
	// when the current one opened, and its count.
}

// NewTTL returns one key's first-hit fixed window.
func NewTTL(c Config) (*TTLWindow, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	// TODO: build the TTLWindow from c and return it with a nil error.
	return nil, todo("NewTTL")
}

// MaxCost is L.
func (w *TTLWindow) MaxCost() int {
	// TODO
	return 0
}

// AllowN decides a request of the given cost at now, like Window.AllowN
// except for how a window is chosen:
//
//   - The current window is open iff the key has opened one and t - start < W.
//     (A late request has a smaller t - start than the latest one, so it
//     falls in the open window: no extra code for it.)
//   - If it is not open, the count starts at 0, and once the cost is known to
//     be in [1, L] a new window opens at t: one more opening, start = t.
//   - On a rejection RetryAfter is start + W - t.
func (w *TTLWindow) AllowN(now time.Time, cost int) core.Decision {
	// TODO
	return core.Decision{}
}

// State returns the counter as of the last decision: WindowID counts the
// windows opened so far, Start is time.Unix(0, start) of the current one,
// Count its count.
func (w *TTLWindow) State() State {
	// TODO
	return State{}
}
