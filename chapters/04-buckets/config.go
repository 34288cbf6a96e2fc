package buckets

import (
	"math"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// Config is the budget every bucket shares: a capacity C (the largest burst,
// and the largest cost one request may carry) and a refill rate R per second.
type Config struct {
	Capacity int     // C: permits a full bucket holds; also the queue depth
	Rate     float64 // R: refills per second
}

// Validate refuses, as a *core.ParamError, a capacity outside 1..1e9 or a
// rate outside (0, 1e9] per second or slower than a full refill in 1e9 s.
func (c Config) Validate() error {
	if err := core.CheckCount("capacity", c.Capacity); err != nil {
		return err
	}
	return core.CheckRate("rate", c.Rate, c.Capacity)
}

// Interval is T = 1/R and Tau the tolerance (C-1)·T, how far TAT may run
// ahead of now and the longest a queued request waits; each to the nearest ns
// (0 for an invalid Config), for display: GCRA computes n·T from the exact
// rate, so three permits at R = 3 take 1 s although T shows as 333.333333 ms.
func (c Config) Interval() time.Duration { return c.intervals(1) }
func (c Config) Tau() time.Duration      { return c.intervals(c.Capacity - 1) }

func (c Config) intervals(n int) time.Duration {
	if c.Validate() != nil {
		return 0
	}
	return time.Duration(math.Round(float64(n) * 1e9 / c.Rate))
}

// TokenState is a token bucket's whole state as of its last decision; before
// the first request the bucket counts as full and Last is the zero time.
type TokenState struct {
	Tokens float64
	Last   time.Time
}

// GCRAState is GCRA's whole state: TAT, zero before the first arrival.
type GCRAState struct{ TAT time.Time }

// QueueState is the leaky-bucket queue's state: the earliest departure a new
// request could get, and the departures still waiting, oldest first.
type QueueState struct {
	TAT   time.Time
	Queue []time.Time
}
