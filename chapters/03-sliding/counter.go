//go:build !exercise

package sliding

import (
	"math"
	"math/bits"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// Counter is the sliding-window counter (`sliding-counter`): N+1 counts per
// key (two for the classic rule) and an estimate of the sliding total instead
// of the exact count.
//
// W is split into N sub-windows of width S = W/N on a grid shared by every key
// (N = 1 is the classic two-counter rule). At t, with j = floor(t/S) and
// elapsed e = t - jS, the window (t-W, t] covers sub-windows j-N+1 .. j fully
// and sub-window j-N for its last S-e, so
//
//	estimate = count[j-N]*(S-e)/S + count[j-N+1] + ... + count[j]
//
// which assumes the oldest sub-window's requests were spread evenly. A
// request of cost k is allowed iff estimate + k - 1 < L (for cost 1: estimate
// < L; an exact tie rejects), and only allowed requests are counted.
//
// The estimate is wrong both ways: too high when the oldest requests came
// early (a false reject), too low when they came late (overshoot). Each
// aligned run of N sub-windows admits at most L, and any span of length W
// touches N+1 sub-windows, so a span of W holds at most L plus one
// sub-window's count: 2L when an attacker packs L into the end of one
// sub-window, whatever N is.
//
// The comparison is done in integer nanoseconds with 128-bit products, so
// decisions and RetryAfter are exact for any W and L.
type Counter struct {
	size   int64 // S = W/N in nanoseconds
	n      int   // N
	limit  int
	cur    int64 // the current sub-window, floor(t/S)
	counts []int // counts[i] is sub-window cur-N+i: [0] partly covered, [N] current
	inside int   // counts[1] + ... + counts[N]
	last   int64 // latest time seen
	est    float64
}

// NewCounter returns one key's sliding counter.
func NewCounter(c Config) (*Counter, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	n := c.subWindows()
	return &Counter{
		size:   int64(c.Window) / int64(n),
		n:      n,
		limit:  c.Limit,
		counts: make([]int, n+1),
		cur:    math.MinInt64, // not seen yet: every count is 0
		last:   math.MinInt64,
	}, nil
}

// MaxCost is L.
func (c *Counter) MaxCost() int { return c.limit }

// view returns, without changing anything, the counts as they stand at t:
// the current sub-window j, elapsed e inside it, the partly covered count and
// the sum of the N counts fully inside.
func (c *Counter) view(t int64) (j, e int64, old, inside int) {
	j = floorDiv(t, c.size)
	e = t - j*c.size
	if c.cur == math.MinInt64 || uint64(j-c.cur) > uint64(c.n) {
		return j, e, 0, 0
	}
	d := int(j - c.cur)
	inside = c.inside
	for i := 1; i <= d; i++ {
		inside -= c.counts[i]
	}
	return j, e, c.counts[d], inside
}

// advance moves the counts forward to sub-window j. (j >= cur, so the
// unsigned distance is exact even for instants centuries apart.)
func (c *Counter) advance(j int64) {
	if j == c.cur {
		return
	}
	if c.cur == math.MinInt64 || uint64(j-c.cur) > uint64(c.n) {
		clear(c.counts)
		c.inside = 0
	} else {
		d := int(j - c.cur)
		for i := 1; i <= d; i++ {
			c.inside -= c.counts[i]
		}
		copy(c.counts, c.counts[d:])
		clear(c.counts[len(c.counts)-d:])
	}
	c.cur = j
}

// Idle reports whether no counted sub-window still touches the window
// ending at now, so that the estimate, and every later one, is what a new
// key's would be (core.Idler).
func (c *Counter) Idle(now time.Time) bool {
	t := now.UnixNano()
	if t < c.last {
		return false
	}
	_, _, old, inside := c.view(t)
	return old == 0 && inside == 0
}

// Estimate is the sliding total the counter would compare with L at now,
// without deciding anything.
func (c *Counter) Estimate(now time.Time) float64 {
	_, e, old, inside := c.view(max(now.UnixNano(), c.last))
	return estimate(old, inside, e, c.size)
}

// AllowN decides a request of the given cost at now.
func (c *Counter) AllowN(now time.Time, cost int) core.Decision {
	t, late := clamp(now.UnixNano(), c.last)
	j, e, old, inside := c.view(t)
	if cost < 1 || cost > c.limit {
		return core.Decision{Remaining: c.remaining(old, inside, e)}
	}
	c.last = t
	c.advance(j)
	c.est = estimate(old, inside, e, c.size)
	if !c.fits(old, inside, e, cost) {
		return core.Decision{
			Remaining:  c.remaining(old, inside, e),
			RetryAfter: c.retryAfter(t, j, e, cost) + late,
		}
	}
	c.counts[c.n] += cost
	c.inside += cost
	return core.Decision{Allowed: true, Remaining: c.remaining(old, c.inside, e)}
}

// fits reports estimate + cost - 1 < L, multiplied through by S:
// old*(S-e) < (L - inside - cost + 1) * S.
func (c *Counter) fits(old, inside int, e int64, cost int) bool {
	r := c.limit - inside - cost + 1
	return r > 0 && mulLess(int64(old), c.size-e, int64(r), c.size)
}

// remaining is the largest k with fits(k): L - inside - floor(old*(S-e)/S).
func (c *Counter) remaining(old, inside int, e int64) int {
	return min(c.limit, max(0, c.limit-inside-int(mulDiv(int64(old), c.size-e, c.size))))
}

// retryAfter solves for the first instant at which the same request fits if
// nothing else arrives. The estimate only falls as time passes and is
// continuous across sub-window edges (at an edge the partly covered weight
// reaches 0 just as the next count becomes the partly covered one with weight
// 1), so it walks forward sub-window by sub-window and, in the first one where
// the request can fit, solves old*(S-x) < r*S for the smallest whole x.
// After N+1 sub-windows every count has gone and any cost up to L fits.
func (c *Counter) retryAfter(t, j, e int64, cost int) time.Duration {
	old, inside := c.counts[0], c.inside
	for d := 0; d <= c.n; d++ {
		x := int64(0)
		if d == 0 {
			x = e
		} else {
			old = c.counts[d]
			inside -= c.counts[d]
		}
		r := c.limit - inside - cost + 1
		if r <= 0 {
			continue // even with the old count gone it would not fit
		}
		if !mulLess(int64(old), c.size-x, int64(r), c.size) {
			// old*(S-x) < r*S  <=>  x > (old-r)*S/old; old >= r here.
			x = mulDiv(int64(old-r), c.size, int64(old)) + 1
		}
		if x < c.size {
			return time.Duration((j+int64(d))*c.size + x - t)
		}
	}
	return time.Duration((j+int64(c.n)+1)*c.size - t)
}

// State returns the counts as of the last decision.
func (c *Counter) State() CounterState {
	s := CounterState{Prev: c.counts[0], Curr: c.inside, Estimate: c.est}
	if c.cur != math.MinInt64 {
		s.WindowID = c.cur
	}
	if c.n > 1 {
		s.Sub = append([]int(nil), c.counts...)
	}
	return s
}

func estimate(old, inside int, e, size int64) float64 {
	return float64(old)*float64(size-e)/float64(size) + float64(inside)
}

// mulLess reports a*b < c*d for non-negative operands, without overflow.
func mulLess(a, b, c, d int64) bool {
	h1, l1 := bits.Mul64(uint64(a), uint64(b))
	h2, l2 := bits.Mul64(uint64(c), uint64(d))
	return h1 < h2 || h1 == h2 && l1 < l2
}

// mulDiv is floor(a*b/c) for non-negative a, b and c > 0 with a*b/c < 2^63
// (a <= c or b <= c), without overflow.
func mulDiv(a, b, c int64) int64 {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	q, _ := bits.Div64(hi, lo, uint64(c))
	return int64(q)
}

// floorDiv is floor(a/b) for b > 0, also for instants before 1970.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b < 0 {
		q--
	}
	return q
}
