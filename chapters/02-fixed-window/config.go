package fixedwindow

import (
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// Config is one fixed-window policy: at most Limit cost units per Window.
type Config struct {
	Window time.Duration // W, the window width
	Limit  int           // L, the cost admitted per window
}

// Validate accepts the course's domain (core/domain.go), a window from 1 ns to
// 1e18 ns and a limit from 1 to 1e9, and reports anything else as a
// *core.ParamError. With instants from 1970 to 2200 a time in ns is a
// non-negative int64 with room for one more window, so t/W is floor(t/W) and
// a window's end cannot overflow.
func (c Config) Validate() error {
	if err := core.CheckWindow("window", c.Window); err != nil {
		return err
	}
	return core.CheckCount("limit", c.Limit)
}

// State is a key's counter as of its last decision.
//
// For Window, WindowID is floor(t/W) and Start its first instant. For
// TTLWindow, WindowID counts how many windows the key has opened and Start is
// when the current one opened. Count is the cost of every request seen in the
// window, rejected ones included: that is what an INCR-based counter holds.
// A key that has seen nothing has WindowID 0, Start the Unix epoch and Count 0.
type State struct {
	WindowID int64
	Start    time.Time
	Count    int
}

// NewLimiter returns an aligned fixed-window limiter for many keys.
func NewLimiter(c Config) (*core.Keyed[*Window], error) { return core.KeyedFrom(c, New) }

// NewTTLLimiter returns a first-hit-TTL fixed-window limiter for many keys.
func NewTTLLimiter(c Config) (*core.Keyed[*TTLWindow], error) { return core.KeyedFrom(c, NewTTL) }
