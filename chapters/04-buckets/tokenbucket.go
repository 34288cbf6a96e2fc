//go:build !exercise

package buckets

import (
	"math"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// TokenBucket is a token bucket of size C, initially full and refilled at R
// tokens per second; a request of cost k is admitted iff the bucket holds k
// tokens, which it then spends, and goes upstream at once. As in
// golang.org/x/time/rate the tokens are a float64. Not safe for concurrent
// use; see NewTokenBucketLimiter.
type TokenBucket struct {
	capacity int
	perNS    float64   // R/1e9, the tokens a nanosecond refills
	tokens   float64   // as of last
	last     time.Time // the latest time seen
}

// NewTokenBucket returns a full bucket, or the configuration's *core.ParamError.
func NewTokenBucket(c Config) (*TokenBucket, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &TokenBucket{capacity: c.Capacity, perNS: c.Rate / 1e9, tokens: float64(c.Capacity)}, nil
}

// MaxCost is the capacity: a request costing more could never be admitted.
func (b *TokenBucket) MaxCost() int { return b.capacity }

// AllowN refills the bucket up to now and spends cost tokens if it holds
// them; a rejection's RetryAfter is the wait until it does.
func (b *TokenBucket) AllowN(now time.Time, cost int) core.Decision {
	elapsed := now.Sub(b.last) // < 0: now is late, and decided at last
	tokens := b.refill(elapsed)
	if cost < 1 || cost > b.capacity {
		return core.Decision{Remaining: whole(tokens)}
	}
	b.tokens = tokens
	if elapsed > 0 {
		b.last = now
	}
	need := float64(cost)
	if tokens < need-core.Tolerance { // holding cost - 1e-9 is holding cost: a tie allows
		return core.Decision{Remaining: whole(tokens), RetryAfter: b.retryAfter(tokens, need) + max(0, -elapsed)}
	}
	b.tokens = max(0, tokens-need) // a tie a hair below cost leaves 0, not -1e-16
	return core.Decision{Allowed: true, Remaining: whole(b.tokens)}
}

// refill is what the bucket holds elapsed after last: min(C, tokens + R·elapsed),
// elapsed in ns times R per ns, one multiplication.
func (b *TokenBucket) refill(elapsed time.Duration) float64 {
	if elapsed <= 0 {
		return b.tokens
	}
	return min(float64(b.capacity), b.tokens+float64(elapsed)*b.perNS)
}

// retryAfter is (need - tokens)/R in ns rounded up, less tolNS so float noise
// on a whole ns adds none; the loop checks it with the refill's arithmetic,
// the one the retry computes, so it is never early.
func (b *TokenBucket) retryAfter(tokens, need float64) time.Duration {
	d := time.Duration(math.Ceil((need-tokens)/b.perNS - tolNS))
	for tokens+float64(d)*b.perNS < need-core.Tolerance {
		d++
	}
	return d
}

// Refund gives n >= 1 tokens back at now, after refilling as AllowN does,
// never past the capacity: the undo of a spend, as x/time/rate's
// Reservation.CancelAt (chapter 09's Budget settles a reservation with it).
func (b *TokenBucket) Refund(now time.Time, n int) {
	if n < 1 {
		return
	}
	elapsed := now.Sub(b.last)
	b.tokens = min(float64(b.capacity), b.refill(elapsed)+float64(n))
	if elapsed > 0 {
		b.last = now
	}
}

// Tokens reports the tokens held at now (at the latest time seen, if now is
// earlier), without changing the bucket.
func (b *TokenBucket) Tokens(now time.Time) float64 { return b.refill(now.Sub(b.last)) }

// Idle reports whether the bucket is full again at now, the state of a key
// never seen (core.Idler).
func (b *TokenBucket) Idle(now time.Time) bool {
	return !now.Before(b.last) && b.Tokens(now) >= float64(b.capacity)
}

// State returns the tokens and the time of the last decision (the zero time
// and C tokens before the first).
func (b *TokenBucket) State() TokenState { return TokenState{Tokens: b.tokens, Last: b.last} }

// whole is the number of whole tokens in x >= 0, a tie counting as whole.
func whole(x float64) int { return int(x + core.Tolerance) }
