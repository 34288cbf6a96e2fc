//go:build exercise

package buckets

// This file replaces tokenbucket.go, gcra.go and leakyqueue.go when you build
// with -tags exercise (make exercise CH=04). Fill in the three types and
// their constructors; the chapter's tests then check your code against the
// worked examples, GCRA ≡ token bucket, and golang.org/x/time/rate.
//
// Hints: call c.Validate() first; keep time as int64 nanoseconds
// (now.UnixNano()); see the README for the rules. T = 1/R is often not a
// whole number of nanoseconds (R = 3): rounding it once makes TAT drift
// (TestLeakyQueueDeparturesExactAtFractionalInterval), so carry the fraction;
// nanos.go's interval(c.Rate) and its add/sub/times do exactly that. A now
// earlier than the latest seen is decided at the latest, but RetryAfter and
// Wait count from the caller's now (core.Algorithm; TestTimeGoingBackwards).

import (
	"errors"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

func todo(what string) error {
	return errors.New("exercise: implement " + what + " in chapters/04-buckets/exercise.go — see README")
}

// TokenBucket: starts full (C tokens), refills R per second up to C, admits
// cost k iff tokens >= k (1e-9 tolerance), then spends k.
type TokenBucket struct{}

func NewTokenBucket(c Config) (*TokenBucket, error) {
	return nil, todo("NewTokenBucket (token-bucket)")
}

func (b *TokenBucket) AllowN(now time.Time, cost int) core.Decision { return core.Decision{} }
func (b *TokenBucket) MaxCost() int                                 { return 0 }
func (b *TokenBucket) Tokens(now time.Time) float64                 { return 0 }
func (b *TokenBucket) State() TokenState                            { return TokenState{} }

// GCRA: TAT starts at the first arrival; TAT = max(TAT, now); reject iff
// TAT + (k-1)T - now > tau, else TAT += kT.
type GCRA struct{}

func NewGCRA(c Config) (*GCRA, error) {
	return nil, todo("NewGCRA (gcra)")
}

func (g *GCRA) AllowN(now time.Time, cost int) core.Decision { return core.Decision{} }
func (g *GCRA) MaxCost() int                                 { return 0 }
func (g *GCRA) State() GCRAState                             { return GCRAState{} }

// LeakyQueue: GCRA's test; an allowed request departs at max(TAT, now)
// (Wait = departure - now) and TAT = departure + kT.
type LeakyQueue struct{}

func NewLeakyQueue(c Config) (*LeakyQueue, error) {
	return nil, todo("NewLeakyQueue (leaky-queue)")
}

func (q *LeakyQueue) AllowN(now time.Time, cost int) core.Decision { return core.Decision{} }
func (q *LeakyQueue) MaxCost() int                                 { return 0 }
func (q *LeakyQueue) State() QueueState                            { return QueueState{} }
