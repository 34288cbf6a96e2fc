//go:build !exercise06

package distributed

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/internal/redistest"
)

// everyLimiter is one limiter of each algorithm, limit 3 per second.
func everyLimiter(t *testing.T) map[string]decider {
	rdb := redistest.Client(t)
	return map[string]decider{
		"fixed-window": ok(NewFixedWindow(rdb, w3)), "fixed-window-ttl": ok(NewFixedWindowTTL(rdb, w3)),
		"sliding-log": ok(NewSlidingLog(rdb, s3)), "sliding-counter": ok(NewSlidingCounter(rdb, s3)),
		"token-bucket": ok(NewTokenBucket(rdb, c3r3)), "gcra": ok(NewGCRA(rdb, c3r3)),
	}
}

// TestIDLengthCapped: an id is at most MaxIDLen bytes, as chapter 01 caps
// the parts of its keys, and a longer one is a ParamError that gives its
// length, not its bytes, before any command. A prefetch key is capped the
// same way (MaxKeyLen). Before, a 1 MiB id became a 1.3 MB Redis key.
func TestIDLengthCapped(t *testing.T) {
	ctx := context.Background()
	rdb := redistest.Client(t)
	huge := strings.Repeat("x", 1<<20)
	for name, l := range everyLimiter(t) {
		_, err := l.AllowN(ctx, strings.Repeat("i", MaxIDLen), 1)
		require.NoError(t, err, "%s: an id of MaxIDLen bytes", name)
		for _, id := range []string{strings.Repeat("i", MaxIDLen+1), huge} {
			_, err := l.AllowN(ctx, id, 1)
			var pe *core.ParamError
			require.ErrorAs(t, err, &pe, name)
			require.Equal(t, "id", pe.Param, name)
			require.Less(t, len(err.Error()), 300, "%s: the error does not echo the id", name)
			require.Zero(t, ok(rdb.Exists(ctx, Key(id, "fw"), Key(id, "fwt"), Key(id, "log"), Key(id, "sc"),
				Key(id, "tb"), Key(id, "gcra")).Result()), name)
		}
	}
	long := BorrowConfig{Key: "rl:{" + huge + "}:prefetch", Limit: 5, Batch: 1, Window: time.Second}
	var pe *core.ParamError
	_, err := Borrow(ctx, rdb, long, time.Time{})
	require.ErrorAs(t, err, &pe)
	require.Equal(t, "key", pe.Param)
	require.Less(t, len(err.Error()), 300)
	_, err = NewPrefetchNode(rdb, long, slowOK)
	require.ErrorAs(t, err, &pe)
	long.Key = Key(strings.Repeat("i", MaxIDLen), "prefetch")
	_, err = Borrow(ctx, rdb, long, time.Time{})
	require.NoError(t, err, "the key of an id of MaxIDLen bytes")
}

// TestFarFutureStampRefused: an explicit time at most MaxStampAhead ahead of
// the Redis server's clock is decided; a later one is a ParamError naming
// the time, and writes nothing. Time never runs backwards for a key, so one
// stamp in 2199 would otherwise hold the key there for every caller on the
// server's clock: RetryAfter 172 years until the TTL ended.
func TestFarFutureStampRefused(t *testing.T) {
	ctx := context.Background()
	rdb := redistest.Client(t)
	far := time.Date(2199, 1, 1, 0, 0, 0, 0, time.UTC)
	server := ok(rdb.Time(ctx).Result())
	for name, l := range everyLimiter(t) {
		id := redistest.ID(t)
		_, err := l.AllowNAt(ctx, id, far, 1)
		var pe *core.ParamError
		require.ErrorAs(t, err, &pe, name)
		require.Equal(t, "time", pe.Param, name)
		require.ErrorContains(t, err, "ahead of the Redis server's clock", name)
		for i := range 3 {
			d, err := l.AllowN(ctx, id, 1)
			require.NoError(t, err, name)
			require.True(t, d.Allowed, "%s: request %d on the server's clock after the refused stamp", name, i+1)
		}
		// Within the bound: decided.
		_, err = l.AllowNAt(ctx, redistest.ID(t), server.Add(MaxStampAhead/2), 1)
		require.NoError(t, err, name)
	}
	require.Contains(t, prelude, fmt.Sprintf("now > server + %d", MaxStampAhead.Milliseconds()), "the prelude's bound is MaxStampAhead")
	cfg := BorrowConfig{Key: prefetchKey(t), Limit: 5, Batch: 5, Window: time.Hour}
	var pe *core.ParamError
	_, err := Borrow(ctx, rdb, cfg, far)
	require.True(t, errors.As(err, &pe) && pe.Param == "time", "Borrow at 2199: %v", err)
	require.Equal(t, 5, ok(Borrow(ctx, rdb, cfg, time.Time{})).Granted)
}
