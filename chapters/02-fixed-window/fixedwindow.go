//go:build !exercise

package fixedwindow

import (
	"math"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// Window is the aligned fixed-window counter (`fixed-window`).
//
// Window k is [kW, (k+1)W), the same grid for every key, so the counter can
// live in a store under a key named after k. Each request adds its cost to the
// counter whether it is allowed or not, because INCR cannot take it back; a
// request is allowed iff the counter, after adding, is at most L.
//
// The grid is the weakness: L requests at the end of window k and L more at
// the start of window k+1 are all allowed, 2L inside a span much shorter
// than W.
type Window struct {
	width   int64 // W in nanoseconds
	limit   int
	id      int64 // floor(t/W) of the window being counted
	count   int   // cost seen in window id, rejected requests included
	last    int64 // latest time seen: time never runs backwards for a key
	started bool
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
	t, late := clamp(now.UnixNano(), w.last, w.started)
	id := floorDiv(t, w.width)
	count := w.count
	if !w.started || id != w.id {
		count = 0 // a new window: the old counter has expired
	}
	if cost < 1 || cost > w.limit {
		return core.Decision{Remaining: max(0, w.limit-count)}
	}
	w.started, w.id, w.last = true, id, t
	allowed := count <= w.limit-cost
	w.count = addSat(count, cost)
	if allowed {
		return core.Decision{Allowed: true, Remaining: w.limit - w.count}
	}
	// Nothing in this window can pass any more; the next window starts at 0
	// and any cost up to L fits there. (id+1)·W may lie past the int64 range
	// for a window at the end of time; the difference is still exact.
	return core.Decision{RetryAfter: time.Duration((id+1)*w.width-t) + late}
}

// State returns the counter as of the last decision.
func (w *Window) State() State {
	if !w.started {
		return State{}
	}
	return State{WindowID: w.id, Start: time.Unix(0, w.id*w.width), Count: w.count}
}

// Idle reports whether the window counted last has ended by now, so that the
// next request starts from zero just as it would for a key never seen
// (core.Idler; Keyed.Sweep drops such keys).
func (w *Window) Idle(now time.Time) bool {
	t := now.UnixNano()
	return !w.started || (t >= w.last && floorDiv(t, w.width) != w.id)
}

// TTLWindow is the fixed window whose clock starts at the key's first request
// (`fixed-window-ttl`): INCR, and set an expiry of W when the counter is new.
//
// The window is [start, start+W); the first request at or after start+W opens
// the next one. Because a window only opens on a request, that request is
// always inside it, and no span of length W can hold all of one window's
// admissions and all of the next one's: the exact worst case is 2L-1 in some
// W (L-1 at the end of one window, L at the start of the next), one less
// than the aligned grid's 2L.
type TTLWindow struct {
	width    int64 // W in nanoseconds
	limit    int
	start    int64 // when the current window opened
	openings int64 // how many windows this key has opened
	count    int   // cost seen in the current window, rejected requests included
	last     int64 // latest time seen
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
	t, late := clamp(now.UnixNano(), w.last, w.openings > 0)
	// t >= start, so the unsigned difference is exact even across centuries.
	open := w.openings > 0 && uint64(t-w.start) < uint64(w.width)
	count := w.count
	if !open {
		count = 0 // the key has expired (or never existed)
	}
	if cost < 1 || cost > w.limit {
		return core.Decision{Remaining: max(0, w.limit-count)}
	}
	if !open {
		w.openings++
		w.start = t
	}
	w.last = t
	allowed := count <= w.limit-cost
	w.count = addSat(count, cost)
	if allowed {
		return core.Decision{Allowed: true, Remaining: w.limit - w.count}
	}
	return core.Decision{RetryAfter: time.Duration(w.start+w.width-t) + late}
}

// State returns the counter as of the last decision.
func (w *TTLWindow) State() State {
	if w.openings == 0 {
		return State{}
	}
	return State{WindowID: w.openings, Start: time.Unix(0, w.start), Count: w.count}
}

// Idle reports whether the key's window has expired by now (core.Idler),
// as its TTL would have in Redis.
func (w *TTLWindow) Idle(now time.Time) bool {
	t := now.UnixNano()
	return w.openings == 0 || (t >= w.last && uint64(t-w.start) >= uint64(w.width))
}

// clamp keeps a key's time from running backwards: a now earlier than the
// latest time seen is decided at that latest time, and late is how far
// behind it the caller was. RetryAfter adds late back, because the caller
// measures the delay from its own now: without it a request stamped 100 ms
// late would be told to come back 100 ms too early.
func clamp(now, last int64, seen bool) (t int64, late time.Duration) {
	if seen && now < last {
		return last, time.Duration(last - now)
	}
	return now, 0
}

// addSat is count + cost, stopping at MaxInt instead of wrapping: with L near
// MaxInt a wrapped counter would turn negative and admit everything.
func addSat(count, cost int) int {
	if count > math.MaxInt-cost {
		return math.MaxInt
	}
	return count + cost
}

// floorDiv is floor(a/b) for b > 0, also for instants before 1970.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b < 0 {
		q--
	}
	return q
}
