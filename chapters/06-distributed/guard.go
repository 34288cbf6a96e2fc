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
// Redis script call (part 1's limiters fit as they are). The Guard owns the
// deadline: it stops waiting when the deadline passes, whatever the client
// does. A client that also honours ctx frees its connection at that moment
// instead of later; with go-redis that takes ContextTimeoutEnabled (the
// deadline reaches the socket), MaxRetries -1 (a retry would spend the
// deadline twice) and DialerRetries 1 (by default a refused dial is retried
// 5 times, 100 ms apart).
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
	// FailOpen admits through small per-node token buckets: one per key and
	// one for the whole class. For ordinary reads, where refusing everyone
	// hurts more than a bounded excess; never unlimited, so an outage is not
	// a free-for-all, not even for a client that invents a new key per request.
	FailOpen
	// LocalShare admits through a per-node bucket per key holding about the
	// global limit divided by the node count, and the class bucket. For
	// costly or billed calls: the fleet together stays near the limit it
	// pays for.
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
	Mode Mode
	// Bucket is the local bucket per key (FailOpen, LocalShare).
	Bucket buckets.Config
	// Node is the one bucket for the whole class on this node, which every
	// local admission also spends from: at least Bucket's capacity. It bounds
	// what the node admits during an outage whatever keys arrive.
	Node buckets.Config
	// MaxKeys is how many keys' buckets the node keeps (0: DefaultMaxKeys);
	// the one unused longest makes room for a new key.
	MaxKeys int
}

// ClosedPolicy is the fail-closed class.
func ClosedPolicy() ClassPolicy { return ClassPolicy{Mode: FailClosed} }

// OpenPolicy fails open through a local token bucket per key and a bucket
// node for the whole class: during an outage of length D one node admits at
// most perKey's Capacity + Rate × D per key, and node's Capacity + Rate × D
// in all.
func OpenPolicy(perKey, node buckets.Config) ClassPolicy {
	return ClassPolicy{Mode: FailOpen, Bucket: perKey, Node: node}
}

// SharePolicy fails over to a local bucket per key of floor(limit / nodes)
// permits (at least 1) refilled over window, so that nodes × local ≈ limit,
// and the class bucket node.
func SharePolicy(limit int, window time.Duration, nodes int, node buckets.Config) (ClassPolicy, error) {
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
	return ClassPolicy{Mode: LocalShare, Bucket: buckets.Config{Capacity: c, Rate: float64(c) / window.Seconds()}, Node: node}, nil
}

// ErrUnavailable is the fail-closed answer: the limiter cannot decide right
// now, so the request is refused. Serve it as a temporary error (503 with
// Retry-After), not as 429: the client did nothing wrong.
var ErrUnavailable = errors.New("rate limiter unavailable, try again shortly")

// MinRetryAfter is the shortest RetryAfter a fail-closed refusal carries.
// Retry-After counts whole seconds, and 0 would send every refused client
// straight back into the outage; it is also what a refusal says before the
// breaker has opened, or while its probe is out, when nobody knows better.
const MinRetryAfter = time.Second

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
	// Remote is the limiter AllowN asks. It may be nil when every call
	// names its own with AllowOn (one Guard in front of a store of many
	// limiters: chapter 10 has one per rule).
	Remote  Remote
	Timeout time.Duration // deadline of one remote call, > 0; a few ms
	// Patience, if > 0, is how long the remote may be silent (answer no
	// call at all) before a call past its Timeout gives up: a call that
	// waits while others are answered is in its caller's queue, not on a
	// dead store. 0: a call fails at its Timeout.
	Patience time.Duration
	Breaker  BreakerConfig
	Classes  map[string]ClassPolicy // endpoint class name → policy
	// Clock runs the breaker's cool-down, the local buckets, and the
	// deadline and patience of each remote call; nil means the wall clock
	// (core.RealClock). Under a test's fake clock the Guard's own timer
	// enforces the deadline; the context handed to the remote keeps a real
	// one (maxWait) for its client's sockets.
	Clock core.Clock
}

// DefaultTimeout is a remote call's deadline when none is set: a Redis in
// the same zone answers in well under a millisecond, so 5 ms is generous
// and still small next to a request's own latency budget.
const DefaultTimeout = 5 * time.Millisecond

// Guard puts a failure policy in front of a shared limiter. Every call to
// the remote runs under a deadline the Guard enforces itself; a breaker stops
// calling a remote that keeps failing; while the remote cannot answer, each
// endpoint class falls back as its policy says. Safe for concurrent use.
type Guard struct {
	store   guarded
	remote  Remote
	clock   core.Clock
	classes map[string]guardClass

	fallbacks, refusals atomic.Int64
}

type guardClass struct {
	mode  Mode
	local *fallback // nil for FailClosed
}

// NewGuard validates c and returns a Guard.
func NewGuard(c GuardConfig) (*Guard, error) {
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	if c.Timeout < 0 {
		return nil, core.BadParam("timeout", c.Timeout, "a duration > 0 (a few ms)")
	}
	if c.Patience < 0 {
		return nil, core.BadParam("patience", c.Patience, "a duration >= 0 (0: none)")
	}
	br, err := NewBreaker(c.Breaker)
	if err != nil {
		return nil, err
	}
	if len(c.Classes) == 0 {
		return nil, core.BadParam("classes", "none", "at least one endpoint class")
	}
	if c.Clock == nil {
		c.Clock = core.RealClock()
	}
	g := &Guard{store: guarded{breaker: br, timeout: c.Timeout, patience: c.Patience, clock: c.Clock}, remote: c.Remote, clock: c.Clock,
		classes: map[string]guardClass{}}
	for name, p := range c.Classes {
		gc := guardClass{mode: p.Mode}
		switch p.Mode {
		case FailClosed:
		case FailOpen, LocalShare:
			if gc.local, err = newClassFallback(p); err != nil {
				return nil, fmt.Errorf("class %q: %w", name, err)
			}
		default:
			return nil, core.BadParam("mode", int(p.Mode), fmt.Sprintf("FailClosed, FailOpen or LocalShare (class %q)", name))
		}
		g.classes[name] = gc
	}
	return g, nil
}

func newClassFallback(p ClassPolicy) (*fallback, error) {
	if err := p.Bucket.Validate(); err != nil {
		return nil, err
	}
	if err := p.Node.Validate(); err != nil {
		return nil, fmt.Errorf("node bucket: %w", err)
	}
	if p.Node.Capacity < p.Bucket.Capacity {
		return nil, core.BadParam("node capacity", p.Node.Capacity,
			fmt.Sprintf("at least the per-key capacity (%d)", p.Bucket.Capacity))
	}
	if p.MaxKeys == 0 {
		p.MaxKeys = DefaultMaxKeys
	}
	if err := core.CheckCount("max keys", p.MaxKeys); err != nil {
		return nil, err
	}
	return newFallback(p.Bucket, p.Node, p.MaxKeys)
}

// AllowN decides a request of the given cost for key in an endpoint class.
//
// While the breaker is closed it asks the remote, and stops waiting at the
// deadline. If the remote fails, misses the deadline, or the breaker is
// open, the class policy decides: FailClosed returns ErrUnavailable with
// RetryAfter set to the breaker's time to its next probe, and never less
// than MinRetryAfter; the others consult the node's local buckets. A caller
// whose own ctx ends first gets ctx's error, and the breaker does not count
// it against Redis.
func (g *Guard) AllowN(ctx context.Context, class, key string, cost int) (Outcome, error) {
	if g.remote == nil {
		return Outcome{}, core.BadParam("remote", "nil", "a Remote in GuardConfig, or a call through AllowOn")
	}
	return g.AllowOn(ctx, g.remote, class, key, cost)
}

// AllowOn is AllowN asking remote instead of the Guard's own Remote: the
// same deadline, breaker and class policies in front of whichever limiter
// this call needs. The breaker judges the store they share, not one limiter.
func (g *Guard) AllowOn(ctx context.Context, remote Remote, class, key string, cost int) (Outcome, error) {
	gc, ok := g.classes[class]
	if !ok {
		return Outcome{}, core.BadParam("class", class, "an endpoint class given to NewGuard")
	}
	d, err := do(&g.store, ctx, func(ctx context.Context) (core.Decision, error) {
		return remote.AllowN(ctx, key, cost)
	})
	if !errors.Is(err, ErrUnavailable) {
		if err != nil {
			return Outcome{}, err
		}
		return Outcome{Decision: d, Source: SourceRemote}, nil
	}
	if gc.mode == FailClosed {
		g.refusals.Add(1)
		wait := max(MinRetryAfter, g.store.breaker.RetryIn(g.clock.Now()))
		return Outcome{Decision: core.Decision{RetryAfter: wait}, Source: SourceNone}, err
	}
	g.fallbacks.Add(1)
	if cost == 0 { // a look (Peek): nothing to spend, and nothing known
		return Outcome{Decision: core.Decision{Allowed: true}, Source: SourceLocal}, nil
	}
	d, err = gc.local.AllowN(key, g.clock.Now(), cost)
	if err != nil {
		return Outcome{}, err
	}
	return Outcome{Decision: d, Source: SourceLocal}, nil
}

// Allow is AllowN with cost 1.
func (g *Guard) Allow(ctx context.Context, class, key string) (Outcome, error) {
	return g.AllowN(ctx, class, key, 1)
}

// Breaker exposes the guard's breaker: to read its state, and to hand to a
// PrefetchNode that borrows from the same Redis.
func (g *Guard) Breaker() *Breaker { return g.store.breaker }

// GuardStats counts what a Guard has done.
type GuardStats struct {
	RemoteCalls    int64 // calls made to the remote
	RemoteFailures int64 // of which failed or missed the deadline
	Fallbacks      int64 // decisions made by a local bucket
	Refusals       int64 // fail-closed refusals
}

// Stats reports the counters.
func (g *Guard) Stats() GuardStats {
	return GuardStats{
		RemoteCalls:    g.store.calls.Load(),
		RemoteFailures: g.store.failures.Load(),
		Fallbacks:      g.fallbacks.Load(),
		Refusals:       g.refusals.Load(),
	}
}
