//go:build !exercise

package sliding

import (
	"math/bits"
	"slices"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// Counter is a sliding-window counter (`sliding-counter`): W split into N
// sub-windows of width S = W/N, the allowed cost counted per sub-window, and
// the total of the last W estimated by weighting the oldest, partly covered
// sub-window by the fraction of it still inside.
//
// At t, with j = t/S and elapsed e = t - jS, the window (t-W, t] covers
// sub-windows j-N+1 .. j whole and the last S-e of sub-window j-N, so
//
//	estimate = count[j-N]*(S-e)/S + count[j-N+1] + ... + count[j]
//
// (N = 1: prev*(W-e)/W + curr). A request of cost k is allowed iff
// estimate + k - 1 < L, a tie rejecting, and only allowed requests are
// counted. The estimate assumes the oldest sub-window's requests were spread
// evenly, so it errs both ways; some span of W can hold 2L for any N.
type Counter struct {
	size   int64 // S = W/N in nanoseconds
	n      int   // N
	limit  int
	cur    int64 // the current sub-window: last/S
	counts []int // counts[i] is sub-window cur-N+i: [0] partly covered, [N] current
	inside int   // counts[1] + ... + counts[N]
	last   int64 // latest time seen (ns)
	est    float64
}

// NewCounter returns one key's sliding counter.
func NewCounter(c Config) (*Counter, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	n := max(1, c.SubWindows)
	return &Counter{size: int64(c.Window) / int64(n), n: n, limit: c.Limit, counts: make([]int, n+1)}, nil
}

// MaxCost is L.
func (c *Counter) MaxCost() int { return c.limit }

// AllowN decides a request of the given cost at now. A now earlier than the
// latest seen is decided at the latest; RetryAfter counts from now.
func (c *Counter) AllowN(now time.Time, cost int) core.Decision {
	t := max(now.UnixNano(), c.last)
	j, e, old, inside := c.view(t)
	if cost < 1 || cost > c.limit {
		return core.Decision{Remaining: c.remaining(old, inside, e)}
	}
	d := int(min(j-c.cur, int64(c.n)+1)) // move the counts forward to j
	copy(c.counts, c.counts[d:])
	clear(c.counts[len(c.counts)-d:])
	c.cur, c.inside, c.last, c.est = j, inside, t, c.weigh(old, e)+float64(inside)
	if !c.fits(old, inside, e, cost) {
		return core.Decision{Remaining: c.remaining(old, inside, e),
			RetryAfter: time.Duration(c.retryAt(t, cost) - now.UnixNano())}
	}
	c.counts[c.n] += cost
	c.inside += cost
	return core.Decision{Allowed: true, Remaining: c.remaining(old, c.inside, e)}
}

// view returns, changing nothing, t's sub-window j and elapsed e, the partly
// covered count and the sum of the N newer ones (t >= last).
func (c *Counter) view(t int64) (j, e int64, old, inside int) {
	j = t / c.size
	if j-c.cur > int64(c.n) {
		return j, t - j*c.size, 0, 0
	}
	inside = c.inside
	for _, k := range c.counts[1 : j-c.cur+1] {
		inside -= k
	}
	return j, t - j*c.size, c.counts[j-c.cur], inside
}

// fits is the rule, estimate + cost - 1 < L, in exact integers: with
// m = L - inside - cost + 1 it is old*(S-e)/S < m, that is
// old*(S-e) < m*S. The products reach 1e9 * 1e18, past int64, so they are
// taken in 128 bits. A float64 estimate with the 1e-9 tolerance gets a tie
// right only while the numbers are a few million (a float64 near 2^23, 8.4
// million, steps by 1.9e-9); with a limit of 20 million an hour or 300
// million a minute it admits a tie (TestSlidingCounterTieBeyondTheTolerance).
func (c *Counter) fits(old, inside int, e int64, cost int) bool {
	m := c.limit - inside - cost + 1
	if m <= 0 {
		return false
	}
	hi, lo := bits.Mul64(uint64(old), uint64(c.size-e))
	mhi, mlo := bits.Mul64(uint64(m), uint64(c.size))
	return hi < mhi || hi == mhi && lo < mlo
}

// weigh is the oldest count's share of the estimate at elapsed e.
func (c *Counter) weigh(old int, e int64) float64 {
	return float64(old) * float64(c.size-e) / float64(c.size)
}

// Estimate is the sliding total the counter would compare with L at now,
// without deciding anything.
func (c *Counter) Estimate(now time.Time) float64 {
	_, e, old, inside := c.view(max(now.UnixNano(), c.last))
	return c.weigh(old, e) + float64(inside)
}

// Idle reports whether nothing counted still touches the window ending at
// now, so that this and every later estimate is a new key's (core.Idler).
func (c *Counter) Idle(now time.Time) bool {
	return now.UnixNano() >= c.last && c.Estimate(now) == 0
}

// State returns the counts as of the last decision.
func (c *Counter) State() CounterState {
	s := CounterState{WindowID: c.cur, Prev: c.counts[0], Curr: c.inside, Estimate: c.est}
	if c.n > 1 {
		s.Sub = slices.Clone(c.counts)
	}
	return s
}
