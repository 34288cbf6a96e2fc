package distributed

import (
	"sync"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// BreakerState is where a circuit breaker stands.
type BreakerState int

const (
	// BreakerClosed: calls go to Redis as usual.
	BreakerClosed BreakerState = iota
	// BreakerOpen: Redis kept failing; nobody calls it until the cool-down
	// has passed, so a dead Redis costs requests nothing, not a timeout each.
	BreakerOpen
	// BreakerHalfOpen: the cool-down has passed and one probe call is in
	// flight; everyone else still takes the fallback until it answers.
	BreakerHalfOpen
)

func (s BreakerState) String() string {
	switch s {
	case BreakerClosed:
		return "closed"
	case BreakerOpen:
		return "open"
	case BreakerHalfOpen:
		return "half-open"
	}
	return "unknown"
}

// BreakerConfig tunes a Breaker.
type BreakerConfig struct {
	// Failures is how many calls in a row must fail before the breaker opens,
	// >= 1. One slow call is noise; several in a row mean Redis is down.
	Failures int
	// Cooldown is how long the breaker stays open before it lets one probe
	// through, > 0.
	Cooldown time.Duration
}

// Validate reports the first bad field as a *core.ParamError.
func (c BreakerConfig) Validate() error {
	if c.Failures < 1 {
		return core.BadParam("failures", c.Failures, "an integer >= 1")
	}
	if c.Cooldown <= 0 {
		return core.BadParam("cooldown", c.Cooldown, "a duration > 0")
	}
	return nil
}

// Breaker is a circuit breaker for calls to a shared store. It is safe for
// concurrent use. Time comes from the caller, like everywhere in the course,
// so tests drive it with a fake clock.
//
// Usage: ask Allow before a call; if it says yes, report the outcome with
// Success or Failure; if it says no, do not call and take the fallback.
type Breaker struct {
	cfg BreakerConfig

	mu       sync.Mutex
	state    BreakerState
	failures int       // consecutive failures while closed
	retryAt  time.Time // when an open breaker lets a probe through
}

// NewBreaker returns a closed breaker.
func NewBreaker(c BreakerConfig) (*Breaker, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &Breaker{cfg: c}, nil
}

// Allow reports whether the caller may call the store at now. When an open
// breaker's cool-down has passed, exactly one caller is let through as the
// probe and the breaker turns half-open.
func (b *Breaker) Allow(now time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch b.state {
	case BreakerClosed:
		return true
	case BreakerOpen:
		if now.Before(b.retryAt) {
			return false
		}
		b.state = BreakerHalfOpen
		return true
	}
	return false // half-open: the probe is already out
}

// Success records a call that answered: the breaker closes.
func (b *Breaker) Success() {
	b.mu.Lock()
	b.state, b.failures = BreakerClosed, 0
	b.mu.Unlock()
}

// Failure records a call that failed or timed out at now. A failed probe
// opens the breaker again for a full cool-down.
func (b *Breaker) Failure(now time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.state == BreakerClosed {
		b.failures++
		if b.failures < b.cfg.Failures {
			return
		}
	}
	b.state, b.failures = BreakerOpen, 0
	b.retryAt = now.Add(b.cfg.Cooldown)
}

// Abandon records a call that ended without telling anything about the
// store (the caller gave up first). A probe's slot is handed back so that the
// next caller probes instead; a closed breaker is left as it is.
func (b *Breaker) Abandon() {
	b.mu.Lock()
	if b.state == BreakerHalfOpen {
		b.state = BreakerOpen // retryAt has passed: the next Allow probes
	}
	b.mu.Unlock()
}

// State reports the breaker's state.
func (b *Breaker) State() BreakerState {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.state
}

// RetryIn is how long until an open breaker will probe again, measured from
// now (0 unless open). The fail-closed path offers it as Retry-After.
func (b *Breaker) RetryIn(now time.Time) time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.state != BreakerOpen || !now.Before(b.retryAt) {
		return 0
	}
	return b.retryAt.Sub(now)
}
