//go:build !exercise && !exercise06

// Tests only the reference scripts need: `make exercise CH=06` (the
// exercise06 tag) leaves them out, since the learner writes the token
// bucket alone. Like the differential, they compare with chapters 02–04,
// which the plain exercise tag swaps for their stubs.

package distributed

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	fixedwindow "github.com/ratelimit-course/ratelimit/chapters/02-fixed-window"
	sliding "github.com/ratelimit-course/ratelimit/chapters/03-sliding"
	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/internal/redistest"
)

// sameRefusal checks a Redis constructor's error against its chapter's: the
// same *core.ParamError word for word when the chapter refuses, and when it
// accepts, nil or, if redisOnly names a parameter, a refusal of that
// parameter (what only the scripts need, such as whole milliseconds).
func sameRefusal(t *testing.T, what string, chapter, got error, redisOnly string) {
	t.Helper()
	if chapter != nil {
		var want, pe *core.ParamError
		require.ErrorAs(t, chapter, &want, what)
		require.ErrorAs(t, got, &pe, "%s: the chapter refuses (%v), Redis accepts", what, chapter)
		require.Equal(t, *want, *pe, what)
		return
	}
	if redisOnly == "" {
		require.NoError(t, got, what)
		return
	}
	var pe *core.ParamError
	require.ErrorAs(t, got, &pe, "%s: want Redis to refuse %s", what, redisOnly)
	require.Equal(t, redisOnly, pe.Param, "%s: %v", what, got)
}

// TestConfigsRefuseWhatChaptersRefuse: one validation per config. Each
// Redis limiter refuses exactly what its chapter's constructor refuses, with
// the same ParamError, and beyond that only what the scripts add.
func TestConfigsRefuseWhatChaptersRefuse(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1"}) // constructors never dial
	defer rdb.Close()
	all := func(p string) map[string]string {
		return map[string]string{"fixed-window": p, "fixed-window-ttl": p, "sliding-log": p, "sliding-counter": p}
	}
	counter := func(p string) map[string]string { return map[string]string{"sliding-counter": p} }
	for _, tc := range []struct {
		cfg       sliding.Config
		redisOnly map[string]string // algorithm -> parameter only Redis refuses
	}{
		{sliding.Config{Window: 0, Limit: 3}, nil},
		{sliding.Config{Window: -time.Second, Limit: 3}, nil},
		{sliding.Config{Window: core.MaxWindow + 1, Limit: 3}, nil},
		{sliding.Config{Window: time.Second, Limit: 0}, nil},
		{sliding.Config{Window: time.Second, Limit: -5}, nil},
		{sliding.Config{Window: time.Second, Limit: core.MaxCount + 1}, nil},
		{sliding.Config{Window: time.Second, Limit: math.MaxInt}, nil},
		{sliding.Config{Window: 1500 * time.Microsecond, Limit: 3}, all("window")},
		{sliding.Config{Window: time.Second, Limit: 3, SubWindows: -1}, nil},
		{sliding.Config{Window: time.Second, Limit: 3, SubWindows: 7}, nil},
		{sliding.Config{Window: time.Second, Limit: 3, SubWindows: 1 << 20}, nil},
		{sliding.Config{Window: time.Second, Limit: 3, SubWindows: 16}, nil}, // 62.5 ms sub-windows
		{sliding.Config{Window: 250 * time.Millisecond, Limit: 3, SubWindows: 4}, nil},
		{sliding.Config{Window: 3 * time.Millisecond, Limit: 3, SubWindows: 2}, nil},
		{sliding.Config{Window: 1001 * time.Millisecond, Limit: 3, SubWindows: 1000}, nil}, // 1.001 ms
		{sliding.Config{Window: core.MaxWindow, Limit: core.MaxCount, SubWindows: 1000}, counter("limit")},
		{sliding.Config{Window: core.MaxWindow, Limit: core.MaxCount}, counter("limit")},
		{sliding.Config{Window: 24 * time.Hour, Limit: core.MaxCount}, counter("limit")},
		{sliding.Config{Window: time.Hour, Limit: core.MaxCount, SubWindows: 60}, nil},
		{sliding.Config{Window: time.Second, Limit: core.MaxCount}, nil},
		{sliding.Config{Window: time.Minute, Limit: 1000, SubWindows: 60}, nil},
		{sliding.Config{Window: time.Millisecond, Limit: 1}, nil},
	} {
		fw := fixedwindow.Config{Window: tc.cfg.Window, Limit: tc.cfg.Limit}
		sl := tc.cfg
		for _, a := range []struct {
			name           string
			chapter, redis error
		}{
			{"fixed-window", second(fixedwindow.New(fw)), second(NewFixedWindow(rdb, fw))},
			{"fixed-window-ttl", second(fixedwindow.NewTTL(fw)), second(NewFixedWindowTTL(rdb, fw))},
			{"sliding-log", second(sliding.NewLog(sl)), second(NewSlidingLog(rdb, sl))},
			{"sliding-counter", second(sliding.NewCounter(sl)), second(NewSlidingCounter(rdb, sl))},
		} {
			sameRefusal(t, a.name+" "+fmtConfig(tc.cfg), a.chapter, a.redis, tc.redisOnly[a.name])
		}
	}
	for _, b := range []buckets.Config{
		{Capacity: 0, Rate: 1}, {Capacity: -1, Rate: 1}, {Capacity: core.MaxCount + 1, Rate: 1},
		{Capacity: 1 << 62, Rate: 1}, {Capacity: 3, Rate: 0}, {Capacity: 3, Rate: -1},
		{Capacity: 3, Rate: math.NaN()}, {Capacity: 3, Rate: math.Inf(1)}, {Capacity: 3, Rate: 1e300},
		{Capacity: 3, Rate: 1e9 + 1}, {Capacity: 1, Rate: 1e-10}, {Capacity: 1, Rate: 1e-15},
		{Capacity: core.MaxCount, Rate: 1}, {Capacity: 1, Rate: 1e-9}, {Capacity: 3, Rate: 2},
		{Capacity: core.MaxCount, Rate: 1e9}, {Capacity: 7, Rate: 100.0 / 60},
	} {
		bc := buckets.Config{Capacity: b.Capacity, Rate: b.Rate}
		what := func(a string) string { return a + " " + fmtConfig(b) }
		sameRefusal(t, what("token-bucket"), second(buckets.NewTokenBucket(bc)), second(NewTokenBucket(rdb, b)), "")
		sameRefusal(t, what("gcra"), second(buckets.NewGCRA(bc)), second(NewGCRA(rdb, b)), "")
	}
}

func fmtConfig(c any) string { return strings.TrimPrefix(fmt.Sprintf("%+v", c), "distributed.") }

// TestNegativeRetryAfterAtTinyRate: C = 1, R = 1e-10 was accepted and its
// rejection carried a negative RetryAfter (a refill of 1e13 s, past any
// int64 of nanoseconds). The domain refuses it (a full bucket must refill
// within 1e9 s); at the edge it accepts, R = 1e-9, the delay is 1e9 s.
func TestNegativeRetryAfterAtTinyRate(t *testing.T) {
	rdb := redistest.Client(t)
	ctx := context.Background()
	for _, refused := range []buckets.Config{{Capacity: 1, Rate: 1e-10}, {Capacity: 1000, Rate: 1e-7}} {
		for _, err := range []error{second(NewTokenBucket(rdb, refused)), second(NewGCRA(rdb, refused))} {
			var pe *core.ParamError
			require.ErrorAs(t, err, &pe, "%+v", refused)
			require.Equal(t, "rate", pe.Param)
		}
	}
	edge := buckets.Config{Capacity: 1, Rate: 1e-9}
	for _, l := range []decider{ok(NewTokenBucket(rdb, edge)), ok(NewGCRA(rdb, edge))} {
		id := redistest.ID(t)
		require.True(t, ok(l.AllowNAt(ctx, id, time.UnixMilli(base), 1)).Allowed)
		d := ok(l.AllowNAt(ctx, id, time.UnixMilli(base), 1))
		require.False(t, d.Allowed)
		require.Equal(t, time.Duration(1e9)*time.Second, d.RetryAfter)
	}
}

// TestPEXPIREReceived1e18: R <= 1e-15 or C = 2^62 made every call fail,
// because the script's TTL, C/R in ms, reached Redis as "1e+18", which
// PEXPIRE refuses. The domain refuses both; its largest TTLs (1e12 ms,
// about 31.7 years) work, and int() writes any whole number as digits.
func TestPEXPIREReceived1e18(t *testing.T) {
	rdb := redistest.Client(t)
	ctx := context.Background()
	for _, refused := range []buckets.Config{{Capacity: 1, Rate: 1e-15}, {Capacity: 1, Rate: 1e-16}, {Capacity: 1 << 62, Rate: 1}} {
		for _, err := range []error{second(NewTokenBucket(rdb, refused)), second(NewGCRA(rdb, refused))} {
			var pe *core.ParamError
			require.ErrorAs(t, err, &pe, "%+v", refused)
		}
	}
	longest := time.Duration(1e12) * time.Millisecond
	for _, tc := range []struct {
		l    decider
		kind string
	}{
		{ok(NewTokenBucket(rdb, buckets.Config{Capacity: core.MaxCount, Rate: 1})), "tb"},
		{ok(NewGCRA(rdb, buckets.Config{Capacity: core.MaxCount, Rate: 1})), "gcra"},
		{ok(NewTokenBucket(rdb, buckets.Config{Capacity: 1, Rate: 1e-9})), "tb"},
		{ok(NewGCRA(rdb, buckets.Config{Capacity: 1, Rate: 1e-9})), "gcra"},
		{ok(NewFixedWindow(rdb, fixedwindow.Config{Window: core.MaxWindow, Limit: 3})), "fw"},
		{ok(NewSlidingLog(rdb, sliding.Config{Window: core.MaxWindow, Limit: 3})), "log"},
	} {
		id := redistest.ID(t)
		_, err := tc.l.AllowNAt(ctx, id, time.UnixMilli(base), 1)
		require.NoError(t, err, tc.kind)
		ttl := rdb.PTTL(ctx, Key(id, tc.kind)).Val()
		require.InDelta(t, float64(longest), float64(ttl), float64(time.Minute), tc.kind)
	}
	digits := ok(redis.NewScript(prelude+"return {int(1e18), int(2^62), tostring(1e18)}").Run(ctx, rdb, nil, -1).StringSlice())
	require.Equal(t, []string{"1000000000000000000", "4611686018427387904", "1e+18"}, digits)
}

// TestGCRARemainingMinInt64: GCRA at R = 1e300 (T = 1e-297 ms) reported
// Remaining = MinInt64: the script's 1e-9 ms tolerance counted in T is
// 1e288 permits, which no int64 holds when Lua's answer becomes one. The
// domain refuses rates above 1e9 per second; at 1e9 with C = 1e9 both
// buckets report C - 1 after one request.
func TestGCRARemainingMinInt64(t *testing.T) {
	rdb := redistest.Client(t)
	ctx := context.Background()
	for _, r := range []float64{1e300, 1e10} {
		var pe *core.ParamError
		require.ErrorAs(t, second(NewGCRA(rdb, buckets.Config{Capacity: 3, Rate: r})), &pe)
		require.Equal(t, "rate", pe.Param)
	}
	fast := buckets.Config{Capacity: core.MaxCount, Rate: 1e9}
	for _, l := range []decider{ok(NewGCRA(rdb, fast)), ok(NewTokenBucket(rdb, fast))} {
		d := ok(l.AllowNAt(ctx, redistest.ID(t), time.UnixMilli(base), 1))
		require.Equal(t, core.Decision{Allowed: true, Remaining: core.MaxCount - 1}, d)
	}
}

// TestGCRAExactOverLongSaturation: a client that keeps GCRA's TAT ahead of
// now (always sending at the first instant a permit exists) for 40,000
// permits at R = 7 (T = 1000/7 ms), every seventh of them an exact tie. With
// TAT kept as a float fraction the rounding errors added up, and after about
// 30,800 permits (an hour at this rate) a tie was rejected; counting in
// sevenths of a ms keeps it exact. Only the allowed requests are sent: a
// rejection would not move TAT anyway.
func TestGCRAExactOverLongSaturation(t *testing.T) {
	ctx := context.Background()
	rdb := redistest.Client(t)
	const (
		permits = 40000
		c       = 3
		rate    = 7
	)
	g := ok(NewGCRA(rdb, buckets.Config{Capacity: c, Rate: rate}))
	// Exact schedule in sevenths of a ms: T = 1000, tau = 2000. Each request
	// comes at ceil((TAT - tau) / 7) ms, never before the one in front of it.
	times := make([]int64, permits)
	tat, at, ties := int64(0), int64(0), 0
	for i := range times {
		next := tat - (c-1)*1000
		first := next / rate // ceil(next / 7): Go's division truncates
		if next%rate > 0 {
			first++
		}
		at = max(at, first)
		if next > 0 && next%rate == 0 && first == at {
			ties++
		}
		times[i] = at
		tat = max(tat, at*rate) + 1000
	}
	require.NoError(t, g.script.Load(ctx, rdb).Err())
	id := redistest.ID(t)
	for start := 0; start < permits; start += 1000 {
		pipe := rdb.Pipeline()
		var cmds []*redis.Cmd
		for _, ms := range times[start:min(permits, start+1000)] {
			args := append([]any{base + ms, 1}, g.params...)
			cmds = append(cmds, g.script.EvalSha(ctx, pipe, []string{Key(id, g.kind)}, args...))
		}
		_, err := pipe.Exec(ctx)
		require.NoError(t, err)
		for i, cmd := range cmds {
			res := ok(cmd.Int64Slice())
			require.Equal(t, int64(1), res[0], "permit %d at %d ms rejected", start+i+1, times[start+i])
		}
	}
	require.Greater(t, ties, permits/8, "the schedule should be full of exact ties")
}

func TestEmissionInterval(t *testing.T) {
	for _, tc := range []struct {
		rate float64
		d    int
		p    float64
	}{{3, 3, 1000}, {7, 7, 1000}, {30, 3, 100}, {2, 1, 500}, {2.5, 1, 400}, {0.5, 1, 2000}, {100, 1, 10}} {
		d, p := emissionInterval(tc.rate)
		require.Equal(t, tc.d, d, "rate %g", tc.rate)
		require.Equal(t, tc.p, p, "rate %g", tc.rate)
	}
	// No small whole d: T itself, fractional.
	d, p := emissionInterval(100.0 / 60)
	require.Equal(t, 1, d)
	require.InDelta(t, 600, p, 1e-9)
}

// TestSlidingLogCostIsOneEntry: a request of cost k ran k ZADDs in one
// script (cost 1e6 blocked every other client for 2.7 s and left a 115 MB
// key). It is one entry carrying its cost now: the key holds two members
// (the entry and the latest time), a few dozen bytes, and the next
// request waits for that one entry to leave the window.
func TestSlidingLogCostIsOneEntry(t *testing.T) {
	ctx := context.Background()
	rdb := redistest.Client(t)
	const L = 1_000_000
	l := ok(NewSlidingLog(rdb, sliding.Config{Window: time.Minute, Limit: L}))
	id := redistest.ID(t)
	key := Key(id, "log")
	start := time.Now()
	d := ok(l.AllowNAt(ctx, id, time.UnixMilli(base), L))
	took := time.Since(start)
	require.Equal(t, core.Decision{Allowed: true, Remaining: 0}, d)
	require.Equal(t, int64(2), rdb.ZCard(ctx, key).Val(), "one entry and the latest time")
	size := ok(rdb.MemoryUsage(ctx, key, 0).Result())
	require.Less(t, size, int64(200), "bytes")
	require.Less(t, took, time.Second, "one decision")
	t.Logf("cost %d: %v, %d members, %d bytes", L, took, rdb.ZCard(ctx, key).Val(), size)

	d = ok(l.AllowNAt(ctx, id, time.UnixMilli(base+1000), 1))
	require.Equal(t, core.Decision{Remaining: 0, RetryAfter: 59 * time.Second}, d)
	d = ok(l.AllowNAt(ctx, id, time.UnixMilli(base+60_000), L))
	require.Equal(t, core.Decision{Allowed: true, Remaining: 0}, d, "the entry left the window after W")
	require.Equal(t, int64(2), rdb.ZCard(ctx, key).Val())
}

// TestSlidingLogSumsWrap: the running sums in the log's members count
// modulo 2^50. A key whose sums have just wrapped (planted here: entries
// ending at 2^50 - 1, then one past it) decides as chapter 03's log does
// with the same history.
func TestSlidingLogSumsWrap(t *testing.T) {
	ctx := context.Background()
	rdb := redistest.Client(t)
	const m = int64(1) << 50
	cfg := sliding.Config{Window: time.Second, Limit: 10}
	l := ok(NewSlidingLog(rdb, cfg))
	mem := ok(sliding.NewLog(cfg))
	id := redistest.ID(t)
	key := Key(id, "log")
	t.Cleanup(func() { rdb.Del(context.Background(), key) })
	// Two entries at base, of cost 2 and 1, whose sums end at 2^50 - 1.
	require.NoError(t, rdb.ZAdd(ctx, key,
		redis.Z{Score: float64(base), Member: fmt.Sprintf("%010d:%d:2", 0, m-2)},
		redis.Z{Score: float64(base), Member: fmt.Sprintf("%010d:%d:1", 1, m-1)},
		redis.Z{Score: float64(base), Member: "t"}).Err())
	require.NoError(t, rdb.PExpire(ctx, key, time.Minute).Err())
	mem.AllowN(time.UnixMilli(base), 2)
	mem.AllowN(time.UnixMilli(base), 1)
	for i, q := range []request{{1, 3}, {1, 5}, {2, 4}, {3, 1}, {999, 2}, {1000, 3}, {1001, 3}} {
		now := time.UnixMilli(base + q.at)
		want := mem.AllowN(now, q.cost)
		got := ok(l.AllowNAt(ctx, id, now, q.cost))
		want.RetryAfter = want.RetryAfter.Round(time.Millisecond)
		require.Equal(t, want, got, "request %d (t=%d, cost %d)", i+1, q.at, q.cost)
		if i == 0 {
			members := ok(rdb.ZRange(ctx, key, 0, -1).Result())
			require.Contains(t, members, fmt.Sprintf("%010d:%d:3", 0, 2), "the sum wrapped: 2^50 - 1 + 3 = 2")
		}
	}
}
