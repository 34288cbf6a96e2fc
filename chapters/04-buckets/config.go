package buckets

import (
	"math"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// Config is the budget every bucket in this chapter shares: a capacity C
// (how large a burst may be, and the largest cost one request may carry) and
// a refill rate R per second (the long-run rate). From them follow the
// emission interval T = 1/R and the tolerance tau = (C-1)·T that GCRA and the
// queue work with.
type Config struct {
	Capacity int     // C: permits a full bucket holds; also the queue depth
	Rate     float64 // R: refills per second
}

// Validate reports the first parameter outside the course's domain as a
// *core.ParamError: the capacity is an integer from 1 to 1e9 and the rate a
// number of refills per second above 0 and at most 1e9, with a full refill
// (C/R) taking at most 1e9 s.
func (c Config) Validate() error {
	if err := core.CheckCount("capacity", c.Capacity); err != nil {
		return err
	}
	return core.CheckRate("rate", c.Rate, c.Capacity)
}

// Interval is the emission interval T = 1/R to the nearest nanosecond (0 for
// an invalid Config), for display: GCRA and the queue never add it up, they
// compute n·T from the exact rate (see GCRA), so three permits at R = 3
// take one second although T shows as 333.333333 ms.
func (c Config) Interval() time.Duration {
	if c.Validate() != nil {
		return 0
	}
	return time.Duration(math.Round(1e9 / c.Rate))
}

// Tau is the tolerance (C-1)·T to the nearest nanosecond (0 for an invalid
// Config): how far TAT may run ahead of now before GCRA rejects, and the
// longest a queued request waits.
func (c Config) Tau() time.Duration {
	if c.Validate() != nil {
		return 0
	}
	return time.Duration(math.Round(float64(c.Capacity-1) * 1e9 / c.Rate))
}

// TokenState is a token bucket's whole state: the permits it held and the
// latest time it saw, as of its last decision. Before the first request the
// bucket counts as full and Last is the zero time.
type TokenState struct {
	Tokens float64
	Last   time.Time
}

// GCRAState is GCRA's whole state: one instant. Zero before the first arrival.
type GCRAState struct {
	TAT time.Time // theoretical arrival time of the next request
}

// QueueState is the leaky-bucket queue's state: GCRA's instant plus the
// requests still waiting to depart.
type QueueState struct {
	TAT time.Time // the earliest departure time a new request could get
	// Queue holds the departure times of requests still waiting at the last
	// decision (departure later than that decision's now), oldest first. It
	// is a copy: changing it does not change the queue.
	Queue []time.Time
}
