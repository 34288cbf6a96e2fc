//go:build !exercise

package buckets

import (
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// GCRA is the leaky bucket used as a meter (the generic cell rate algorithm).
// It keeps one instant, the theoretical arrival time TAT: when the next
// request would be due if traffic ran exactly at rate R. A request of cost k
// arriving at now is rejected iff max(TAT, now) + (k-1)·T - now > tau;
// otherwise it is forwarded at once and TAT moves to max(TAT, now) + k·T.
//
// TAT - now is the bucket's debt measured in time, so "TAT - now <= tau" is
// the token bucket's "tokens >= 1" with the sign turned round: with the same
// C and R the two make the same decisions. TAT is kept to 2^-64 ns (see
// nanos), so it does not drift when T is not a whole number of nanoseconds,
// and an exact tie allows.
//
// Not safe for concurrent use; see NewGCRALimiter.
type GCRA struct {
	capacity int
	t        nanos // emission interval T
	limit    nanos // tau + tolerance: the largest debt TAT - now that admits
	tat      nanos // Unix time
	last     int64 // Unix ns of the latest time seen
	seen     bool
}

// NewGCRA returns a GCRA meter whose TAT starts at the first arrival, or the
// configuration's *core.ParamError.
func NewGCRA(c Config) (*GCRA, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	t := interval(c.Rate)
	return &GCRA{capacity: c.Capacity, t: t, limit: t.times(int64(c.Capacity - 1)).add(tolerance)}, nil
}

// MaxCost is the capacity.
func (g *GCRA) MaxCost() int { return g.capacity }

// AllowN decides a request of the given cost at now.
func (g *GCRA) AllowN(now time.Time, cost int) core.Decision {
	d, _ := g.admit(now.UnixNano(), cost)
	return d
}

// admit is the whole GCRA test, shared with LeakyQueue. Besides the decision
// it returns the start of the request's slot, max(TAT, now): the meter
// forwards at now whatever that is, the queue sends the request then.
func (g *GCRA) admit(now int64, cost int) (core.Decision, nanos) {
	n, tat, late := clock(now, g.last, g.tat, g.seen)
	if cost < 1 || cost > g.capacity {
		return core.Decision{Remaining: permitsLeft(tat.sub(n), g.t, g.limit)}, tat
	}
	g.last, g.seen = n.ns, true
	// over = ceil(debt + (cost-1)·T - limit) is > 0 exactly when the test
	// fails, and is then the RetryAfter: at now+over the same sum is <= 0,
	// one ns sooner it is not.
	debt := tat.sub(n)
	if over := debt.add(g.t.times(int64(cost - 1))).sub(g.limit).ceil(); over > 0 {
		return core.Decision{Remaining: permitsLeft(debt, g.t, g.limit), RetryAfter: time.Duration(over) + late}, tat
	}
	g.tat = tat.add(g.t.times(int64(cost)))
	return core.Decision{Allowed: true, Remaining: permitsLeft(g.tat.sub(n), g.t, g.limit)}, tat
}

// Idle reports whether TAT has fallen to now or before, so that max(TAT, now)
// is now, exactly as for a key never seen (core.Idler).
func (g *GCRA) Idle(now time.Time) bool {
	t := now.UnixNano()
	if !g.seen {
		return true
	}
	if t < g.last {
		return false
	}
	n, tat, _ := clock(t, g.last, g.tat, g.seen)
	return tat == n
}

// State returns the theoretical arrival time, to the nearest nanosecond.
func (g *GCRA) State() GCRAState {
	if !g.seen {
		return GCRAState{}
	}
	return GCRAState{TAT: instant(g.last, g.tat)}
}

// far is a gap between two decisions beyond any debt: C·T <= 1e18 ns (see
// Validate) < 2^62 ns, so a key unseen for that long has TAT in the past.
const far = 1 << 62

// clock turns a caller's now into the time a meter works with (never earlier
// than the latest seen; late is how far behind the caller was, which every
// delay handed back adds, since the caller counts from its own now) and the
// effective TAT max(TAT, now), with TAT starting at the first arrival.
//
// Instants near the end of int64 nanoseconds (the year 2262) make TAT =
// now + k·T wrap around, so TAT is only ever compared through the debt
// TAT - now, which is exact in wrapping arithmetic as long as the true value
// fits: TAT <= last + C·T, so it does unless now is far past last, and then
// TAT is long gone.
func clock(now, last int64, tat nanos, seen bool) (nanos, nanos, time.Duration) {
	var late time.Duration
	if seen && now < last {
		now, late = last, time.Duration(last-now)
	}
	n := nanos{ns: now}
	if !seen || uint64(now-last) >= far || tat.sub(n).ns < 0 {
		return n, n, late
	}
	return n, tat, late
}

// instant is the time.Time of x, reached from the whole-ns base (a time
// already seen) so that an x past the year 2262 is still reported right.
func instant(base int64, x nanos) time.Time {
	return time.Unix(0, base).Add(time.Duration(x.sub(nanos{ns: base}).round()))
}
