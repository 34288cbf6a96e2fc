//go:build exercise

package buckets

// This file replaces tokenbucket.go, gcra.go and leakyqueue.go when you build
// with -tags exercise (make exercise CH=04). Fill in the three types and
// their constructors; the chapter's tests then check your code against the
// worked examples, GCRA ≡ token bucket and golang.org/x/time/rate. README.md
// has each rule as a Go snippet and the test that pins it.
//
// Hints for all three:
//   - Start every constructor with `if err := c.Validate(); err != nil`.
//     Inside the domain it checks (C up to 1e9, R up to 1e9 per second, a
//     full refill within 1e9 s, instants 1970 to 2200) the plain arithmetic
//     below is enough: no overflow guards, no big numbers.
//   - Keep instants as time.Time and gaps as time.Duration (now.Sub(last),
//     base.Add(d), now.Before(last)), not as int64 Unix nanoseconds.
//   - A now earlier than the latest time seen is decided at the latest time
//     seen, and RetryAfter and Wait still count from the caller's own now
//     (add latest.Sub(now)): TestTimeGoingBackwards.
//   - A cost outside [1, C] is rejected with RetryAfter 0 and changes
//     nothing: TestCostOutOfRange.
//   - Floats compare with the contract's tolerance so that a tie allows:
//     1e-9 tokens, or 1e-3 ns of time.

import (
	"errors"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

func todo(what string) error {
	return errors.New("exercise: implement " + what + " in chapters/04-buckets/exercise.go — see README")
}

// TokenBucket: C tokens at first, refilled at R per second up to C; cost k
// is admitted iff tokens >= k - 1e-9, then spends k (max(0, tokens-k)).
//
// TODO fields: capacity, rate, tokens float64, last time.Time (left at the
// zero time: the first refill, from year 1, clamps at C, so no "seen" flag).
// TODO AllowN: t := the later of now and last; tokens at t =
// min(C, tokens + t.Sub(last).Seconds()*R); Remaining = int(tokens + 1e-9).
// RetryAfter = (k - tokens)/R rounded up to a whole ns, with 1e-3 ns taken
// off before rounding up (float noise must not add a ns); then, while a
// refill of that long still leaves tokens < k - 1e-9, add 1 ns (never early).
// Tokens(now) is the refill without changing anything; State is {tokens, last}.
type TokenBucket struct{}

// NewTokenBucket returns a full bucket, or c.Validate()'s error.
func NewTokenBucket(c Config) (*TokenBucket, error) {
	return nil, todo("NewTokenBucket (token-bucket)")
}

// AllowN refills the bucket up to now and spends cost tokens if it holds them.
func (b *TokenBucket) AllowN(now time.Time, cost int) core.Decision { return core.Decision{} }

// MaxCost is C: a request costing more could never be admitted.
func (b *TokenBucket) MaxCost() int { return 0 }

// Tokens reports the tokens held at now, without changing the bucket.
func (b *TokenBucket) Tokens(now time.Time) float64 { return 0 }

// State returns the tokens and the time of the last decision.
func (b *TokenBucket) State() TokenState { return TokenState{} }

// Refund is not part of the exercise and no test of this chapter calls it:
// chapter 09's Budget gives tokens back with it, and runs on the reference
// bucket. Leave it empty.
func (b *TokenBucket) Refund(now time.Time, n int) {}

// GCRA: TAT = max(TAT, now), TAT starting at the first arrival; cost k is
// rejected iff TAT + (k-1)·T - now > tau, else TAT += k·T. T = 1e9/R ns.
//
// Do not keep TAT as a number of ns with T rounded and added up: at R = 3,
// T is 333 333 333.33… ns and the rounding drifts
// (TestNoDriftOverAMillionPermits). Keep TAT = base + n·T: a base
// time.Time and a count n of intervals, with n·T computed in one step,
// float64(n)*1e9/R ns.
//
// TODO fields: capacity, rate, last, base time.Time, n int64.
// TODO AllowN: t := the later of now and last; elapsed := float64(t.Sub(base));
// if n·T <= elapsed { base, n, elapsed = t, 0, 0 } (TAT has passed: TAT = now).
// over := (n + k - C)·T - elapsed (that is TAT + (k-1)·T - now - tau);
// reject iff over > 1e-3, with RetryAfter = ceil(over - 1e-3) ns; else n += k.
// Remaining = C - n + floor((elapsed + 1e-3)·R/1e9), kept within [0, C].
// State().TAT = base + round(n·T) ns (the zero time before the first request).
type GCRA struct{}

// NewGCRA returns a GCRA that has seen no request, or c.Validate()'s error.
func NewGCRA(c Config) (*GCRA, error) {
	return nil, todo("NewGCRA (gcra)")
}

// AllowN admits a request of cost at now iff TAT + (cost-1)·T - now <= tau.
func (g *GCRA) AllowN(now time.Time, cost int) core.Decision { return core.Decision{} }

// MaxCost is C: a request costing more could never be admitted.
func (g *GCRA) MaxCost() int { return 0 }

// State returns TAT, the zero time before the first request.
func (g *GCRA) State() GCRAState { return GCRAState{} }

// LeakyQueue: GCRA's test, but an admitted request departs at max(TAT, now)
// and waits until then: Wait = departure - now.
//
// TODO fields: a GCRA (the meter) and the departures still waiting.
// TODO AllowN: run the meter; if allowed, departure = base + round((n-k)·T)
// ns with the meter's base and n after it admitted (the TAT before this
// request, or t itself after a rebase), Wait = departure.Sub(now). Keep
// the departures later than t, oldest first, for State().Queue: drop those
// at or before t on every admissible call (a bad cost touches nothing), and
// reuse the slice (a head index or a ring) so that a steady stream allocates
// nothing. State().TAT is the meter's; State().Queue is nil when nothing
// waits. Apart from Wait, the Decision is the meter's.
type LeakyQueue struct{}

// NewLeakyQueue returns an empty queue, or c.Validate()'s error.
func NewLeakyQueue(c Config) (*LeakyQueue, error) {
	return nil, todo("NewLeakyQueue (leaky-queue)")
}

// AllowN decides as GCRA does and, when it admits, sets Wait until the
// request departs.
func (q *LeakyQueue) AllowN(now time.Time, cost int) core.Decision { return core.Decision{} }

// MaxCost is C, the queue's depth.
func (q *LeakyQueue) MaxCost() int { return 0 }

// State returns TAT and a copy of the departures still waiting.
func (q *LeakyQueue) State() QueueState { return QueueState{} }
