//go:build !exercise

package buckets

import (
	"math"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// eps is the float tolerance of CONTRACT.md §1: a bucket holding cost - 1e-9 tokens
// is treated as holding cost, so an exact tie allows as exact arithmetic
// would, whatever rounding the refill picked up on the way.
const eps = 1e-9

// TokenBucket stores permits. It starts full (C tokens on first sight),
// refills at R per second up to C, and admits a request of cost k iff it holds
// at least k tokens, which the request then spends. An admitted request goes
// upstream at once: a full bucket lets C requests through in the same instant.
//
// Tokens are a float64, as in golang.org/x/time/rate. That is exact enough
// while a float64 near C resolves finer than the 1e-9 tolerance (C below
// about 2^23); for buckets of tens of millions of permits and more, a tie
// and Remaining can come out one rounding step off. GCRA makes the same
// decisions in exact fixed point at any capacity.
//
// Not safe for concurrent use; see NewTokenBucketLimiter.
type TokenBucket struct {
	capacity int
	c, rate  float64 // capacity as a float, refills per second
	tokens   float64 // as of last
	last     int64   // Unix ns of the latest time seen
	seen     bool
}

// NewTokenBucket returns a full token bucket, or the configuration's
// *core.ParamError.
func NewTokenBucket(c Config) (*TokenBucket, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &TokenBucket{capacity: c.Capacity, c: float64(c.Capacity), rate: c.Rate}, nil
}

// MaxCost is the capacity: a request costing more could never be admitted.
func (b *TokenBucket) MaxCost() int { return b.capacity }

// at returns the tokens held at t (Unix ns) and the time they refer to, which
// is t unless t is earlier than a time already seen.
func (b *TokenBucket) at(t int64) (float64, int64) {
	if !b.seen {
		return b.c, t
	}
	if t <= b.last {
		return b.tokens, b.last
	}
	// Multiply before dividing: for an integer rate the product is exact and
	// the one rounding happens in the division.
	// t > last, so the unsigned gap is exact even across centuries.
	tokens := b.tokens + float64(uint64(t-b.last))*b.rate/nsPerSecond
	if tokens > b.c {
		tokens = b.c
	}
	return tokens, t
}

// AllowN refills the bucket up to now and spends cost tokens if it holds
// them. Remaining is the whole tokens left; a rejection's RetryAfter is the
// shortest delay after which the bucket holds cost tokens.
func (b *TokenBucket) AllowN(now time.Time, cost int) core.Decision {
	ns := now.UnixNano()
	tokens, t := b.at(ns)
	// A now earlier than the latest time seen is decided then; the caller
	// counts RetryAfter from its own now, so the gap is added back.
	late := time.Duration(t - ns)
	if cost < 1 || cost > b.capacity {
		return core.Decision{Remaining: whole(tokens)}
	}
	b.last, b.seen = t, true
	need := float64(cost)
	if tokens >= need-eps {
		tokens -= need
		if tokens < 0 { // a tie that rounding put a hair below cost
			tokens = 0
		}
		b.tokens = tokens
		return core.Decision{Allowed: true, Remaining: whole(tokens)}
	}
	b.tokens = tokens
	return core.Decision{Remaining: whole(tokens), RetryAfter: b.retryAfter(tokens, need) + late}
}

// retryAfter is how long until the bucket, now holding tokens, holds need:
// the exact (need - tokens)/R rounded up to a whole nanosecond. The closed
// form is shaved by a thousandth of a nanosecond so that float noise around
// a whole number does not round it up a step; the loop then settles it
// against the very expression a later AllowN evaluates, so the answer is
// never early. (Being exact, it can be up to 1/R ns later than the first
// instant the 1e-9 tolerance would already admit: at most 1 ns for R >= 1.)
func (b *TokenBucket) retryAfter(tokens, need float64) time.Duration {
	d := int64(math.Ceil((need-tokens)*nsPerSecond/b.rate - 1e-3))
	for d < 1 || tokens+float64(d)*b.rate/nsPerSecond < need-eps {
		d++
	}
	return time.Duration(d)
}

// Tokens reports how many tokens the bucket holds at now, without changing it.
func (b *TokenBucket) Tokens(now time.Time) float64 {
	tokens, _ := b.at(now.UnixNano())
	return tokens
}

// Idle reports whether the bucket has refilled to C by now, the state of a
// key never seen (core.Idler).
func (b *TokenBucket) Idle(now time.Time) bool {
	t := now.UnixNano()
	if !b.seen {
		return true
	}
	if t < b.last {
		return false
	}
	tokens, _ := b.at(t)
	return tokens >= b.c
}

// State returns the tokens and the time of the last decision.
func (b *TokenBucket) State() TokenState {
	if !b.seen {
		return TokenState{Tokens: b.c}
	}
	return TokenState{Tokens: b.tokens, Last: time.Unix(0, b.last)}
}

// whole is the number of whole permits in x >= 0, a tie counting as whole.
func whole(x float64) int { return int(x + eps) }
