//go:build !exercise

package buckets

import (
	"time"

	framing "github.com/ratelimit-course/ratelimit/chapters/01-framing"
)

// GCRA is the leaky bucket used as a meter (the generic cell rate algorithm).
// It keeps one instant, the theoretical arrival time TAT: when the next
// request would be due if traffic ran exactly at rate R. A request of cost k
// arriving at now is rejected iff max(TAT, now) + (k-1)·T - now > tau;
// otherwise it is forwarded at once and TAT moves to max(TAT, now) + k·T.
//
// TAT - now is the bucket's debt measured in time, so "TAT - now <= tau" is
// the token bucket's "tokens >= 1" with the sign turned round: with the same
// C and R the two make the same decisions. Arithmetic is in whole
// nanoseconds, so ties are exact.
//
// Not safe for concurrent use; see NewGCRALimiter.
type GCRA struct {
	capacity int
	t, tau   int64 // emission interval and tolerance, ns
	tat      int64 // Unix ns
	last     int64 // Unix ns of the latest time seen
	seen     bool
}

// NewGCRA returns a GCRA meter whose TAT starts at the first arrival, or the
// configuration's *framing.ParamError.
func NewGCRA(c Config) (*GCRA, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &GCRA{capacity: c.Capacity, t: int64(c.Interval()), tau: int64(c.Tau())}, nil
}

// MaxCost is the capacity.
func (g *GCRA) MaxCost() int { return g.capacity }

// AllowN decides a request of the given cost at now.
func (g *GCRA) AllowN(now time.Time, cost int) framing.Decision {
	n, tat := clock(now.UnixNano(), g.last, g.tat, g.seen)
	if cost < 1 || cost > g.capacity {
		return framing.Decision{Remaining: permits(tat-n, g.t, g.tau)}
	}
	g.last, g.seen = n, true
	if over := tat + int64(cost-1)*g.t - n - g.tau; over > 0 {
		// At now+over the same test reads exactly tau: the earliest success.
		return framing.Decision{Remaining: permits(tat-n, g.t, g.tau), RetryAfter: time.Duration(over)}
	}
	g.tat = tat + int64(cost)*g.t
	return framing.Decision{Allowed: true, Remaining: permits(g.tat-n, g.t, g.tau)}
}

// State returns the theoretical arrival time.
func (g *GCRA) State() GCRAState {
	if !g.seen {
		return GCRAState{}
	}
	return GCRAState{TAT: time.Unix(0, g.tat)}
}

// clock turns a caller's now into the time a meter works with (never earlier
// than the latest seen) and the effective TAT max(TAT, now), with TAT starting
// at the first arrival.
func clock(now, last, tat int64, seen bool) (int64, int64) {
	if !seen {
		return now, now
	}
	if now < last {
		now = last
	}
	if tat < now {
		tat = now
	}
	return now, tat
}

// permits is how many cost-1 requests would still pass right now when TAT is
// ahead of now by debt: the token bucket's floor(tokens), computed exactly.
func permits(debt, t, tau int64) int {
	if debt > tau {
		return 0
	}
	return int((tau-debt)/t) + 1
}
