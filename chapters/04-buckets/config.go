package buckets

import (
	"fmt"
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

// Limits that keep every instant an exact int64 count of nanoseconds. T must
// be at least 1 ns, and refilling a whole bucket must take at most maxFill, so
// that the debt TAT - now (at most C·T) always fits an int64 with room to
// spare; TAT itself may pass the year 2262 (see clock).
const (
	maxRate     = 1e9     // one refill per nanosecond
	maxFill     = 1e9     // seconds (about 31 years) to refill from empty
	maxCapacity = 1 << 53 // larger counts are no longer exact in a float64
	nsPerSecond = float64(time.Second)
)

// Validate reports the first bad parameter as a *core.ParamError naming
// "capacity" or "rate" and what is accepted.
func (c Config) Validate() error {
	if c.Capacity < 1 || c.Capacity > maxCapacity {
		return core.BadParam("capacity", c.Capacity, "an integer from 1 to 2^53")
	}
	r := c.Rate
	if math.IsNaN(r) || math.IsInf(r, 0) || r <= 0 || r > maxRate {
		return core.BadParam("rate", r, "a finite number > 0 and <= 1e9 (refills per second)")
	}
	if float64(c.Capacity)/r > maxFill {
		return core.BadParam("rate", r, fmt.Sprintf(
			"at least capacity/1e9 = %g per second (a full bucket of %d must refill within 1e9 s)",
			float64(c.Capacity)/maxFill, c.Capacity))
	}
	return nil
}

// Interval is the emission interval T = 1/R to the nearest nanosecond, or 0
// for an invalid Config. For rates that divide one second evenly (1, 2, 4, 5,
// 10, 0.5 …) it is exact; otherwise (3 per second: 333 333 333.33… ns) GCRA
// and the queue carry the fraction, so that three permits at R = 3 take
// exactly one second, and the rounding here is for display only.
func (c Config) Interval() time.Duration {
	if c.Validate() != nil {
		return 0
	}
	return time.Duration(interval(c.Rate).round())
}

// Tau is the tolerance (C-1)·T to the nearest nanosecond, computed from the
// exact T (or 0 for an invalid Config): how far the theoretical arrival time
// may run ahead of now before GCRA rejects, and the longest a queued request
// waits.
func (c Config) Tau() time.Duration {
	if c.Validate() != nil {
		return 0
	}
	return time.Duration(interval(c.Rate).times(int64(c.Capacity - 1)).round())
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
