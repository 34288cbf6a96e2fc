package overload

import (
	"errors"
	"fmt"
	"sync"
	"time"

	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
	"github.com/ratelimit-course/ratelimit/core"
)

// Budget is a token bucket of size C, initially full and refilled at R per
// second, from which a request reserves its worst-case cost before it starts
// (an LLM call: its input plus the most output it may produce) and, when it
// ends, settles what it really used: the unused tokens go back, up to C.
// Reserving the maximum is what keeps concurrent requests from overdrawing;
// the refund is what keeps the maximum from wasting the budget. The bucket
// is chapter 04's (its Config, its refill, its RetryAfter, which is never
// early), with its Refund; Budget adds the lock and the reservations. Safe
// for concurrent use.
type Budget struct {
	mu     sync.Mutex
	bucket *buckets.TokenBucket
}

// Reservation is what one admitted request holds until it settles.
type Reservation struct {
	cost    int
	settled bool
}

// NewBudget returns a full budget, or the configuration's *core.ParamError.
func NewBudget(c buckets.Config) (*Budget, error) {
	b, err := buckets.NewTokenBucket(c)
	if err != nil {
		return nil, err
	}
	return &Budget{bucket: b}, nil
}

// Reserve takes cost tokens at now if the bucket holds them and returns the
// reservation; otherwise a nil reservation and a rejection whose RetryAfter
// is the wait until cost tokens are back (a 429: this key asked too much). A
// cost outside [1, C] is rejected with RetryAfter 0, as core.Algorithm does.
func (b *Budget) Reserve(now time.Time, cost int) (*Reservation, core.Decision) {
	b.mu.Lock()
	defer b.mu.Unlock()
	d := b.bucket.AllowN(now, cost)
	if !d.Allowed {
		return nil, d
	}
	return &Reservation{cost: cost}, d
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
	b.bucket.Refund(now, r.cost-used)
	return nil
}

// Tokens reports the tokens held at now (at the latest time seen, if now is
// earlier), without changing the budget.
func (b *Budget) Tokens(now time.Time) float64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.bucket.Tokens(now)
}
