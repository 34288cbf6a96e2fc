package distributed

import (
	"context"
	_ "embed"
	"fmt"
	"sync"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
	"github.com/redis/go-redis/v9"
)

//go:embed scripts/prefetch_borrow.lua
var borrowLua string

// borrowScript runs through EVALSHA, falling back to EVAL (and loading it)
// the first time a server has not seen it; the prelude (newScript) reads
// the time from ARGV[1].
var borrowScript = newScript(borrowLua)

// BorrowConfig is one shared limit that nodes draw on in batches. It
// accepts the course's domain (core/domain.go), as every Config does.
type BorrowConfig struct {
	Key    string        // Redis key of the limit; use a hash tag, e.g. rl:{user-7}:prefetch
	Limit  int           // permits per window, 1..1e9
	Batch  int           // permits a node takes per round trip, 1..1e9 (1 = one call per request)
	Window time.Duration // window width, a whole number of ms from 1 ms to 1e18 ns
}

// Validate reports the first bad field as a *core.ParamError: the domain's
// count for the limit and the batch, its window in whole ms (the script
// counts in ms). Inside it the script's numbers (at most 2e9 permits, 1e12
// ms) are exact in a Lua double.
func (c BorrowConfig) Validate() error {
	if c.Key == "" || len(c.Key) > MaxKeyLen {
		return core.BadParam("key", fmt.Sprintf("of %d bytes", len(c.Key)), fmt.Sprintf("a Redis key of 1 to %d bytes", MaxKeyLen))
	}
	if err := core.CheckCount("limit", c.Limit); err != nil {
		return err
	}
	if err := core.CheckCount("batch", c.Batch); err != nil {
		return err
	}
	if err := core.CheckWindow("window", c.Window); err != nil {
		return err
	}
	return wholeMillis("window", c.Window)
}

// Grant is one answer of the borrow script.
type Grant struct {
	Granted   int           // permits handed to the caller
	Remaining int           // permits the window still has
	TTL       time.Duration // time left in the window
}

// Borrow asks the centre for up to Batch permits of the window containing
// now, in one atomic script call. The zero now means "use the Redis server's
// clock"; tests pass explicit times to make windows deterministic. A
// config outside the domain (Validate) is refused before any command.
//
// The script writes limiter state, so Borrow keeps the E20 rule: it runs
// CheckNoEviction first, on every call (one CONFIG GET more), and returns
// its error, wrapping ErrMayEvict, instead of a grant. A PrefetchNode checks
// as the limiters do and borrows without it.
func Borrow(ctx context.Context, rdb redis.Scripter, c BorrowConfig, now time.Time) (Grant, error) {
	if err := c.Validate(); err != nil {
		return Grant{}, err
	}
	if err := CheckNoEviction(ctx, rdb); err != nil {
		return Grant{}, fmt.Errorf("distributed: borrow from %q: %w", c.Key, err)
	}
	return borrow(ctx, rdb, c, now)
}

// borrow is Borrow without the policy check: one script call.
func borrow(ctx context.Context, rdb redis.Scripter, c BorrowConfig, now time.Time) (Grant, error) {
	nowMS := int64(-1)
	if !now.IsZero() {
		nowMS = now.UnixMilli()
	}
	vals, err := borrowScript.Run(ctx, rdb, []string{c.Key},
		nowMS, c.Limit, c.Batch, c.Window.Milliseconds()).Int64Slice()
	if err != nil {
		if pe := stampError(err, nowMS); pe != nil {
			return Grant{}, pe
		}
		return Grant{}, err
	}
	if len(vals) != 3 {
		return Grant{}, fmt.Errorf("borrow script returned %d values, want 3", len(vals))
	}
	return Grant{Granted: int(vals[0]), Remaining: int(vals[1]), TTL: time.Duration(vals[2]) * time.Millisecond}, nil
}

// PrefetchNode is one application node's side of local quota prefetch: it
// spends permits it holds without talking to Redis, and borrows a batch when
// it runs out. Safe for concurrent use by the goroutines of one node.
//
// A node drops whatever it holds when the window ends, so that held permits
// never leak into the next window. It measures the end from the moment it
// sent the borrow (sent + ttl), which is never later than the server's end:
// the node may drop permits a little early, never late.
//
// Once the centre reports the window drained, the node rejects locally until
// the window ends instead of paying a round trip to hear "no" again.
//
// One borrow is in flight at a time: requests that find the node empty while
// it is out wait for its answer (or for their own ctx) rather than borrow
// again and strand more quota. No lock is held across the round trip, and
// every borrow runs under a deadline and through a breaker (NodeOptions), so
// a frozen Redis costs a request at most the deadline.
//
// Like every limiter, a node borrows only from a Redis that runs noeviction
// (E20, CheckNoEviction), checked before its first borrow, again every
// PolicyRecheck and after a failed borrow: on any other policy each borrow fails with an
// error wrapping ErrMayEvict (and ErrUnavailable), and the endpoint's
// failure policy decides.
type PrefetchNode struct {
	rdb   redis.Scripter
	cfg   BorrowConfig
	store guarded

	policy policyCheck // E20: borrow only from a Redis that runs noeviction

	mu         sync.Mutex
	held       int
	drained    bool
	until      time.Time     // end of the window the held permits belong to
	borrowing  chan struct{} // closed when the borrow in flight returns; nil if none
	roundTrips int64
	borrowed   int64
}

// NodeOptions are how a PrefetchNode calls Redis.
type NodeOptions struct {
	// Timeout is one borrow's deadline (0: DefaultTimeout).
	Timeout time.Duration
	// Breaker decides whether to call Redis at all. Pass the node's
	// Guard.Breaker() so that one verdict about Redis covers both; nil gives
	// the node a breaker of its own (3 failures, 1 s cool-down).
	Breaker *Breaker
	// Clock runs the breaker, the borrow's deadline and Allow's expiry of
	// held permits (nil: core.RealClock).
	Clock core.Clock
}

// NewPrefetchNode returns a node drawing on the limit c in Redis rdb.
func NewPrefetchNode(rdb redis.Scripter, c BorrowConfig, o NodeOptions) (*PrefetchNode, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if o.Timeout == 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Timeout < 0 {
		return nil, core.BadParam("timeout", o.Timeout, "a duration > 0 (a few ms)")
	}
	if o.Breaker == nil {
		o.Breaker, _ = NewBreaker(BreakerConfig{Failures: 3, Cooldown: time.Second})
	}
	if o.Clock == nil {
		o.Clock = core.RealClock()
	}
	return &PrefetchNode{rdb: rdb, cfg: c, store: guarded{breaker: o.Breaker, timeout: o.Timeout, clock: o.Clock}}, nil
}

// Allow decides one request using the Redis server's clock for the window
// and the local clock to expire what the node holds. The error wraps
// ErrUnavailable when the node holds nothing and cannot borrow: the breaker
// is open, or Redis failed or missed the deadline. The caller then applies
// the endpoint's failure policy.
func (n *PrefetchNode) Allow(ctx context.Context) (bool, error) {
	return n.allow(ctx, n.store.clock.Now(), false)
}

// AllowAt decides one request at an explicit time, used both for the window
// id in Redis and for the node's own expiry: deterministic for tests.
func (n *PrefetchNode) AllowAt(ctx context.Context, now time.Time) (bool, error) {
	return n.allow(ctx, now, true)
}

// allow is Allow and AllowAt: explicit says whether now also names the
// window in Redis, or the server's clock does.
func (n *PrefetchNode) allow(ctx context.Context, now time.Time, explicit bool) (bool, error) {
	n.mu.Lock()
	for {
		if !now.Before(n.until) {
			n.held, n.drained = 0, false // the window these belonged to is over
		}
		switch {
		case n.held > 0:
			n.held--
			n.mu.Unlock()
			return true, nil
		case n.drained:
			n.mu.Unlock()
			return false, nil
		case n.borrowing != nil: // another request is asking: wait for its answer
			wait := n.borrowing
			n.mu.Unlock()
			select {
			case <-wait:
			case <-ctx.Done():
				return false, ctx.Err()
			}
			n.mu.Lock()
			continue
		}
		done := make(chan struct{})
		n.borrowing = done
		n.mu.Unlock()
		at := time.Time{}
		if explicit {
			at = now
		}
		g, err := n.borrowGuarded(ctx, at)
		n.mu.Lock()
		n.borrowing = nil
		close(done)
		if err != nil {
			n.mu.Unlock()
			return false, err
		}
		n.roundTrips++
		n.borrowed += int64(g.Granted)
		n.held += g.Granted
		n.drained = g.Remaining == 0
		n.until = now.Add(g.TTL)
		ok := n.held > 0
		if ok {
			n.held--
		}
		n.mu.Unlock()
		return ok, nil
	}
}

// borrowGuarded makes the node's one borrow, called with no lock held: it
// runs under the node's deadline and breaker, checks the eviction policy
// first and marks it for a recheck when the borrow fails. The zero at
// means the Redis server's clock. A *core.ParamError comes back as it is,
// not as ErrUnavailable.
func (n *PrefetchNode) borrowGuarded(ctx context.Context, at time.Time) (Grant, error) {
	return do(&n.store, ctx, func(ctx context.Context) (Grant, error) {
		if err := n.policy.ensure(ctx, n.rdb); err != nil {
			return Grant{}, fmt.Errorf("distributed: prefetch from %q: %w", n.cfg.Key, err)
		}
		g, err := borrow(ctx, n.rdb, n.cfg, at)
		if err != nil {
			n.policy.suspect()
		}
		return g, err
	})
}

// NodeStats is what a node has done so far.
type NodeStats struct {
	RoundTrips int64 // borrow calls that reached Redis
	Borrowed   int64 // permits received
	Held       int   // permits held right now (stranded if the window ends)
}

// Stats reports the node's counters.
func (n *PrefetchNode) Stats() NodeStats {
	n.mu.Lock()
	defer n.mu.Unlock()
	return NodeStats{RoundTrips: n.roundTrips, Borrowed: n.borrowed, Held: n.held}
}
