package distributed

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
	"github.com/ratelimit-course/ratelimit/core"
)

// Remote is the shared limiter the policy layer protects, typically one
// Redis script call (part 1's limiters fit as they are). It must return once
// ctx is done. With go-redis that takes three options: ContextTimeoutEnabled
// (the deadline reaches the socket), MaxRetries -1 (a retry would spend the
// deadline twice) and DialerRetries 1 (by default a refused dial is retried
// 5 times, 100 ms apart, so a dead Redis would cost every call its whole
// deadline instead of failing at once).
type Remote interface {
	AllowN(ctx context.Context, key string, cost int) (core.Decision, error)
}

// RemoteFunc adapts a function to Remote.
type RemoteFunc func(ctx context.Context, key string, cost int) (core.Decision, error)

// AllowN calls f.
func (f RemoteFunc) AllowN(ctx context.Context, key string, cost int) (core.Decision, error) {
	return f(ctx, key, cost)
}

// Mode is what an endpoint class does when the shared counter cannot answer.
type Mode int

const (
	// FailClosed refuses the request with ErrUnavailable. For endpoints an
	// attacker wants unlimited: login, one-time codes, password reset. A
	// short outage must not become an open door for credential stuffing.
	FailClosed Mode = iota + 1
	// FailOpen admits through a small per-node token bucket per key. For
	// ordinary reads, where refusing everyone hurts more than a bounded
	// excess; never unlimited, so an outage is not a free-for-all.
	FailOpen
	// LocalShare admits through a per-node bucket holding about the global
	// limit divided by the node count. For costly or billed calls: the fleet
	// together stays near the limit it pays for.
	LocalShare
)

func (m Mode) String() string {
	switch m {
	case FailClosed:
		return "fail-closed"
	case FailOpen:
		return "fail-open"
	case LocalShare:
		return "local-share"
	}
	return "unknown"
}

// ClassPolicy is one endpoint class's behaviour during an outage.
type ClassPolicy struct {
	Mode   Mode
	Bucket buckets.Config // the local bucket per key (FailOpen, LocalShare)
}

// ClosedPolicy is the fail-closed class.
func ClosedPolicy() ClassPolicy { return ClassPolicy{Mode: FailClosed} }

// OpenPolicy fails open through a local token bucket per key: during an
// outage one node admits at most Capacity + Rate × outage per key.
func OpenPolicy(bucket buckets.Config) ClassPolicy {
	return ClassPolicy{Mode: FailOpen, Bucket: bucket}
}

// SharePolicy fails over to a local bucket of floor(limit / nodes) permits
// (at least 1) refilled over window, so that nodes × local ≈ limit.
func SharePolicy(limit int, window time.Duration, nodes int) (ClassPolicy, error) {
	if limit < 1 {
		return ClassPolicy{}, core.BadParam("limit", limit, "an integer >= 1")
	}
	if window <= 0 {
		return ClassPolicy{}, core.BadParam("window", window, "a duration > 0")
	}
	if nodes < 1 {
		return ClassPolicy{}, core.BadParam("nodes", nodes, "an integer >= 1")
	}
	c := max(1, limit/nodes)
	return ClassPolicy{Mode: LocalShare, Bucket: buckets.Config{Capacity: c, Rate: float64(c) / window.Seconds()}}, nil
}

// ErrUnavailable is the fail-closed answer: the limiter cannot decide right
// now, so the request is refused. Serve it as a temporary error (503 with
// Retry-After), not as 429: the client did nothing wrong.
var ErrUnavailable = errors.New("rate limiter unavailable, try again shortly")

// Source says who made a decision.
type Source int

const (
	SourceRemote Source = iota + 1 // the shared counter answered
	SourceLocal                    // the local fallback bucket decided
	SourceNone                     // nobody could: fail-closed refusal
)

func (s Source) String() string {
	switch s {
	case SourceRemote:
		return "remote"
	case SourceLocal:
		return "local"
	case SourceNone:
		return "none"
	}
	return "unknown"
}

// Outcome is a Guard decision and where it came from.
type Outcome struct {
	core.Decision
	Source Source
}

// GuardConfig builds a Guard.
type GuardConfig struct {
	Remote  Remote
	Timeout time.Duration // deadline of one remote call, > 0; a few ms
	Breaker BreakerConfig
	Classes map[string]ClassPolicy // endpoint class name → policy
	// Now is the clock for the breaker and the local buckets; nil means
	// time.Now. The remote deadline always runs on real time.
	Now func() time.Time
}

// DefaultTimeout is a remote call's deadline when none is set: a Redis in
// the same zone answers in well under a millisecond, so 5 ms is generous
// and still small next to a request's own latency budget.
const DefaultTimeout = 5 * time.Millisecond

// Guard puts a failure policy in front of a shared limiter. Every call to
// the remote carries a deadline; a breaker stops calling a remote that keeps
// failing; while the remote cannot answer, each endpoint class falls back as
// its policy says. Safe for concurrent use.
type Guard struct {
	remote  Remote
	timeout time.Duration
	breaker *Breaker
	now     func() time.Time
	classes map[string]guardClass

	remoteCalls, remoteFailures, fallbacks, refusals atomic.Int64
}

type guardClass struct {
	mode  Mode
	local *core.Keyed[*buckets.TokenBucket] // nil for FailClosed
}

// NewGuard validates c and returns a Guard.
func NewGuard(c GuardConfig) (*Guard, error) {
	if c.Remote == nil {
		return nil, core.BadParam("remote", "nil", "a Remote limiter")
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	if c.Timeout < 0 {
		return nil, core.BadParam("timeout", c.Timeout, "a duration > 0 (a few ms)")
	}
	br, err := NewBreaker(c.Breaker)
	if err != nil {
		return nil, err
	}
	if len(c.Classes) == 0 {
		return nil, core.BadParam("classes", "none", "at least one endpoint class")
	}
	g := &Guard{remote: c.Remote, timeout: c.Timeout, breaker: br, now: c.Now, classes: map[string]guardClass{}}
	if g.now == nil {
		g.now = time.Now
	}
	for name, p := range c.Classes {
		gc := guardClass{mode: p.Mode}
		switch p.Mode {
		case FailClosed:
		case FailOpen, LocalShare:
			if gc.local, err = buckets.NewTokenBucketLimiter(p.Bucket); err != nil {
				return nil, fmt.Errorf("class %q: %w", name, err)
			}
		default:
			return nil, core.BadParam("mode", int(p.Mode), fmt.Sprintf("FailClosed, FailOpen or LocalShare (class %q)", name))
		}
		g.classes[name] = gc
	}
	return g, nil
}

// AllowN decides a request of the given cost for key in an endpoint class.
//
// While the breaker is closed it asks the remote under the deadline. If the
// remote fails, times out, or the breaker is open, the class policy decides:
// FailClosed returns ErrUnavailable (with RetryAfter set to the breaker's
// time to its next probe when known), the others consult the node's local
// bucket. A caller whose own ctx ends first gets ctx's error, and the
// breaker does not count it against Redis.
func (g *Guard) AllowN(ctx context.Context, class, key string, cost int) (Outcome, error) {
	gc, ok := g.classes[class]
	if !ok {
		return Outcome{}, core.BadParam("class", class, "an endpoint class given to NewGuard")
	}
	if g.breaker.Allow(g.now()) {
		g.remoteCalls.Add(1)
		cctx, cancel := context.WithTimeout(ctx, g.timeout)
		d, err := g.remote.AllowN(cctx, key, cost)
		cancel()
		if err == nil {
			g.breaker.Success()
			return Outcome{Decision: d, Source: SourceRemote}, nil
		}
		if ctx.Err() != nil {
			g.breaker.Abandon() // not Redis's fault
			return Outcome{}, ctx.Err()
		}
		var pe *core.ParamError
		if errors.As(err, &pe) {
			g.breaker.Abandon() // a bad request says nothing about the store
			return Outcome{}, err
		}
		g.remoteFailures.Add(1)
		g.breaker.Failure(g.now())
	}
	if gc.mode == FailClosed {
		g.refusals.Add(1)
		return Outcome{Decision: core.Decision{RetryAfter: g.breaker.RetryIn(g.now())}, Source: SourceNone}, ErrUnavailable
	}
	g.fallbacks.Add(1)
	d, err := gc.local.AllowN(key, g.now(), cost)
	if err != nil {
		return Outcome{}, err
	}
	return Outcome{Decision: d, Source: SourceLocal}, nil
}

// Allow is AllowN with cost 1.
func (g *Guard) Allow(ctx context.Context, class, key string) (Outcome, error) {
	return g.AllowN(ctx, class, key, 1)
}

// Breaker exposes the guard's breaker (to read its state).
func (g *Guard) Breaker() *Breaker { return g.breaker }

// GuardStats counts what a Guard has done.
type GuardStats struct {
	RemoteCalls    int64 // calls made to the remote
	RemoteFailures int64 // of which failed or timed out
	Fallbacks      int64 // decisions made by a local bucket
	Refusals       int64 // fail-closed refusals
}

// Stats reports the counters.
func (g *Guard) Stats() GuardStats {
	return GuardStats{
		RemoteCalls:    g.remoteCalls.Load(),
		RemoteFailures: g.remoteFailures.Load(),
		Fallbacks:      g.fallbacks.Load(),
		Refusals:       g.refusals.Load(),
	}
}
