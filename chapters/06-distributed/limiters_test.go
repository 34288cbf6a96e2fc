package distributed

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/internal/redistest"
)

// base is an epoch-ms origin aligned to whole seconds, so that the worked
// examples' windows (floor(t/W)) line up with the contract's.
const base = int64(1_700_000_000_000)

// decider is what every script-backed limiter offers.
type decider interface {
	AllowNAt(ctx context.Context, id string, now time.Time, cost int) (core.Decision, error)
	AllowN(ctx context.Context, id string, cost int) (core.Decision, error)
}

// replay runs arrivals (ms from base, cost 1) for one id and returns "AAR…".
func replay(t *testing.T, l decider, id string, arrivals ...int64) (string, []core.Decision) {
	t.Helper()
	var b strings.Builder
	var ds []core.Decision
	for _, a := range arrivals {
		d, err := l.AllowNAt(context.Background(), id, time.UnixMilli(base+a), 1)
		require.NoError(t, err)
		ds = append(ds, d)
		if d.Allowed {
			b.WriteByte('A')
		} else {
			b.WriteByte('R')
		}
	}
	return b.String(), ds
}

// ok unwraps a call that the test expects to succeed; a failure (a bad
// configuration in the test, or Redis going away) stops the test with a panic.
func ok[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

var (
	w3   = WindowConfig{Window: time.Second, Limit: 3}
	c3r3 = BucketConfig{Capacity: 3, Rate: 3}
	c3r2 = BucketConfig{Capacity: 3, Rate: 2}
	c6r2 = BucketConfig{Capacity: 6, Rate: 2}
)

// TestWorkedExamplesOnRedis replays CONTRACT.md E1 and E3–E6 through the scripts with
// explicit times and checks the contract's decisions, remaining permits and
// retry delays.
func TestWorkedExamplesOnRedis(t *testing.T) {
	rdb := redistest.Client(t)
	e1 := []int64{820, 880, 940, 960, 1000, 1060, 1120, 1850}
	tests := []struct {
		name      string
		limiter   decider
		arrivals  []int64
		want      string
		remaining []int
		retryMs   []int64 // per request; 0 when allowed
	}{
		{"E1/fixed-window", ok(NewFixedWindow(rdb, w3)), e1, "AAARAAAR",
			[]int{2, 1, 0, 0, 2, 1, 0, 0}, []int64{0, 0, 0, 40, 0, 0, 0, 150}},
		{"E1/sliding-log", ok(NewSlidingLog(rdb, w3)), e1, "AAARRRRA",
			[]int{2, 1, 0, 0, 0, 0, 0, 0}, []int64{0, 0, 0, 860, 820, 760, 700, 0}},
		{"E3/sliding-counter", ok(NewSlidingCounter(rdb, w3)), []int64{0, 10, 20, 1200, 1220, 1240}, "AAAARR",
			// estimates 2.40 / 3.34 / 3.28; at 1220 the estimate drops below 3
			// once 3*(1000-e)/1000 + 1 < 3, e > 333.3: at 1334 (114 ms).
			[]int{2, 1, 0, 0, 0, 0}, []int64{0, 0, 0, 0, 114, 94}},
		{"E4/sliding-counter", ok(NewSlidingCounter(rdb, w3)), []int64{970, 980, 990, 1500, 1510, 1520}, "AAAAAR",
			[]int{2, 1, 0, 1, 0, 0}, nil},
		{"E4/sliding-log", ok(NewSlidingLog(rdb, w3)), []int64{970, 980, 990, 1500, 1510, 1520}, "AAARRR",
			nil, []int64{0, 0, 0, 470, 460, 450}},
		{"E5/token-bucket", ok(NewTokenBucket(rdb, c3r3)), []int64{0, 0, 0, 334, 667}, "AAAAA",
			[]int{2, 1, 0, 0, 0}, nil},
		{"E6/token-bucket", ok(NewTokenBucket(rdb, c3r2)), []int64{0, 10, 20, 30}, "AAAR",
			// the 4th finds 0.06 tokens: (1 - 0.06) / 2 per s = 470 ms
			[]int{2, 1, 0, 0}, []int64{0, 0, 0, 470}},
		{"E6/gcra", ok(NewGCRA(rdb, c3r2)), []int64{0, 10, 20, 30}, "AAAR",
			[]int{2, 1, 0, 0}, []int64{0, 0, 0, 470}},
		{"E6/token-bucket-C6", ok(NewTokenBucket(rdb, c6r2)), []int64{0, 10, 20, 30}, "AAAA", nil, nil},
		{"E6/gcra-C6", ok(NewGCRA(rdb, c6r2)), []int64{0, 10, 20, 30}, "AAAA", nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ds := replay(t, tc.limiter, redistest.ID(t), tc.arrivals...)
			require.Equal(t, tc.want, got)
			for i, d := range ds {
				if tc.remaining != nil {
					require.Equal(t, tc.remaining[i], d.Remaining, "remaining after request %d", i+1)
				}
				if tc.retryMs != nil {
					require.Equal(t, time.Duration(tc.retryMs[i])*time.Millisecond, d.RetryAfter, "retry after request %d", i+1)
				}
			}
		})
	}
}

// TestWeightedCost: a token bucket spends cost tokens (E16: upload 5, read 1).
func TestWeightedCost(t *testing.T) {
	rdb := redistest.Client(t)
	tb := ok(NewTokenBucket(rdb, BucketConfig{Capacity: 10, Rate: 1}))
	id := redistest.ID(t)
	at := func(ms int64) time.Time { return time.UnixMilli(base + ms) }

	d := allowAt(t, tb, id, at(0), 5)
	require.Equal(t, core.Decision{Allowed: true, Remaining: 5}, d)
	d = allowAt(t, tb, id, at(0), 5)
	require.Equal(t, core.Decision{Allowed: true, Remaining: 0}, d)
	d = allowAt(t, tb, id, at(1000), 5) // one token back: 4 short
	require.Equal(t, core.Decision{Allowed: false, Remaining: 1, RetryAfter: 4 * time.Second}, d)
	d = allowAt(t, tb, id, at(1000), 1) // a read still fits
	require.Equal(t, core.Decision{Allowed: true, Remaining: 0}, d)

	// The others: costs 5, 4, 2, 1 at one instant against 10 permits. The
	// fixed window counts the rejected 2 as well (INCRBY), so its 1 fails too.
	ten := WindowConfig{Window: time.Second, Limit: 10}
	for _, tc := range []struct {
		name string
		l    decider
		want []bool
	}{
		{"sliding-log", ok(NewSlidingLog(rdb, ten)), []bool{true, true, false, true}},
		{"sliding-counter", ok(NewSlidingCounter(rdb, ten)), []bool{true, true, false, true}},
		{"gcra", ok(NewGCRA(rdb, BucketConfig{Capacity: 10, Rate: 1})), []bool{true, true, false, true}},
		{"fixed-window", ok(NewFixedWindow(rdb, ten)), []bool{true, true, false, false}},
	} {
		id := redistest.ID(t)
		var got []bool
		for _, cost := range []int{5, 4, 2, 1} {
			got = append(got, allowAt(t, tc.l, id, at(0), cost).Allowed)
		}
		require.Equal(t, tc.want, got, tc.name)
	}
}

// TestE9_DoubleSpend: balance 1. Node A reads it, node B reads it too, both
// write and both allow: one permit spent twice. The script allows exactly one.
func TestE9_DoubleSpend(t *testing.T) {
	ctx := context.Background()
	addr := redistest.Addr(t)
	nodeA := redis.NewClient(&redis.Options{Addr: addr})
	nodeB := redis.NewClient(&redis.Options{Addr: addr})
	t.Cleanup(func() { nodeA.Close(); nodeB.Close() })

	t.Run("naive", func(t *testing.T) {
		id := redistest.ID(t)
		a := ok(NewNaiveCounter(nodeA, time.Minute, 3))
		b := ok(NewNaiveCounter(nodeB, time.Minute, 3))
		for range 2 { // spend 2 of 3: balance 1
			require.True(t, ok(a.Allow(ctx, id)).Allowed)
		}
		var bDecision core.Decision
		a.BetweenReadAndWrite = func() {
			// A has read 2 and not yet written: B runs its whole request here.
			bDecision = ok(b.Allow(ctx, id))
		}
		aDecision := ok(a.Allow(ctx, id))
		require.True(t, bDecision.Allowed, "B spends the last permit")
		require.True(t, aDecision.Allowed, "A spends the same permit again")
		require.Equal(t, "3", nodeA.Get(ctx, Key(id, "naive")).Val(), "4 admitted, the counter says 3")
	})

	t.Run("script", func(t *testing.T) {
		id := redistest.ID(t)
		now := time.UnixMilli(base)
		a := ok(NewFixedWindow(nodeA, w3))
		b := ok(NewFixedWindow(nodeB, w3))
		for range 2 {
			require.True(t, ok(a.AllowNAt(ctx, id, now, 1)).Allowed)
		}
		// There is no "between" inside a script: the same two requests, in
		// either order, are decided one after the other on the server.
		dA := ok(a.AllowNAt(ctx, id, now, 1))
		dB := ok(b.AllowNAt(ctx, id, now, 1))
		require.True(t, dA.Allowed)
		require.False(t, dB.Allowed)
	})
}

// TestE9_StressOneKey: many goroutines over several clients hit one key. The
// naive limiter is observed to admit more than the limit; the script admits
// exactly the limit, every round.
func TestE9_StressOneKey(t *testing.T) {
	const (
		clients    = 4
		goroutines = 32 // per client
		perG       = 8
		limit      = 100 // < clients*goroutines*perG = 1024 requests
	)
	ctx := context.Background()
	addr := redistest.Addr(t)
	var rdbs []*redis.Client
	for range clients {
		c := redis.NewClient(&redis.Options{Addr: addr, PoolSize: goroutines})
		rdbs = append(rdbs, c)
		t.Cleanup(func() { c.Close() })
	}
	hammer := func(allow func(c int) (core.Decision, error)) int64 {
		var allowed atomic.Int64
		var wg sync.WaitGroup
		errs := make(chan error, clients*goroutines)
		for c := range clients {
			for range goroutines {
				wg.Go(func() {
					for range perG {
						d, err := allow(c)
						if err != nil {
							errs <- err
							return
						}
						if d.Allowed {
							allowed.Add(1)
						}
					}
				})
			}
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			require.NoError(t, err)
		}
		return allowed.Load()
	}

	overAdmitted := false
	for round := 0; round < 5 && !overAdmitted; round++ {
		naiveID, scriptID := redistest.ID(t), redistest.ID(t)
		now := time.UnixMilli(base) // one window for the whole round
		var naive []*NaiveCounter
		var script []*FixedWindow
		for _, c := range rdbs {
			naive = append(naive, ok(NewNaiveCounter(c, time.Minute, limit)))
			script = append(script, ok(NewFixedWindow(c, WindowConfig{Window: time.Minute, Limit: limit})))
		}
		n := hammer(func(c int) (core.Decision, error) { return naive[c].Allow(ctx, naiveID) })
		s := hammer(func(c int) (core.Decision, error) { return script[c].AllowNAt(ctx, scriptID, now, 1) })
		t.Logf("round %d: naive admitted %d, script admitted %d (limit %d)", round+1, n, s, limit)
		require.Equal(t, int64(limit), s, "the script admits exactly the limit")
		overAdmitted = n > limit
	}
	require.True(t, overAdmitted, "the naive limiter never over-admitted in 5 rounds")
}

// TestE10_IncrWithoutExpiry: the INCR landed, its PEXPIRE never did. The
// count == 1 rule never sets an expiry again, so the key is immortal and the
// identity is rejected forever; the PTTL < 0 rule heals the key on the next
// request.
func TestE10_IncrWithoutExpiry(t *testing.T) {
	ctx := context.Background()
	rdb := redistest.Client(t)
	cfg := WindowConfig{Window: time.Second, Limit: 3}
	// crash leaves key as the first request of a two-command client would:
	// its write landed, then the process died before its PEXPIRE.
	crash := func(key string, write func() error) {
		// The immortal key must not outlive the test on a shared Redis.
		t.Cleanup(func() { rdb.Del(context.Background(), key) })
		require.NoError(t, write())
		require.Equal(t, time.Duration(-1), rdb.PTTL(ctx, key).Val(), "no expiry after the crash")
	}
	incr := func(key string) func() error { return func() error { return rdb.Incr(ctx, key).Err() } }

	t.Run("count==1 leaves the key immortal", func(t *testing.T) {
		id := redistest.ID(t)
		key := Key(id, "fwt")
		crash(key, incr(key))
		trap := ok(NewExpireOnFirstHit(rdb, cfg))
		var got strings.Builder
		for range 10 {
			if ok(trap.AllowN(ctx, id, 1)).Allowed {
				got.WriteByte('A')
			} else {
				got.WriteByte('R')
			}
		}
		require.Equal(t, "AARRRRRRRR", got.String())
		require.Equal(t, time.Duration(-1), rdb.PTTL(ctx, key).Val(), "still no expiry: rejected forever")
		require.Equal(t, "11", rdb.Get(ctx, key).Val())
	})

	t.Run("PTTL<0 heals it", func(t *testing.T) {
		id := redistest.ID(t)
		key := Key(id, "fwt")
		crash(key, incr(key))
		fixed := ok(NewFixedWindowTTL(rdb, cfg))
		d := ok(fixed.AllowN(ctx, id, 1))
		require.True(t, d.Allowed)
		ttl := rdb.PTTL(ctx, key).Val()
		require.Greater(t, ttl, time.Duration(0), "the next request set the expiry")
		require.LessOrEqual(t, ttl, cfg.Window)
	})

	t.Run("fixed-window heals its window key too", func(t *testing.T) {
		id := redistest.ID(t)
		now := base + 250
		key := Key(id, "fw")
		// The count of window 1700000000, written without its expiry.
		crash(key, func() error { return rdb.HSet(ctx, key, "w", now/1000, "n", 1).Err() })
		fw := ok(NewFixedWindow(rdb, cfg))
		d := ok(fw.AllowNAt(ctx, id, time.UnixMilli(now), 1))
		require.Equal(t, core.Decision{Allowed: true, Remaining: 1}, d)
		ttl := rdb.PTTL(ctx, key).Val()
		require.Greater(t, ttl, time.Duration(0))
		require.LessOrEqual(t, ttl, cfg.Window, "expires within a window")
	})
}

// TestE11_ClockSkew: two app nodes whose clocks are 200 ms apart put one
// instant in different one-second windows; window ids from Redis TIME agree.
func TestE11_ClockSkew(t *testing.T) {
	ctx := context.Background()
	rdb := redistest.Client(t)
	const W = int64(1000)

	// The same instant, read by two nodes: A is right, B runs 200 ms ahead.
	nodeA := base + 900
	nodeB := nodeA + 200
	require.NotEqual(t, nodeA/W, nodeB/W, "local clocks put one instant in two windows")

	// Each node counting in its own window id: 2L get through for one key
	// in what is one real window.
	fw := ok(NewFixedWindow(rdb, w3))
	id := redistest.ID(t)
	var skewed strings.Builder
	for _, now := range []int64{nodeA, nodeA, nodeA, nodeB, nodeB, nodeB} {
		if ok(fw.AllowNAt(ctx, id, time.UnixMilli(now), 1)).Allowed {
			skewed.WriteByte('A')
		} else {
			skewed.WriteByte('R')
		}
	}
	require.Equal(t, "AAAAAA", skewed.String(), "6 admitted against a limit of 3")

	// Timed by Redis: both nodes get their window id from the one server
	// clock. Retry in the rare case a real window boundary passes between the
	// two calls (the TIME read before and after tells).
	for attempt := 0; ; attempt++ {
		before := ok(rdb.Time(ctx).Result()).UnixMilli()
		_, idA, err := fw.decide(ctx, redistest.ID(t), -1, 1)
		require.NoError(t, err)
		_, idB, err := fw.decide(ctx, redistest.ID(t), -1, 1)
		require.NoError(t, err)
		after := ok(rdb.Time(ctx).Result()).UnixMilli()
		if before/W != after/W && attempt < 5 {
			continue
		}
		require.Equal(t, idA/W, idB/W, "window ids from Redis TIME agree")
		require.Equal(t, before/W, idA/W)
		break
	}
}

// TestEveryKeyHasTTL runs every script over many identities, allowed and
// rejected, then scans the keyspace: every key they wrote is the key the call
// declared, and has an expiry.
func TestEveryKeyHasTTL(t *testing.T) {
	ctx := context.Background()
	rdb := redistest.Client(t)
	prefix := redistest.ID(t)
	limiters := map[string]decider{
		"fixed-window":     ok(NewFixedWindow(rdb, w3)),
		"fixed-window-ttl": ok(NewFixedWindowTTL(rdb, w3)),
		"sliding-log":      ok(NewSlidingLog(rdb, w3)),
		"sliding-counter":  ok(NewSlidingCounter(rdb, WindowConfig{Window: time.Second, Limit: 3, SubWindows: 4})),
		"token-bucket":     ok(NewTokenBucket(rdb, c3r2)),
		"gcra":             ok(NewGCRA(rdb, c3r2)),
	}
	kinds := map[string]string{"fixed-window": "fw", "fixed-window-ttl": "fwt", "sliding-log": "log",
		"sliding-counter": "sc", "token-bucket": "tb", "gcra": "gcra"}
	declared := map[string]bool{} // the one key each call passed in KEYS
	written := 0
	for name, l := range limiters {
		for i := range 5 {
			id := prefix + "-" + name + "-" + string(rune('a'+i))
			declared[Key(id, kinds[name])], declared[Key(id+"-x", kinds[name])] = true, true
			for range 6 { // past the limit: rejections must not leave a key without TTL
				_, err := l.AllowN(ctx, id, 1)
				require.NoError(t, err)
			}
			for _, ms := range []int64{0, 400, 999, 1000, 2500} {
				_, err := l.AllowNAt(ctx, id+"-x", time.UnixMilli(base+ms), 1)
				require.NoError(t, err)
			}
			written += 2
		}
	}
	var keys []string
	iter := rdb.Scan(ctx, 0, "rl:{"+prefix+"-*", 1000).Iterator()
	for iter.Next(ctx) {
		keys = append(keys, iter.Val())
	}
	require.NoError(t, iter.Err())
	require.GreaterOrEqual(t, len(keys), written, "every identity left state behind")
	for _, k := range keys {
		require.True(t, declared[k], "key %q was written but never passed in KEYS", k)
		ttl := rdb.PTTL(ctx, k).Val()
		require.Greater(t, ttl, time.Duration(0), "key %q has no expiry", k)
	}
	t.Logf("%d keys scanned, every one with an expiry", len(keys))
}

// TestBadInput: parameters, costs and identities outside the accepted range
// are errors naming the parameter, never decisions.
func TestBadInput(t *testing.T) {
	// No server needed: every check happens before a command is sent.
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1"})
	defer rdb.Close()
	ctx := context.Background()
	for _, tc := range []struct {
		err   error
		param string
	}{
		{second(NewFixedWindow(rdb, WindowConfig{Window: 0, Limit: 3})), "window"},
		{second(NewSlidingLog(rdb, WindowConfig{Window: 1500 * time.Microsecond, Limit: 3})), "window"},
		{second(NewSlidingCounter(rdb, WindowConfig{Window: time.Second, Limit: 0})), "limit"},
		{second(NewSlidingCounter(rdb, WindowConfig{Window: time.Second, Limit: 3, SubWindows: -1})), "subwindows"},
		{second(NewTokenBucket(rdb, BucketConfig{Capacity: 0, Rate: 1})), "capacity"},
		{second(NewGCRA(rdb, BucketConfig{Capacity: 3, Rate: 0})), "rate"},
		{second(ok(NewGCRA(rdb, c3r2)).AllowN(ctx, "x", 4)), "cost"},
		{second(ok(NewSlidingLog(rdb, w3)).AllowN(ctx, "x", 0)), "cost"},
		{second(ok(NewTokenBucket(rdb, c3r2)).AllowN(ctx, "a}b", 1)), "id"},
		{second(ok(NewFixedWindow(rdb, w3)).AllowNAt(ctx, "x", time.UnixMilli(-5), 1)), "time"},
	} {
		var pe *core.ParamError
		require.ErrorAs(t, tc.err, &pe)
		require.Equal(t, tc.param, pe.Param, tc.err.Error())
	}
}

func second[T any](_ T, err error) error { return err }

// allowAt is l.AllowNAt that fails the test, not the run, on an error (a
// script that does not work yet, under the exercise06 tag).
func allowAt(t *testing.T, l decider, id string, now time.Time, cost int) core.Decision {
	t.Helper()
	d, err := l.AllowNAt(context.Background(), id, now, cost)
	require.NoError(t, err)
	return d
}

// TestRedisDownIsAnError: an unreachable Redis gives an error, never a
// decision; what to do then (fail open, fail closed) is the caller's policy.
func TestRedisDownIsAnError(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1, DialTimeout: 100 * time.Millisecond})
	defer rdb.Close()
	l := ok(NewTokenBucket(rdb, c3r2))
	d, err := l.AllowN(context.Background(), "x", 1)
	require.Error(t, err)
	require.Equal(t, core.Decision{}, d)
	var pe *core.ParamError
	require.False(t, errors.As(err, &pe))
}

// TestEvalShaFallsBackToEval: a server that has forgotten the scripts (a
// restart, a failover, SCRIPT FLUSH) answers NOSCRIPT to EVALSHA; go-redis's
// Script then sends the body with EVAL, and the next call is EVALSHA again.
func TestEvalShaFallsBackToEval(t *testing.T) {
	ctx := context.Background()
	rdb := redistest.Client(t)
	gcra := ok(NewGCRA(rdb, c3r2))
	require.NoError(t, rdb.ScriptFlush(ctx).Err())
	exists := ok(rdb.ScriptExists(ctx, gcraScript.Hash()).Result())
	require.Equal(t, []bool{false}, exists)
	d := ok(gcra.AllowN(ctx, redistest.ID(t), 1))
	require.True(t, d.Allowed)
	exists = ok(rdb.ScriptExists(ctx, gcraScript.Hash()).Result())
	require.Equal(t, []bool{true}, exists, "the EVAL fallback loaded the script")
}

// TestLateTimeRegressions: a request stamped earlier than one the key has
// already seen is decided at the latest time seen, never against older state
// (each case over-admitted or answered too early before the scripts kept the
// key's latest time).
func TestLateTimeRegressions(t *testing.T) {
	rdb := redistest.Client(t)
	type step struct {
		at, cost int64
		want     string // "A", or "R" plus the expected RetryAfter in ms
		retryMs  int64
	}
	for _, tc := range []struct {
		name  string
		l     decider
		steps []step
	}{
		// Window 1 is full; a request stamped 999 belongs to it too, not to a
		// fresh window 0.
		{"fixed-window", ok(NewFixedWindow(rdb, w3)), []step{
			{1000, 1, "A", 0}, {1000, 1, "A", 0}, {1000, 1, "A", 0}, {999, 1, "R", 1001}}},
		// At its own time (sub-window 0) the three requests of sub-window 1
		// were invisible and the estimate was 0.
		// (At 2000 the estimate is still exactly 3: the first permit is at 2001.)
		{"sliding-counter", ok(NewSlidingCounter(rdb, w3)), []step{
			{1000, 1, "A", 0}, {1000, 1, "A", 0}, {1000, 1, "A", 0}, {999, 1, "R", 1002}}},
		// The late request reused the member "600:2" and overwrote an entry:
		// the log then held one request where two were admitted, and let a
		// cost-2 request through with three already in the window.
		{"sliding-log", ok(NewSlidingLog(rdb, w3)), []step{
			{0, 1, "A", 0}, {600, 1, "A", 0}, {1100, 3, "R", 500}, {600, 1, "A", 0}, {1100, 2, "R", 500}}},
		// Empty at 2000; a request stamped 1500 must come back at 3000, when
		// the next token exists: 1500 ms from its own time, not 1000.
		{"token-bucket", ok(NewTokenBucket(rdb, BucketConfig{Capacity: 1, Rate: 1})), []step{
			{1000, 1, "A", 0}, {2000, 1, "A", 0}, {1500, 1, "R", 1500}}},
		{"gcra", ok(NewGCRA(rdb, BucketConfig{Capacity: 1, Rate: 1})), []step{
			{1000, 1, "A", 0}, {2000, 1, "A", 0}, {1500, 1, "R", 1500}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id := redistest.ID(t)
			for i, s := range tc.steps {
				d := allowAt(t, tc.l, id, time.UnixMilli(base+s.at), int(s.cost))
				require.Equal(t, s.want == "A", d.Allowed, "request %d at %d", i+1, s.at)
				require.Equal(t, time.Duration(s.retryMs)*time.Millisecond, d.RetryAfter, "request %d at %d", i+1, s.at)
			}
		})
	}
}

// TestScriptsTouchOnlyDeclaredKeys: Redis wants every key a script reads or
// writes passed in KEYS (Redis Cluster routes the call by them, and Redis 7
// checks them against the script's flags). Every command in every script
// names KEYS[1] (or the local copy of it), and nothing else. Under the
// exercise06 tag the learner's token bucket is checked too.
func TestScriptsTouchOnlyDeclaredKeys(t *testing.T) {
	files, err := filepath.Glob("scripts/*.lua")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	if learnerScript {
		files = append(files, tokenBucketFile)
	}
	call := regexp.MustCompile(`redis\.p?call\(\s*['"]([A-Za-z]+)['"]\s*(?:,\s*([^,)]+))?`)
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		calls := call.FindAllStringSubmatch(string(src), -1)
		require.NotEmpty(t, calls, "%s calls no Redis command", f)
		for _, c := range calls {
			if strings.EqualFold(c[1], "TIME") {
				continue // the one command without a key
			}
			require.Contains(t, []string{"KEYS[1]", "key"}, c[2], "%s: %s on %q", f, c[1], c[2])
		}
		if strings.Contains(string(src), "local key") {
			require.Contains(t, string(src), "local key = KEYS[1]\n", f)
		}
		require.NotContains(t, string(src), "KEYS[1] ..", "%s derives a key from KEYS[1]", f)
	}
}

// TestExplicitTimeSurvivesAStall: with explicit times the decisions run on
// the caller's clock and expiry on the server's. A count written 1 ms
// before its window closed used to expire 1 ms later in real time, so a
// replay that paused (a GC, a busy machine) lost it and admitted too much.
// The key now lives W: the next request of the same window still sees it.
func TestExplicitTimeSurvivesAStall(t *testing.T) {
	ctx := context.Background()
	rdb := redistest.Client(t)
	fw := ok(NewFixedWindow(rdb, WindowConfig{Window: time.Second, Limit: 2}))
	id := redistest.ID(t)
	at := time.UnixMilli(base + 999)
	require.True(t, ok(fw.AllowNAt(ctx, id, at, 2)).Allowed)
	time.Sleep(20 * time.Millisecond)
	require.False(t, ok(fw.AllowNAt(ctx, id, at, 1)).Allowed, "the window's count outlived the stall")
}

// TestLateStampStretchedTTL: a request stamped far behind a live key's
// latest time (here the Unix epoch, 57 years behind) set the key's expiry
// to its lifetime plus the lateness, 57 years. A key's state matters only
// for its lifetime measured from its latest time, and no expiry is longer.
func TestLateStampStretchedTTL(t *testing.T) {
	ctx := context.Background()
	rdb := redistest.Client(t)
	sc := WindowConfig{Window: time.Second, Limit: 3, SubWindows: 4}
	for _, tc := range []struct {
		name, kind string
		l          decider
		lifetime   time.Duration
	}{
		{"fixed-window", "fw", ok(NewFixedWindow(rdb, w3)), w3.Window},
		{"fixed-window-ttl", "fwt", ok(NewFixedWindowTTL(rdb, w3)), w3.Window},
		{"sliding-log", "log", ok(NewSlidingLog(rdb, w3)), w3.Window},
		// W, and the rest of the sub-window the last count is in (250 ms)
		{"sliding-counter", "sc", ok(NewSlidingCounter(rdb, sc)), sc.Window + sc.Window/4},
		// C/R: 1.5 s to refill 3 tokens at 2 per second
		{"token-bucket", "tb", ok(NewTokenBucket(rdb, c3r2)), 1500 * time.Millisecond},
		{"gcra", "gcra", ok(NewGCRA(rdb, c3r2)), 1500 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, late := range []time.Time{time.UnixMilli(base - 10_000), time.Unix(0, 0)} {
				id := redistest.ID(t)
				for _, at := range []time.Time{time.UnixMilli(base), late, late} {
					_, err := tc.l.AllowNAt(ctx, id, at, 1)
					require.NoError(t, err)
					ttl := rdb.PTTL(ctx, Key(id, tc.kind)).Val()
					require.Greater(t, ttl, time.Duration(0), "the key has an expiry")
					require.LessOrEqual(t, ttl, tc.lifetime, "after a request at %v", at.UTC())
				}
			}
		})
	}
	t.Run("prefetch-borrow", func(t *testing.T) {
		// The borrow's count is worthless once its window has ended.
		cfg := BorrowConfig{Key: Key(redistest.ID(t), "prefetch"), Limit: 10, Batch: 3, Window: time.Second}
		for _, at := range []time.Time{time.UnixMilli(base + 250), time.Unix(0, 0)} {
			_, err := Borrow(ctx, rdb, cfg, at)
			require.NoError(t, err)
			ttl := rdb.PTTL(ctx, cfg.Key).Val()
			require.Greater(t, ttl, time.Duration(0))
			require.LessOrEqual(t, ttl, cfg.Window, "after a borrow at %v", at.UTC())
		}
	})
}

// TestRejectionRepairsLostExpiry: a key that lost its expiry (E10: the
// process died between two commands, a PERSIST, a restore without TTLs)
// gets one back on the very next request, a rejection included: the
// scripts test PTTL < 0 on a rejection too. A script that sets the expiry
// on admissions only leaves a full bucket or window without one, and an
// identity that is only ever rejected keeps it forever. (A script that sets
// the expiry on every rejection as well is equivalent here: it sets the
// same lifetime, counted from the same latest time; it only costs a
// command.)
func TestRejectionRepairsLostExpiry(t *testing.T) {
	ctx := context.Background()
	rdb := redistest.Client(t)
	sc := WindowConfig{Window: time.Second, Limit: 3, SubWindows: 4}
	for _, tc := range []struct {
		name, kind string
		l          decider
		lifetime   time.Duration
	}{
		{"fixed-window", "fw", ok(NewFixedWindow(rdb, w3)), w3.Window},
		{"fixed-window-ttl", "fwt", ok(NewFixedWindowTTL(rdb, w3)), w3.Window},
		{"sliding-log", "log", ok(NewSlidingLog(rdb, w3)), w3.Window},
		{"sliding-counter", "sc", ok(NewSlidingCounter(rdb, sc)), sc.Window + sc.Window/4},
		{"token-bucket", "tb", ok(NewTokenBucket(rdb, c3r2)), 1500 * time.Millisecond},
		{"gcra", "gcra", ok(NewGCRA(rdb, c3r2)), 1500 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id := redistest.ID(t)
			now := time.UnixMilli(base)
			for range 3 {
				require.True(t, allowAt(t, tc.l, id, now, 1).Allowed)
			}
			key := Key(id, tc.kind)
			require.True(t, rdb.Persist(ctx, key).Val(), "the key had an expiry to lose")
			for i := range 2 {
				d := allowAt(t, tc.l, id, now.Add(time.Duration(i)*time.Millisecond), 1)
				require.False(t, d.Allowed, "the limit is spent")
				ttl := rdb.PTTL(ctx, key).Val()
				require.Greater(t, ttl, time.Duration(0), "rejection %d left %s without an expiry (PTTL < 0 not repaired)", i+1, key)
				require.LessOrEqual(t, ttl, tc.lifetime)
			}
		})
	}
}
