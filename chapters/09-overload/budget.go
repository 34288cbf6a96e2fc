package overload

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/ratelimit-course/ratelimit/chapters/04-buckets"
	"github.com/ratelimit-course/ratelimit/core"
)

// Budget is a token bucket of size C, initially full and refilled at R per
// second, from which a request reserves its worst-case cost before it starts
// (an LLM call: its input plus the most output it may produce) and, when it
// ends, settles what it really used: the unused tokens go back, up to C.
// Reserving the maximum is what keeps concurrent requests from overdrawing;
// the refund is what keeps the maximum from wasting the budget. Its Config is
// chapter 04's (Capacity C, Rate R). Safe for concurrent use.
type Budget struct {
	mu     sync.Mutex
	cfg    buckets.Config
	tokens float64
	last   time.Time // the latest time seen
}

// Reservation is what one admitted request holds until it settles.
type Reservation struct {
	cost    int
	settled bool
}

// NewBudget returns a full budget, or the configuration's *core.ParamError.
func NewBudget(c buckets.Config) (*Budget, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &Budget{cfg: c, tokens: float64(c.Capacity)}, nil
}

// refill brings the bucket up to now (to the latest time seen, if now is earlier).
func (b *Budget) refill(now time.Time) {
	if now.After(b.last) {
		b.tokens = min(float64(b.cfg.Capacity), b.tokens+now.Sub(b.last).Seconds()*b.cfg.Rate)
		b.last = now
	}
}

// Reserve takes cost tokens at now if the bucket holds them and returns the
// reservation; otherwise a nil reservation and a rejection whose RetryAfter
// is the wait until cost tokens are back (a 429: this key asked too much). A
// cost outside [1, C] is rejected with RetryAfter 0, as core.Algorithm does.
func (b *Budget) Reserve(now time.Time, cost int) (*Reservation, core.Decision) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.refill(now)
	if cost < 1 || cost > b.cfg.Capacity {
		return nil, core.Decision{Remaining: int(b.tokens + core.Tolerance)}
	}
	if need := float64(cost) - b.tokens; need > core.Tolerance {
		wait := time.Duration(math.Ceil(need/b.cfg.Rate*1e9 - core.Tolerance*float64(time.Millisecond))) // the tolerance in ns
		return nil, core.Decision{Remaining: int(b.tokens + core.Tolerance), RetryAfter: wait + b.last.Sub(now)}
	}
	b.tokens = max(0, b.tokens-float64(cost))
	return &Reservation{cost: cost}, core.Decision{Allowed: true, Remaining: int(b.tokens + core.Tolerance)}
}

// Settle ends a reservation at now that used tokens of its cost and refunds
// the rest, up to the capacity. A used outside [0, cost], or a reservation
// settled twice, is an error and changes nothing. A request that fails or
// times out settles too (with what it used, often 0).
func (b *Budget) Settle(now time.Time, r *Reservation, used int) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case r == nil || r.settled:
		return errors.New("overload: Settle of a nil or already settled reservation")
	case used < 0 || used > r.cost:
		return core.BadParam("used", used, fmt.Sprintf("an integer from 0 to the reserved cost (%d)", r.cost))
	}
	r.settled = true
	b.refill(now)
	b.tokens = min(float64(b.cfg.Capacity), b.tokens+float64(r.cost-used))
	return nil
}

// Tokens reports the tokens held at now, without changing the budget.
func (b *Budget) Tokens(now time.Time) float64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !now.After(b.last) {
		return b.tokens
	}
	return min(float64(b.cfg.Capacity), b.tokens+now.Sub(b.last).Seconds()*b.cfg.Rate)
}
