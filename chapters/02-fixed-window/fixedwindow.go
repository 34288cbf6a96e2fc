//go:build !exercise

package fixedwindow

import (
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// Window is a counter per aligned window [kW, (k+1)W), k = floor(t/W): each
// request adds its cost, and is allowed iff the count is then at most L
// (`fixed-window`, CONTRACT.md §2).
//
// Every key shares the same grid, so a store can keep the counter under a key
// named after k. Rejected requests count too, as INCR does. The grid is the
// weakness: L requests just before kW and L just after it all pass, 2L inside
// a span much shorter than W.
type Window struct {
	width int64 // W in nanoseconds
	limit int   // L
	id    int64 // k, the window being counted
	count int   // cost seen in window id, rejected requests included
}

// New returns one key's aligned fixed window.
func New(c Config) (*Window, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &Window{width: int64(c.Window), limit: c.Limit}, nil
}

// MaxCost is L: a request dearer than a whole window can never pass.
func (w *Window) MaxCost() int { return w.limit }

// AllowN decides a request of the given cost at now.
func (w *Window) AllowN(now time.Time, cost int) core.Decision {
	t := now.UnixNano() // >= 0 in the domain, so / is floor
	// A late request (stamped before the latest seen) counts in the latest
	// window: the window id never goes back.
	id, count := max(t/w.width, w.id), w.count
	if id != w.id {
		count = 0 // a new window starts from zero
	}
	if cost < 1 || cost > w.limit {
		return core.Decision{Remaining: max(0, w.limit-count)}
	}
	// No overflow: a cost is at most 1e9, so the 64-bit count would need
	// 9e18/1e9 = 9e9 requests of the largest cost in one window of one key.
	w.id, w.count = id, count+cost
	if w.count <= w.limit {
		return core.Decision{Allowed: true, Remaining: w.limit - w.count}
	}
	// Window id+1 starts at zero, where any cost up to L fits. Counted from
	// the caller's own t, so that a late caller is not told to come early.
	return core.Decision{RetryAfter: time.Duration((id+1)*w.width - t)}
}

// State returns the counter as of the last decision.
func (w *Window) State() State {
	return State{WindowID: w.id, Start: time.Unix(0, w.id*w.width), Count: w.count}
}

// Idle reports whether a key that has seen nothing would decide as this one
// from now on: its count is zero, or its window has ended (core.Idler).
func (w *Window) Idle(now time.Time) bool {
	return w.count == 0 || now.UnixNano()/w.width > w.id
}

// TTLWindow is a counter per window [start, start+W) that opens at the first
// request after the previous one expired: each request adds its cost, and is
// allowed iff the count is then at most L (`fixed-window-ttl`, CONTRACT.md §2).
//
// It is INCR plus an expiry of W set when the key is new. A window opens only
// on a request, which is therefore inside it, so no span of length W holds
// all of one window's admissions and all of the next one's: the exact worst
// case is 2L-1 in some W (L-1 at the end of one window, L at the start of
// the next), one less than the aligned grid's 2L.
type TTLWindow struct {
	width    int64 // W in nanoseconds
	limit    int   // L
	openings int64 // windows opened so far; 0 is a key never seen
	start    int64 // when the current window opened
	count    int   // cost seen in the current window, rejected requests included
}

// NewTTL returns one key's first-hit fixed window.
func NewTTL(c Config) (*TTLWindow, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &TTLWindow{width: int64(c.Window), limit: c.Limit}, nil
}

// MaxCost is L.
func (w *TTLWindow) MaxCost() int { return w.limit }

// AllowN decides a request of the given cost at now.
func (w *TTLWindow) AllowN(now time.Time, cost int) core.Decision {
	t := now.UnixNano()
	// Whether the window is open is computed from start and W on every
	// request, never kept as a flag set once (CONTRACT.md E10). A late request
	// has t-start below the latest one's, so it counts in the open window.
	open, count := w.openings > 0 && t-w.start < w.width, w.count
	if !open {
		count = 0 // the key has expired (or never existed)
	}
	if cost < 1 || cost > w.limit {
		return core.Decision{Remaining: max(0, w.limit-count)}
	}
	if !open {
		w.openings, w.start = w.openings+1, t
	}
	w.count = count + cost // no overflow, for Window's reason
	if w.count <= w.limit {
		return core.Decision{Allowed: true, Remaining: w.limit - w.count}
	}
	return core.Decision{RetryAfter: time.Duration(w.start + w.width - t)}
}

// State returns the counter as of the last decision.
func (w *TTLWindow) State() State {
	return State{WindowID: w.openings, Start: time.Unix(0, w.start), Count: w.count}
}

// Idle reports whether the key's window has expired by now, as its TTL would
// have in Redis (core.Idler).
func (w *TTLWindow) Idle(now time.Time) bool {
	return w.openings == 0 || now.UnixNano()-w.start >= w.width
}
