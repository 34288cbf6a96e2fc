package distributed

import (
	"context"
	_ "embed"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	fixedwindow "github.com/ratelimit-course/ratelimit/chapters/02-fixed-window"
	sliding "github.com/ratelimit-course/ratelimit/chapters/03-sliding"
	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
	"github.com/ratelimit-course/ratelimit/core"
)

// The scripts. Each is one atomic step on the server: read, decide, write and
// set the expiry with nothing in between (E9). Each file holds its algorithm
// only: newScript puts scripts/prelude.lua in front of it, which declares the
// script's flags to Redis 7 (so Redis refuses it while out of memory, E20)
// and sets the local now from ARGV[1] or Redis TIME. go-redis's Script sends
// EVALSHA and falls back to EVAL the first time a server has not seen it.
// The token bucket's body comes from scripts/token_bucket.lua, or from the
// learner's exercise/token_bucket.lua under the exercise06 tag (script.go,
// exercise.go).
var (
	//go:embed scripts/prelude.lua
	prelude string
	//go:embed scripts/fixed_window.lua
	fixedWindowLua string
	//go:embed scripts/fixed_window_ttl.lua
	fixedWindowTTLLua string
	//go:embed scripts/sliding_log.lua
	slidingLogLua string
	//go:embed scripts/sliding_counter.lua
	slidingCounterLua string
	//go:embed scripts/gcra.lua
	gcraLua string

	fixedWindowScript    = newScript(fixedWindowLua)
	fixedWindowTTLScript = newScript(fixedWindowTTLLua)
	slidingLogScript     = newScript(slidingLogLua)
	slidingCounterScript = newScript(slidingCounterLua)
	tokenBucketScript    = newScript(tokenBucketLua)
	gcraScript           = newScript(gcraLua)
)

// newScript is a script body with the prelude in front.
func newScript(body string) *redis.Script { return redis.NewScript(prelude + body) }

// Key returns the Redis key of one identity's state: "rl:{id}:kind". The
// braces are a hash tag: Redis Cluster places a key by the text between them
// only, so every key of one identity lands in one slot and a script may touch
// several of them.
func Key(id, kind string) string {
	return "rl:{" + id + "}:" + kind
}

// Caps on what a caller sends. An id is at most MaxIDLen bytes, room for
// the longest key chapter 01 builds (an API key id of 64 bytes and a route
// of 256, 338 bytes written as netstrings): as chapter 01 caps the parts of
// its keys, so that a hostile value cannot become a megabyte of Redis key.
// A prefetch key is at most MaxKeyLen, an id's key with room for its kind.
// An explicit time (AllowNAt, Borrow) is at most MaxStampAhead ahead of the
// Redis server's clock: time never runs backwards for a key, so one stamp
// far ahead would hold the key there for every caller on the server's clock.
const (
	MaxIDLen      = 512
	MaxKeyLen     = MaxIDLen + 88
	MaxStampAhead = time.Minute
)

// checkID rejects an empty or over-long identity and one that would break
// the hash tag. Like chapter 01, it reports a long id's length, not its
// bytes.
func checkID(id string) error {
	if id == "" || len(id) > MaxIDLen {
		return core.BadParam("id", fmt.Sprintf("of %d bytes", len(id)), fmt.Sprintf("1 to %d bytes without { or }", MaxIDLen))
	}
	if strings.ContainsAny(id, "{}") {
		return core.BadParam("id", strconv.Quote(id), "a string without { or }")
	}
	return nil
}

// stampAhead is the prefix of the error the prelude returns for a time too
// far ahead of the server's clock; the rest is the server's time in ms.
const stampAhead = "STAMPAHEAD "

// stampError is the prelude's refusal of a far-future time as a
// ParamError naming the time, or nil if err is anything else.
func stampError(err error, nowMs int64) error {
	msg := err.Error()
	if !strings.HasPrefix(msg, stampAhead) {
		return nil
	}
	server, _ := strconv.ParseInt(strings.TrimPrefix(msg, stampAhead), 10, 64)
	return core.BadParam("time", time.UnixMilli(nowMs).UTC().Format(time.RFC3339Nano), fmt.Sprintf(
		"an instant at most %v ahead of the Redis server's clock (%s)", MaxStampAhead,
		time.UnixMilli(server).UTC().Format(time.RFC3339Nano)))
}

// WindowConfig configures the window algorithms: at most Limit cost units in
// any Window. SubWindows applies to the sliding counter only (0 means 1).
//
// Each algorithm accepts exactly what its chapter's Config accepts
// (fixedwindow.Config, sliding.Config: the course's domain, core/domain.go)
// and refuses with the same words, plus what the scripts need: a window of
// whole milliseconds, and for the sliding counter a limit small enough that
// Limit × the sub-window, counted in the script's units, is at most 2^51
// (its arithmetic stays exact in a Lua double). The sub-windows themselves
// are chapter 03's: N must divide W in ns, not in ms.
type WindowConfig struct {
	Window     time.Duration
	Limit      int
	SubWindows int
}

// BucketConfig configures the token bucket and GCRA: Capacity permits at most,
// refilled at Rate per second. It accepts exactly what buckets.Config
// accepts: capacity 1..1e9, a rate above 0 and at most 1e9 per second that
// refills a full bucket within 1e9 s.
type BucketConfig struct {
	Capacity int
	Rate     float64
}

// maxScaled bounds the sliding counter's largest product, L × w (w the
// sub-window in the script's units, counterUnits), so that every number its
// script computes (at most about 3 L w) is exact in a double (2^53).
const maxScaled = 1 << 51

// check validates a config of the fixed windows: chapter 02's rule, and whole ms.
func (c WindowConfig) check() error {
	if err := (fixedwindow.Config{Window: c.Window, Limit: c.Limit}).Validate(); err != nil {
		return err
	}
	return wholeMillis("window", c.Window)
}

// checkLog validates a sliding-log config: chapter 03's rule, and whole ms.
func (c WindowConfig) checkLog() error {
	if err := (sliding.Config{Window: c.Window, Limit: c.Limit, SubWindows: c.SubWindows}).Validate(); err != nil {
		return err
	}
	return wholeMillis("window", c.Window)
}

// checkCounter validates a sliding-counter config: the log's rule (which
// takes chapter 03's sub-windows: N divides W in ns), and a limit that keeps
// the script's arithmetic exact.
func (c WindowConfig) checkCounter() error {
	if err := c.checkLog(); err != nil {
		return err
	}
	d, w := counterUnits(c)
	if int64(c.Limit) > maxScaled/w {
		return core.BadParam("limit", c.Limit, fmt.Sprintf(
			"at most 2^51 / %d = %d (a sub-window of %v is %d units of 1/%d ms, and the script's arithmetic is exact up to 2^53)",
			w, maxScaled/w, c.Window/time.Duration(max(c.SubWindows, 1)), w, d))
	}
	return nil
}

// counterUnits is the sliding counter's clock: d units per ms and a
// sub-window of w whole units, the fraction W/N ms in lowest terms
// (W = 250 ms, N = 4: 62.5 ms = 125 units of 1/2 ms). A whole-ms sub-window
// has d = 1. The script counts time in these units, so every boundary falls
// on a whole number; d divides N, at most 1000, so a time up to 2200 in
// units stays below 2^53.
func counterUnits(c WindowConfig) (d, w int64) {
	n, ms := int64(max(c.SubWindows, 1)), c.Window.Milliseconds()
	g := gcd(ms, n)
	return n / g, ms / g
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// wholeMillis refuses a duration that is not a whole number of milliseconds:
// the scripts count time in ms.
func wholeMillis(param string, d time.Duration) error {
	if d%time.Millisecond != 0 {
		return core.BadParam(param, d, "a whole number of milliseconds (the Redis scripts count in ms)")
	}
	return nil
}

// check validates a bucket config: chapter 04's rule, nothing more.
func (c BucketConfig) check() error {
	return buckets.Config{Capacity: c.Capacity, Rate: c.Rate}.Validate()
}

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

	policy policyCheck // E20: decide only on a Redis that runs noeviction
}

// Allow decides one request of cost 1 for id, timed by the Redis server.
func (l *limiter) Allow(ctx context.Context, id string) (core.Decision, error) {
	d, _, err := l.decide(ctx, id, -1, 1)
	return d, err
}

// AllowN decides a request of the given cost for id, timed by the Redis
// server's TIME: every app node then agrees on the clock (E11).
func (l *limiter) AllowN(ctx context.Context, id string, cost int) (core.Decision, error) {
	d, _, err := l.decide(ctx, id, -1, cost)
	return d, err
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
	d, _, err := l.decide(ctx, id, now.UnixMilli(), cost)
	return d, err
}

// MaxCost is the largest cost one request may carry (the limit or capacity).
func (l *limiter) MaxCost() int { return l.max }

// decide runs the script; nowMs < 0 means Redis TIME. It also returns the
// time the script used, in ms. A Redis failure (an outage, an OOM refusal, a
// server that may evict the limiter's keys) is returned wrapped, never
// turned into a decision: failing open or closed is the caller's policy.
func (l *limiter) decide(ctx context.Context, id string, nowMs int64, cost int) (core.Decision, int64, error) {
	if err := checkID(id); err != nil {
		return core.Decision{}, 0, err
	}
	if err := core.CheckCost(cost, l.max); err != nil {
		return core.Decision{}, 0, err
	}
	// On first use, then every PolicyRecheck and after a failed call: a
	// constructor does not dial.
	if err := l.policy.ensure(ctx, l.rdb); err != nil {
		return core.Decision{}, 0, fmt.Errorf("distributed: %s for %q: %w", l.name, id, err)
	}
	args := make([]any, 0, 2+len(l.params))
	args = append(args, nowMs, cost)
	args = append(args, l.params...)
	res, err := l.script.Run(ctx, l.rdb, []string{Key(id, l.kind)}, args...).Int64Slice()
	if err != nil {
		if pe := stampError(err, nowMs); pe != nil {
			return core.Decision{}, 0, pe
		}
		l.policy.suspect()
		return core.Decision{}, 0, fmt.Errorf("distributed: %s script for %q: %w", l.name, id, err)
	}
	if len(res) != 4 {
		return core.Decision{}, 0, fmt.Errorf("distributed: %s script for %q: got %d values, want 4", l.name, id, len(res))
	}
	d := core.Decision{
		Allowed:    res[0] == 1,
		Remaining:  int(res[1]),
		RetryAfter: time.Duration(res[2]) * time.Millisecond,
	}
	return d, res[3], nil
}

// FixedWindow counts cost per (id, floor(now/W)) in one hash per identity
// holding the window id and its count; rejected requests count too. The
// window id comes from the server's clock, a new window starts the count
// over, and the key's expiry is set whenever it has none (E10).
type FixedWindow struct{ limiter }

// NewFixedWindow returns a fixed-window limiter on rdb (a client, a cluster
// client or a ring).
func NewFixedWindow(rdb redis.Scripter, cfg WindowConfig) (*FixedWindow, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	return &FixedWindow{limiter{rdb: rdb, script: fixedWindowScript, name: "fixed-window", kind: "fw",
		params: []any{cfg.Window.Milliseconds(), cfg.Limit}, max: cfg.Limit}}, nil
}

// FixedWindowTTL is the window opened by an identity's first request and
// closed by the key's expiry W later (CONTRACT.md, fixed-window-ttl): one counter per
// identity, INCRBY, and PEXPIRE whenever the key has no expiry. Time comes
// from Redis expiry, so AllowNAt's time is only reported, never used.
type FixedWindowTTL struct{ limiter }

// NewFixedWindowTTL returns a fixed-window-ttl limiter on rdb.
func NewFixedWindowTTL(rdb redis.Scripter, cfg WindowConfig) (*FixedWindowTTL, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	return &FixedWindowTTL{limiter{rdb: rdb, script: fixedWindowTTLScript, name: "fixed-window-ttl", kind: "fwt",
		params: []any{cfg.Window.Milliseconds(), cfg.Limit}, max: cfg.Limit}}, nil
}

// SlidingLog keeps one sorted-set entry per allowed request, scored by its
// time and carrying its cost: exact, and O(L) memory per key at worst (L
// requests of cost 1); a request of cost k is one entry whatever k is.
type SlidingLog struct{ limiter }

// NewSlidingLog returns a sliding-log limiter on rdb.
func NewSlidingLog(rdb redis.Scripter, cfg WindowConfig) (*SlidingLog, error) {
	if err := cfg.checkLog(); err != nil {
		return nil, err
	}
	return &SlidingLog{limiter{rdb: rdb, script: slidingLogScript, name: "sliding-log", kind: "log",
		params: []any{cfg.Window.Milliseconds(), cfg.Limit}, max: cfg.Limit}}, nil
}

// SlidingCounter weighs the oldest, partly covered sub-window by the fraction
// still inside the window: O(N) counters per key, an estimate not a count.
type SlidingCounter struct{ limiter }

// NewSlidingCounter returns a sliding-counter limiter on rdb.
func NewSlidingCounter(rdb redis.Scripter, cfg WindowConfig) (*SlidingCounter, error) {
	if err := cfg.checkCounter(); err != nil {
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
func NewTokenBucket(rdb redis.Scripter, cfg BucketConfig) (*TokenBucket, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	return &TokenBucket{limiter{rdb: rdb, script: tokenBucketScript, name: "token-bucket", kind: "tb",
		params: []any{cfg.Capacity, formatRate(cfg.Rate)}, max: cfg.Capacity}}, nil
}

// GCRA stores one instant per key, the theoretical arrival time.
type GCRA struct{ limiter }

// NewGCRA returns a GCRA limiter on rdb.
func NewGCRA(rdb redis.Scripter, cfg BucketConfig) (*GCRA, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	d, p := emissionInterval(cfg.Rate)
	return &GCRA{limiter{rdb: rdb, script: gcraScript, name: "gcra", kind: "gcra",
		params: []any{cfg.Capacity, d, formatRate(p)}, max: cfg.Capacity}}, nil
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

// formatRate sends the rate with every digit, so Lua sees the same float64.
func formatRate(r float64) string { return strconv.FormatFloat(r, 'g', -1, 64) }
