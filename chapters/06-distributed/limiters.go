package distributed

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	fixedwindow "github.com/ratelimit-course/ratelimit/chapters/02-fixed-window"
	sliding "github.com/ratelimit-course/ratelimit/chapters/03-sliding"
	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
	"github.com/ratelimit-course/ratelimit/core"
)

// limiter is what every algorithm shares: a script, the kind of key it owns,
// and the parameters passed after the time and the cost. It holds no state of
// its own, so every limiter is safe for concurrent use by any number of
// goroutines and app nodes: all the state is in Redis.
type limiter struct {
	rdb    redis.Scripter
	script *redis.Script
	name   string
	kind   string
	params []any
	max    int
	// counts says the script returns only {count, retry_after_ms}, the cost
	// counted in the window with this request's included: the decision
	// follows from the limit (max), so the script needs neither the limit nor
	// a longer reply. Every other script returns {allowed, remaining,
	// retry_after_ms}.
	counts bool

	policy policyCheck // E20: decide only on a Redis that runs noeviction
}

// Allow decides one request of cost 1 for id, timed by the Redis server.
func (l *limiter) Allow(ctx context.Context, id string) (core.Decision, error) {
	return l.decide(ctx, id, -1, 1)
}

// AllowN decides a request of the given cost for id, timed by the Redis
// server's TIME: every app node then agrees on the clock (E11).
func (l *limiter) AllowN(ctx context.Context, id string, cost int) (core.Decision, error) {
	return l.decide(ctx, id, -1, cost)
}

// Peek reports what id has left now without deciding a request: the script
// runs with a cost of 0, which each one answers from the state as it stands
// and counts nothing (a fixed window's count past its limit, left by
// refusals, reads as not allowed). It is the check that Envoy's rate limit
// protocol asks for with a descriptor's hits_addend of 0.
func (l *limiter) Peek(ctx context.Context, id string) (core.Decision, error) {
	if err := checkID(id); err != nil {
		return core.Decision{}, err
	}
	return l.run(ctx, id, -1, 0)
}

// AllowNAt is AllowN at an explicit time, in whole milliseconds, inside
// the course's domain (core.CheckTime: 1970 to 2200) and at most
// MaxStampAhead ahead of the Redis server's clock (a later time is a
// ParamError naming it, and writes nothing). It exists so that tests can replay a
// sequence and compare with the in-memory chapters; production code lets
// Redis read its own clock. As in chapters 02–04, time never runs backwards
// for a key: a time earlier than one the key has seen is decided at that
// latest time, and RetryAfter still counts from the time given. Expiry runs
// on the server's clock whatever the time given, and is never longer than
// the state's lifetime measured from the key's latest time.
func (l *limiter) AllowNAt(ctx context.Context, id string, now time.Time, cost int) (core.Decision, error) {
	if err := core.CheckTime(now); err != nil {
		return core.Decision{}, err
	}
	return l.decide(ctx, id, now.UnixMilli(), cost)
}

// MaxCost is the largest cost one request may carry (the limit or capacity).
func (l *limiter) MaxCost() int { return l.max }

// decide runs the script; nowMs < 0 means Redis TIME. A Redis failure (an
// outage, an OOM refusal, a server that may evict the limiter's keys) is
// returned wrapped, never turned into a decision: failing open or closed is
// the caller's policy.
func (l *limiter) decide(ctx context.Context, id string, nowMs int64, cost int) (core.Decision, error) {
	if err := checkID(id); err != nil {
		return core.Decision{}, err
	}
	if err := core.CheckCost(cost, l.max); err != nil {
		return core.Decision{}, err
	}
	return l.run(ctx, id, nowMs, cost)
}

// run runs the script for a checked id and cost (0: Peek's look).
func (l *limiter) run(ctx context.Context, id string, nowMs int64, cost int) (core.Decision, error) {
	// On first use, then every PolicyRecheck and after a failed call: a
	// constructor does not dial.
	if err := l.policy.ensure(ctx, l.rdb); err != nil {
		return core.Decision{}, fmt.Errorf("distributed: %s for %q: %w", l.name, id, err)
	}
	c := &call{keys: [1]string{Key(id, l.kind)}, args: [2 + maxParams]any{serverClock, cost}}
	if nowMs >= 0 {
		c.args[0] = nowMs
	}
	n := 2 + copy(c.args[2:], l.params)
	res, err := l.script.Run(ctx, l.rdb, c.keys[:], c.args[:n]...).Int64Slice()
	if err != nil {
		if pe := stampError(err, nowMs); pe != nil {
			return core.Decision{}, pe
		}
		l.policy.suspect()
		return core.Decision{}, fmt.Errorf("distributed: %s script for %q: %w", l.name, id, err)
	}
	d, err := l.read(res)
	if err != nil {
		return core.Decision{}, fmt.Errorf("distributed: %s script for %q: %w", l.name, id, err)
	}
	return d, nil
}

// call is one script call's key and arguments in a single allocation (go-redis
// copies both before Run returns); maxParams is the most parameters a
// limiter passes after the time and the cost (the sliding counter's four).
type call struct {
	keys [1]string
	args [2 + maxParams]any
}

const maxParams = 4

// serverClock is the time argument -1, "Redis TIME", boxed once: an int64
// outside 0-255 put in an interface is otherwise allocated on every call.
var serverClock any = int64(-1)

// read turns a script's reply into its decision.
func (l *limiter) read(res []int64) (core.Decision, error) {
	want := 3
	if l.counts {
		want = 2
	}
	if len(res) != want {
		return core.Decision{}, fmt.Errorf("got %d values, want %d", len(res), want)
	}
	if l.counts {
		// An INCRBY-style counter admits while the count is within the limit.
		limit := int64(l.max)
		d := core.Decision{Allowed: res[0] <= limit, Remaining: int(max(0, limit-res[0]))}
		if !d.Allowed {
			d.RetryAfter = time.Duration(res[1]) * time.Millisecond
		}
		return d, nil
	}
	return core.Decision{
		Allowed:    res[0] == 1,
		Remaining:  int(res[1]),
		RetryAfter: time.Duration(res[2]) * time.Millisecond,
	}, nil
}

// FixedWindow counts cost per (id, floor(now/W)) in one hash per identity
// holding the window id and its count; rejected requests count too. The
// window id comes from the server's clock, a new window starts the count
// over, and the key's expiry is set whenever it has none (E10).
type FixedWindow struct{ limiter }

// NewFixedWindow returns a fixed-window limiter on rdb (a client, a cluster
// client or a ring).
func NewFixedWindow(rdb redis.Scripter, cfg fixedwindow.Config) (*FixedWindow, error) {
	if err := checkFixed(cfg); err != nil {
		return nil, err
	}
	return &FixedWindow{limiter{rdb: rdb, script: fixedWindowScript, name: "fixed-window", kind: "fw",
		params: []any{cfg.Window.Milliseconds()}, max: cfg.Limit, counts: true}}, nil
}

// FixedWindowTTL is the window opened by an identity's first request and
// closed by the key's expiry W later (CONTRACT.md, fixed-window-ttl): one counter per
// identity, INCRBY, and PEXPIRE whenever the key has no expiry. Time comes
// from Redis expiry, so the script never calls TIME, and AllowNAt's time is
// only checked against MaxStampAhead and reported, never used.
type FixedWindowTTL struct{ limiter }

// NewFixedWindowTTL returns a fixed-window-ttl limiter on rdb.
func NewFixedWindowTTL(rdb redis.Scripter, cfg fixedwindow.Config) (*FixedWindowTTL, error) {
	if err := checkFixed(cfg); err != nil {
		return nil, err
	}
	return &FixedWindowTTL{limiter{rdb: rdb, script: fixedWindowTTLScript, name: "fixed-window-ttl", kind: "fwt",
		params: []any{cfg.Window.Milliseconds()}, max: cfg.Limit, counts: true}}, nil
}

// SlidingLog keeps one sorted-set entry per allowed request, scored by its
// time and carrying its cost: exact, and O(L) memory per key at worst (L
// requests of cost 1); a request of cost k is one entry whatever k is.
type SlidingLog struct{ limiter }

// NewSlidingLog returns a sliding-log limiter on rdb.
func NewSlidingLog(rdb redis.Scripter, cfg sliding.Config) (*SlidingLog, error) {
	if err := checkLog(cfg); err != nil {
		return nil, err
	}
	return &SlidingLog{limiter{rdb: rdb, script: slidingLogScript, name: "sliding-log", kind: "log",
		params: []any{cfg.Window.Milliseconds(), cfg.Limit}, max: cfg.Limit}}, nil
}

// SlidingCounter weighs the oldest, partly covered sub-window by the fraction
// still inside the window: O(N) counters per key, an estimate not a count.
type SlidingCounter struct{ limiter }

// NewSlidingCounter returns a sliding-counter limiter on rdb.
func NewSlidingCounter(rdb redis.Scripter, cfg sliding.Config) (*SlidingCounter, error) {
	if err := checkCounter(cfg); err != nil {
		return nil, err
	}
	n := max(cfg.SubWindows, 1)
	d, _ := counterUnits(cfg)
	return &SlidingCounter{limiter{rdb: rdb, script: slidingCounterScript, name: "sliding-counter", kind: "sc",
		params: []any{cfg.Window.Milliseconds(), cfg.Limit, n, d}, max: cfg.Limit}}, nil
}

// TokenBucket stores (tokens, last refill) and spends cost tokens per request.
type TokenBucket struct{ limiter }

// NewTokenBucket returns a token-bucket limiter on rdb.
func NewTokenBucket(rdb redis.Scripter, cfg buckets.Config) (*TokenBucket, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &TokenBucket{limiter{rdb: rdb, script: tokenBucketScript, name: "token-bucket", kind: "tb",
		params: []any{cfg.Capacity, formatRate(cfg.Rate), expiryMs(float64(cfg.Capacity) * 1000 / cfg.Rate)},
		max:    cfg.Capacity}}, nil
}

// GCRA stores one instant per key, the theoretical arrival time.
type GCRA struct{ limiter }

// NewGCRA returns a GCRA limiter on rdb.
func NewGCRA(rdb redis.Scripter, cfg buckets.Config) (*GCRA, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	d, p := emissionInterval(cfg.Rate)
	return &GCRA{limiter{rdb: rdb, script: gcraScript, name: "gcra", kind: "gcra",
		params: []any{cfg.Capacity, d, formatRate(p), expiryMs(float64(cfg.Capacity) * p / float64(d))},
		max:    cfg.Capacity}}, nil
}

// emissionInterval writes T = 1000/rate ms as p/d with d a whole number up
// to 1000 and p, if it can, a whole number too (rate 3: 1000/3, rate 2.5:
// 400/1). The GCRA script counts time in units of 1/d ms, so for such rates
// its arithmetic is on whole numbers and exact however long TAT keeps
// growing; adding a fractional T to a float would instead gain an error on
// every request and, after about an hour of requests above the rate, turn
// an exact tie into a rejection. Other rates get d = 1 and p = T.
func emissionInterval(rate float64) (d int, p float64) {
	for d := 1; d <= 1000; d++ {
		p := 1000 * float64(d) / rate
		if p == math.Trunc(p) && p*rate == 1000*float64(d) && p < 1<<40 {
			return d, p
		}
	}
	return 1, 1000 / rate
}

// expiryMs is a bucket's expiry in whole ms, ms rounded up, as the digits
// PEXPIRE takes: the scripts would otherwise compute and format it on every
// decision. The arithmetic is the one Lua would do, in the same float64s.
func expiryMs(ms float64) string { return strconv.FormatFloat(math.Ceil(ms), 'f', 0, 64) }

// formatRate sends the rate with every digit, so Lua sees the same float64.
func formatRate(r float64) string { return strconv.FormatFloat(r, 'g', -1, 64) }
