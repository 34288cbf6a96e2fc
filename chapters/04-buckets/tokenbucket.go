//go:build !exercise

package buckets

import (
	"math"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// eps is the contract's tolerance (CONTRACT.md §1): holding cost - 1e-9
// tokens counts as holding cost, so a tie allows whatever rounding crept in.
const eps = 1e-9

// TokenBucket is a token bucket of size C, initially full and refilled at R
// tokens per second; a request of cost k is admitted iff the bucket holds k
// tokens, which it then spends, and goes upstream at once. As in
// golang.org/x/time/rate the tokens are a float64 and last starts at the
// zero time. Not safe for concurrent use; see NewTokenBucketLimiter.
type TokenBucket struct {
	capacity int
	rate     float64   // R, tokens per second
	tokens   float64   // as of last
	last     time.Time // the latest time seen
}

// NewTokenBucket returns a full bucket, or the configuration's *core.ParamError.
func NewTokenBucket(c Config) (*TokenBucket, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &TokenBucket{capacity: c.Capacity, rate: c.Rate, tokens: float64(c.Capacity)}, nil
}

// MaxCost is the capacity: a request costing more could never be admitted.
func (b *TokenBucket) MaxCost() int { return b.capacity }

// AllowN refills the bucket up to now and spends cost tokens if it holds
// them. Remaining is the whole tokens left; a rejection's RetryAfter is the
// wait until it holds cost, counted from the caller's now.
func (b *TokenBucket) AllowN(now time.Time, cost int) core.Decision {
	t := now
	if t.Before(b.last) { // decided at the latest time seen
		t = b.last
	}
	tokens := b.Tokens(t)
	if cost < 1 || cost > b.capacity {
		return core.Decision{Remaining: whole(tokens)}
	}
	b.tokens, b.last = tokens, t
	need := float64(cost)
	if tokens < need-eps {
		return core.Decision{Remaining: whole(tokens), RetryAfter: b.retryAfter(tokens, need) + t.Sub(now)}
	}
	b.tokens = max(0, tokens-need) // a tie a hair below cost leaves 0, not -1e-16
	return core.Decision{Allowed: true, Remaining: whole(b.tokens)}
}

// retryAfter is (need - tokens)/R rounded up to a whole nanosecond. The
// contract's time tolerance (1e-9 ms) comes off first so that float noise
// on an exact whole ns does not round up a step; the loop then checks it
// against the refill a later AllowN computes, so it is never early.
func (b *TokenBucket) retryAfter(tokens, need float64) time.Duration {
	d := time.Duration(math.Ceil((need-tokens)/b.rate*1e9 - 1e-3))
	for tokens+d.Seconds()*b.rate < need-eps {
		d++
	}
	return d
}

// Tokens reports the tokens held at now (at the latest time seen, if now is
// earlier), without changing the bucket.
func (b *TokenBucket) Tokens(now time.Time) float64 {
	if !now.After(b.last) {
		return b.tokens
	}
	return min(float64(b.capacity), b.tokens+now.Sub(b.last).Seconds()*b.rate)
}

// Idle reports whether the bucket is full again at now, the state of a key
// never seen (core.Idler).
func (b *TokenBucket) Idle(now time.Time) bool {
	return !now.Before(b.last) && b.Tokens(now) >= float64(b.capacity)
}

// State returns the tokens and the time of the last decision (the zero time
// and C tokens before the first).
func (b *TokenBucket) State() TokenState { return TokenState{Tokens: b.tokens, Last: b.last} }

// whole is the number of whole tokens in x >= 0, a tie counting as whole.
func whole(x float64) int { return int(x + eps) }
