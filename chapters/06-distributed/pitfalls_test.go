package distributed

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	fixedwindow "github.com/ratelimit-course/ratelimit/chapters/02-fixed-window"
	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/internal/redistest"
)

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
			script = append(script, ok(NewFixedWindow(c, fixedwindow.Config{Window: time.Minute, Limit: limit})))
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
	cfg := fixedwindow.Config{Window: time.Second, Limit: 3}
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
		crash(key, func() error { return rdb.HSet(ctx, key, strconv.FormatInt(now/1000, 10), 1).Err() })
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
		a, b := redistest.ID(t), redistest.ID(t)
		ok(fw.Allow(ctx, a))
		ok(fw.Allow(ctx, b))
		after := ok(rdb.Time(ctx).Result()).UnixMilli()
		if before/W != after/W && attempt < 5 {
			continue
		}
		idA, idB := windowID(t, rdb, a), windowID(t, rdb, b)
		require.Equal(t, idA, idB, "window ids from Redis TIME agree")
		require.Equal(t, before/W, idA)
		break
	}
}

// windowID is the window a fixed window's key is counting, the name of its
// one field.
func windowID(t *testing.T, rdb *redis.Client, id string) int64 {
	t.Helper()
	fields, err := rdb.HKeys(context.Background(), Key(id, "fw")).Result()
	require.NoError(t, err)
	require.Len(t, fields, 1)
	w, err := strconv.ParseInt(fields[0], 10, 64)
	require.NoError(t, err)
	return w
}
