//go:build !exercise

package buckets

import (
	"math"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// tolNS is the contract's tolerance (CONTRACT.md §1) in ns: 1e-9 ms = 1e-3 ns.
const tolNS = core.Tolerance * float64(time.Millisecond)

// GCRA is a token bucket kept as one instant (the generic cell rate
// algorithm, the leaky bucket as a meter): TAT, the theoretical arrival
// time, starts at the first arrival and is max(TAT, now); a request of cost
// k is admitted iff TAT + (k-1)·T - now <= tau, and then TAT += k·T.
// TAT is base + n·T with n·T computed in one step, never a rounded T added
// up: exact while n·1e9 < 2^53 and the true value is a whole ns. Not safe
// for concurrent use; see NewGCRALimiter.
type GCRA struct {
	capacity int
	rate     float64       // R per second: T = 1e9/R ns
	base     time.Time     // TAT = base + n·T
	n        int64         // emission intervals since base
	seen     time.Duration // the latest time seen is base + seen
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

// AllowN decides a request of the given cost at now.
func (g *GCRA) AllowN(now time.Time, cost int) core.Decision {
	d, _, _ := g.admit(now, cost)
	return d
}

// admit is the whole test, shared with LeakyQueue. A now behind the latest
// time seen is decided then, and late says by how much; slot is how long
// after that time an admitted request's slot, max(TAT, now), starts.
func (g *GCRA) admit(now time.Time, cost int) (d core.Decision, slot, late time.Duration) {
	elapsed := now.Sub(g.base)
	late = max(0, g.seen-elapsed)
	elapsed += late
	base, n := g.base, g.n
	if g.times(n) <= float64(elapsed) { // TAT = max(TAT, now)
		base, n, elapsed = now.Add(late), 0, 0
	}
	if cost < 1 || cost > g.capacity {
		return core.Decision{Remaining: g.remaining(n, elapsed)}, 0, late
	}
	g.base, g.n, g.seen = base, n, elapsed
	// TAT + (k-1)·T - now - tau = (n + k - C)·T - (now - base)
	if over := g.times(n+int64(cost-g.capacity)) - float64(elapsed); over > tolNS {
		retry := time.Duration(math.Ceil(over - tolNS))
		return core.Decision{Remaining: g.remaining(n, elapsed), RetryAfter: retry + late}, 0, late
	}
	g.n += int64(cost)
	slot = time.Duration(math.Round(g.times(n))) - elapsed
	return core.Decision{Allowed: true, Remaining: g.remaining(g.n, elapsed)}, slot, late
}

// remaining is how many cost-1 requests would still pass: the largest q
// with (n + q - C)·T - elapsed <= tolNS, at most C.
func (g *GCRA) remaining(n int64, elapsed time.Duration) int {
	q := int64(g.capacity) - n + int64(math.Floor((float64(elapsed)+tolNS)*g.rate/1e9))
	return int(max(0, min(q, int64(g.capacity))))
}

// Idle reports whether TAT has fallen to now, so that max(TAT, now) is now
// as for a key never seen (core.Idler).
func (g *GCRA) Idle(now time.Time) bool {
	elapsed := now.Sub(g.base)
	return elapsed >= g.seen && g.times(g.n) <= float64(elapsed)
}

// State returns TAT to the nearest nanosecond (the zero time before the
// first arrival).
func (g *GCRA) State() GCRAState {
	return GCRAState{TAT: g.base.Add(time.Duration(math.Round(g.times(g.n))))}
}
