//go:build !exercise

package buckets

import (
	"math"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// tol is the contract's tolerance in time (CONTRACT.md §1: 1e-9 ms), in ns.
const tol = 1e-3

// GCRA is a token bucket kept as one instant (the generic cell rate
// algorithm, the leaky bucket as a meter): a request of cost k at now is
// admitted iff TAT + (k-1)·T - now <= tau, and then TAT += k·T, where TAT is
// the theoretical arrival time, max(TAT, now), starting at the first arrival.
//
// TAT - now is the bucket's debt in time, so it decides as the token bucket
// does. TAT is base + n·T with n·T computed in one step, never a rounded T
// added up: exact while n·1e9 < 2^53 and the true value is a whole ns.
// Not safe for concurrent use; see NewGCRALimiter.
type GCRA struct {
	capacity int
	rate     float64   // R per second: T = 1e9/R ns
	last     time.Time // the latest time seen
	base     time.Time // TAT = base + n·T
	n        int64
}

// NewGCRA returns a meter whose TAT starts at the first arrival, or the
// configuration's *core.ParamError.
func NewGCRA(c Config) (*GCRA, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &GCRA{capacity: c.Capacity, rate: c.Rate}, nil
}

// MaxCost is the capacity.
func (g *GCRA) MaxCost() int { return g.capacity }

// times is n·T in ns: one multiplication, one division, one rounding.
func (g *GCRA) times(n int64) float64 { return float64(n) * 1e9 / g.rate }

// AllowN decides a request of the given cost at now (or at the latest time
// seen, if now is earlier; RetryAfter still counts from now).
func (g *GCRA) AllowN(now time.Time, cost int) core.Decision {
	t, base, n := g.last, g.base, g.n
	if now.After(t) {
		t = now
	}
	if g.times(n) <= float64(t.Sub(base)) { // TAT = max(TAT, now)
		base, n = t, 0
	}
	elapsed := float64(t.Sub(base)) // exact ns below 2^53 (104 days)
	if cost < 1 || cost > g.capacity {
		return core.Decision{Remaining: g.remaining(n, elapsed)}
	}
	g.last = t
	// TAT + (k-1)·T - now - tau = (n + k - C)·T - (now - base)
	if over := g.times(n+int64(cost-g.capacity)) - elapsed; over > tol {
		retry := time.Duration(math.Ceil(over - tol))
		return core.Decision{Remaining: g.remaining(n, elapsed), RetryAfter: retry + t.Sub(now)}
	}
	g.base, g.n = base, n+int64(cost)
	return core.Decision{Allowed: true, Remaining: g.remaining(g.n, elapsed)}
}

// remaining is how many cost-1 requests would still pass: the largest q
// with (n + q - C)·T - elapsed <= tol, at most C.
func (g *GCRA) remaining(n int64, elapsed float64) int {
	q := int64(g.capacity) - n + int64(math.Floor((elapsed+tol)*g.rate/1e9))
	return int(max(0, min(q, int64(g.capacity))))
}

// at is base + n·T to the nearest nanosecond.
func (g *GCRA) at(n int64) time.Time {
	return g.base.Add(time.Duration(math.Round(g.times(n))))
}

// Idle reports whether TAT has fallen to now, so that max(TAT, now) is now
// as for a key never seen (core.Idler).
func (g *GCRA) Idle(now time.Time) bool {
	return !now.Before(g.last) && g.times(g.n) <= float64(now.Sub(g.base))
}

// State returns TAT to the nearest nanosecond (the zero time before the
// first arrival).
func (g *GCRA) State() GCRAState { return GCRAState{TAT: g.at(g.n)} }
