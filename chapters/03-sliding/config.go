package sliding

import (
	"fmt"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// MaxSubWindows bounds Config.SubWindows, as chapter 06's script does; past a
// few dozen the log is the better tool anyway.
const MaxSubWindows = 1000

// Config is one sliding-window policy: at most Limit cost units in any
// window of width Window.
type Config struct {
	Window time.Duration // W
	Limit  int           // L
	// SubWindows is N for Counter (0 and 1: the classic two counters); W
	// must split into N whole nanoseconds. Log ignores it.
	SubWindows int
}

// Validate accepts the course's domain (core/domain.go), a window from 1 ns to
// 1e18 ns, a limit from 1 to 1e9 and N from 0 to MaxSubWindows dividing the
// window in ns, and reports anything else as a *core.ParamError. With instants
// from 1970 to 2200 a time in ns is a non-negative int64, so t/S is floor(t/S)
// and the age of an entry t - ts cannot overflow.
func (c Config) Validate() error {
	if err := core.CheckWindow("window", c.Window); err != nil {
		return err
	}
	if err := core.CheckCount("limit", c.Limit); err != nil {
		return err
	}
	if c.SubWindows < 0 || c.SubWindows > MaxSubWindows {
		return core.BadParam("subwindows", c.SubWindows,
			fmt.Sprintf("0 or 1 (two counters) or an integer from 2 to %d", MaxSubWindows))
	}
	if c.SubWindows > 1 && int64(c.Window)%int64(c.SubWindows) != 0 {
		return core.BadParam("subwindows", c.SubWindows,
			fmt.Sprintf("a count that splits window %v into whole nanoseconds (a divisor of %d)", c.Window, int64(c.Window)))
	}
	return nil
}

// LogState is a sliding log as of its last decision: the allowed requests
// still kept, oldest first, one entry per request whatever its cost (entries
// older than W are dropped at the next decision).
type LogState struct {
	Entries []LogEntry
}

// LogEntry is one allowed request in the log: when, and the permits it took.
type LogEntry struct {
	At   time.Time
	Cost int
}

// CounterState is a sliding counter as of its last decision.
//
// With N = 1, WindowID is t/W, Prev the allowed count of window WindowID-1
// and Curr of window WindowID. With N > 1, WindowID is the current sub-window
// t/(W/N), Prev is the oldest, partly covered sub-window and Curr the sum of
// the N newer ones. Either way the estimate is Prev*(covered fraction) + Curr.
// A key that has seen nothing has WindowID 0 and every count 0.
type CounterState struct {
	WindowID   int64
	Prev, Curr int
	Estimate   float64 // what the last decision compared, before its own cost
	Sub        []int   // N > 1: the N+1 counts, oldest (partly covered) first; nil for N = 1
}

// NewLogLimiter and NewCounterLimiter return a limiter for many keys.
func NewLogLimiter(c Config) (*core.Keyed[*Log], error) { return core.KeyedFrom(c, NewLog) }

func NewCounterLimiter(c Config) (*core.Keyed[*Counter], error) { return core.KeyedFrom(c, NewCounter) }
