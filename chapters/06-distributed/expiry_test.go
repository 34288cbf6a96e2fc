package distributed

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/ratelimit-course/ratelimit/internal/redistest"
)

// TestEveryKeyHasTTL runs every script over many identities, allowed and
// rejected, then scans the keyspace: every key they wrote is the key the call
// declared, and has an expiry.
func TestEveryKeyHasTTL(t *testing.T) {
	ctx := context.Background()
	rdb := redistest.Client(t)
	prefix := redistest.ID(t)
	declared := map[string]bool{} // the one key each call passed in KEYS
	written := 0
	for _, tc := range lifetimes(rdb) {
		for i := range 5 {
			id := prefix + "-" + tc.name + "-" + string(rune('a'+i))
			declared[Key(id, tc.kind)], declared[Key(id+"-x", tc.kind)] = true, true
			for range 6 { // past the limit: rejections must not leave a key without TTL
				_, err := tc.l.AllowN(ctx, id, 1)
				require.NoError(t, err)
			}
			for _, ms := range []int64{0, 400, 999, 1000, 2500} {
				_, err := tc.l.AllowNAt(ctx, id+"-x", time.UnixMilli(base+ms), 1)
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

// TestExplicitTimeSurvivesAStall: with explicit times the decisions run on
// the caller's clock and expiry on the server's. A count written 1 ms
// before its window closed used to expire 1 ms later in real time, so a
// replay that paused (a GC, a busy machine) lost it and admitted too much.
// The key now lives W: the next request of the same window still sees it.
func TestExplicitTimeSurvivesAStall(t *testing.T) {
	ctx := context.Background()
	rdb := redistest.Client(t)
	fw := everyScript(rdb, time.Second, 2, 1)["fixed-window"]
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
	for _, tc := range lifetimes(rdb) {
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
	for _, tc := range lifetimes(rdb) {
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

// lifetime is one limiter on rdb, its key's kind, and how long its state
// matters after the key's latest time: no expiry may be longer.
type lifetime struct {
	name, kind string
	l          decider
	lifetime   time.Duration
}

// lifetimes are the six scripts' limiters at W = 1 s, L = 3 and C = 3,
// R = 2/s, with their lifetimes.
func lifetimes(rdb redis.Scripter) []lifetime {
	return []lifetime{
		{"fixed-window", "fw", ok(NewFixedWindow(rdb, w3)), w3.Window},
		{"fixed-window-ttl", "fwt", ok(NewFixedWindowTTL(rdb, w3)), w3.Window},
		{"sliding-log", "log", ok(NewSlidingLog(rdb, s3)), w3.Window},
		// W, and the rest of the sub-window the last count is in (250 ms)
		{"sliding-counter", "sc", ok(NewSlidingCounter(rdb, s3n4)), s3n4.Window + s3n4.Window/4},
		// C/R: 1.5 s to refill 3 tokens at 2 per second
		{"token-bucket", "tb", ok(NewTokenBucket(rdb, c3r2)), 1500 * time.Millisecond},
		{"gcra", "gcra", ok(NewGCRA(rdb, c3r2)), 1500 * time.Millisecond},
	}
}
