package fixedwindow

import (
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// Config is one fixed-window policy: at most Limit cost units per Window.
type Config struct {
	Window time.Duration // W, the window width; > 0
	Limit  int           // L, the cost admitted per window; >= 1
}

// Validate reports the first bad parameter as a *core.ParamError.
func (c Config) Validate() error {
	if c.Window <= 0 {
		return core.BadParam("window", c.Window, "a duration > 0")
	}
	if c.Limit < 1 {
		return core.BadParam("limit", c.Limit, "an integer >= 1")
	}
	return nil
}

// State is a key's counter as of its last decision.
//
// For Window, WindowID is floor(t/W) and Start its first instant. For
// TTLWindow, WindowID counts how many windows the key has opened and Start is
// when the current one opened. Count is the cost of every request seen in the
// window, rejected ones included: that is what an INCR-based counter holds.
type State struct {
	WindowID int64
	Start    time.Time
	Count    int
}

// NewLimiter returns an aligned fixed-window limiter for many keys.
func NewLimiter(c Config) (*core.Keyed[*Window], error) {
	if _, err := New(c); err != nil {
		return nil, err
	}
	return core.NewKeyed(func() *Window { w, _ := New(c); return w }), nil
}

// NewTTLLimiter returns a first-hit-TTL fixed-window limiter for many keys.
func NewTTLLimiter(c Config) (*core.Keyed[*TTLWindow], error) {
	if _, err := NewTTL(c); err != nil {
		return nil, err
	}
	return core.NewKeyed(func() *TTLWindow { w, _ := NewTTL(c); return w }), nil
}
