package distributed

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
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
// the ticket it gave (Success, Failure or Abandon); if it says no, do not
// call and take the fallback. A ticket belongs to the breaker's state at the
// moment the call began: once the breaker has changed state (opened, turned
// half-open, closed again), outcomes reported with an older ticket are
// ignored. A slow call that began before an outage and succeeds during it
// says nothing about Redis now, and must not close the breaker.
type Breaker struct {
	cfg BreakerConfig

	mu       sync.Mutex
	state    BreakerState
	failures int       // consecutive failures while closed
	retryAt  time.Time // when an open breaker lets a probe through
	period   Ticket    // counts changes of state
}

// Ticket names the breaker period in which a call began.
type Ticket uint64

// NewBreaker returns a closed breaker.
func NewBreaker(c BreakerConfig) (*Breaker, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &Breaker{cfg: c}, nil
}

// set changes state and starts a new period, so that outcomes of calls
// begun in the old one no longer count.
func (b *Breaker) set(s BreakerState) { b.state, b.failures, b.period = s, 0, b.period+1 }

// Allow reports whether the caller may call the store at now, and the ticket
// to report the outcome with. When an open breaker's cool-down has passed,
// exactly one caller is let through as the probe and the breaker turns
// half-open.
func (b *Breaker) Allow(now time.Time) (Ticket, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch b.state {
	case BreakerClosed:
		return b.period, true
	case BreakerOpen:
		if now.Before(b.retryAt) {
			return 0, false
		}
		b.set(BreakerHalfOpen)
		return b.period, true
	}
	return 0, false // half-open: the probe is already out
}

// Success records a call that answered: the breaker closes.
func (b *Breaker) Success(t Ticket) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case t != b.period: // began before the breaker last changed: stale
	case b.state == BreakerHalfOpen:
		b.set(BreakerClosed)
	default:
		b.failures = 0
	}
}

// Failure records a call that failed or timed out at now. A failed probe
// opens the breaker again for a full cool-down.
func (b *Breaker) Failure(t Ticket, now time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if t != b.period {
		return
	}
	if b.state == BreakerClosed {
		b.failures++
		if b.failures < b.cfg.Failures {
			return
		}
	}
	b.set(BreakerOpen)
	b.retryAt = now.Add(b.cfg.Cooldown)
}

// Abandon records a call that ended without telling anything about the
// store (the caller gave up first). A probe's slot is handed back so that the
// next caller probes instead; a closed breaker is left as it is.
func (b *Breaker) Abandon(t Ticket) {
	b.mu.Lock()
	if t == b.period && b.state == BreakerHalfOpen {
		b.set(BreakerOpen) // retryAt has passed: the next Allow probes
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
// now (0 unless open).
func (b *Breaker) RetryIn(now time.Time) time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.state != BreakerOpen || !now.Before(b.retryAt) {
		return 0
	}
	return b.retryAt.Sub(now)
}

// guarded is how a node calls the shared store: under a deadline it owns and
// through a breaker. The Guard and a PrefetchNode that talk to the same
// Redis can share one breaker, so that one verdict about the store covers
// every call made to it.
type guarded struct {
	breaker *Breaker
	timeout time.Duration
	// patience is how long the store may be silent before a waiting call
	// gives up (0: a call fails at its deadline whatever the store does).
	patience        time.Duration
	clock           core.Clock // the breaker's, the deadline's and the patience's
	calls, failures atomic.Int64
	answered        atomic.Int64 // clock time (Unix ns) of the store's latest answer
}

// silent reports whether the store has answered nothing for patience,
// counted from the later of its last answer and since (the call's start).
// With no patience a call fails at its first deadline, answered or not.
func (g *guarded) silent(since int64) bool {
	return g.patience == 0 || g.clock.Now().UnixNano()-max(g.answered.Load(), since) >= int64(g.patience)
}

// maxWait bounds a call that a live store keeps from its answer (its caller
// set no deadline of its own).
const maxWait = 30 * time.Second

// do runs fn, one call to the store, through the breaker and under the
// deadline. fn runs on a goroutine of its own, and do returns when fn does or
// when the deadline passes, whichever comes first, so no client setting can
// hold a decision past its deadline: go-redis without ContextTimeoutEnabled
// waits for its ReadTimeout (3 s by default) on a frozen server, and retries
// a refused dial 5 times. A call abandoned at the deadline finishes on its
// own and its answer is dropped; the breaker has counted it as a failure.
// The deadline and the patience are timers on g.clock, so a test steps them;
// the context fn gets keeps a real deadline (maxWait), a backstop for a
// client's sockets that no fake clock can move.
//
// With patience, the deadline judges the store, not the caller's place in
// a queue. Under load a call can spend its whole deadline waiting behind
// other calls (in a shared pipeline, for a CPU) while Redis answers each in
// microseconds; to call that a dead store would open the breaker and hand
// every decision to the failure mode exactly when limiting matters most. So
// at each deadline do asks how long the store has been silent, counted from
// the later of its last answer (to any call) and this call's start: a call
// fails once that silence reaches patience, and otherwise waits on, until it
// is answered or its caller gives up (maxWait at most). A store that hangs
// costs the calls then in flight a patience each; three of them open the
// breaker, and the calls after it take the failure mode at once.
//
// The error is ErrUnavailable (wrapping the cause) when the breaker is open
// or the store failed or missed the deadline; ctx's error when the caller
// gave up first; a *core.ParamError as it came (a bad request says nothing
// about the store).
func do[T any](g *guarded, ctx context.Context, fn func(context.Context) (T, error)) (T, error) {
	var zero T
	ticket, ok := g.breaker.Allow(g.clock.Now())
	if !ok {
		return zero, ErrUnavailable
	}
	g.calls.Add(1)
	since := g.clock.Now().UnixNano()
	cctx, cancel := context.WithTimeout(ctx, max(g.timeout, maxWait))
	defer cancel() // also tells an abandoned call to stop, if its client listens
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1) // buffered: an abandoned call never blocks
	go func() {
		v, err := fn(cctx)
		if err == nil {
			g.answered.Store(g.clock.Now().UnixNano())
		}
		done <- result{v, err}
	}()
	deadline := g.clock.NewTimer(g.timeout)
	defer deadline.Stop()
	var r result
wait:
	for {
		select {
		case r = <-done:
			break wait
		case <-cctx.Done():
			r.err = cctx.Err()
			break wait
		case <-deadline.Chan():
			if g.silent(since) {
				r.err = context.DeadlineExceeded // slow or down
				break wait
			}
			deadline.Reset(g.timeout)
		}
	}
	var pe *core.ParamError
	switch {
	case r.err == nil:
		g.breaker.Success(ticket)
		return r.v, nil
	case ctx.Err() != nil:
		g.breaker.Abandon(ticket) // the caller gave up: not the store's fault
		return zero, ctx.Err()
	case errors.As(r.err, &pe):
		g.breaker.Abandon(ticket)
		return zero, r.err
	}
	g.failures.Add(1)
	g.breaker.Failure(ticket, g.clock.Now())
	return zero, fmt.Errorf("%w: %w", ErrUnavailable, r.err)
}
