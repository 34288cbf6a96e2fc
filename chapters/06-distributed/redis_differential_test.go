//go:build !exercise

package distributed

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	framing "github.com/ratelimit-course/ratelimit/chapters/01-framing"
	fixedwindow "github.com/ratelimit-course/ratelimit/chapters/02-fixed-window"
	sliding "github.com/ratelimit-course/ratelimit/chapters/03-sliding"
	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
	"github.com/ratelimit-course/ratelimit/internal/redistest"
)

// request is one arrival of a replayed sequence: ms after base, and its cost.
type request struct {
	at   int64
	cost int
}

// sequence draws n arrivals with gaps up to maxGap ms (many zero: bursts in
// one millisecond) and costs from 1 to maxCost.
func sequence(r *rand.Rand, n int, maxGap int64, maxCost int) []request {
	seq := make([]request, n)
	at := int64(r.IntN(3000))
	for i := range seq {
		if r.IntN(3) > 0 {
			at += r.Int64N(maxGap + 1)
		}
		seq[i] = request{at: at, cost: 1 + r.IntN(maxCost)}
	}
	return seq
}

// TestDifferentialAgainstMemory replays the same random sequences through each
// Redis script (explicit times) and through the in-memory limiter of chapters
// 02–04. Decisions and remaining permits must be identical; RetryAfter must
// be the in-memory value rounded up to the script's whole milliseconds.
func TestDifferentialAgainstMemory(t *testing.T) {
	rdb := redistest.Client(t)
	ctx := context.Background()

	type pair struct {
		name    string
		redis   decider
		memory  func() framing.Algorithm
		maxCost int
		maxGap  int64
	}
	var pairs []pair
	for _, w := range []WindowConfig{
		{Window: time.Second, Limit: 3},
		{Window: time.Second, Limit: 10},
		{Window: 250 * time.Millisecond, Limit: 5},
	} {
		fw, sl := fixedwindow.Config{Window: w.Window, Limit: w.Limit}, sliding.Config{Window: w.Window, Limit: w.Limit}
		pairs = append(pairs,
			pair{fmt.Sprintf("fixed-window/W=%v,L=%d", w.Window, w.Limit), ok(NewFixedWindow(rdb, w)),
				func() framing.Algorithm { return ok(fixedwindow.New(fw)) }, w.Limit, w.Window.Milliseconds() / 4},
			pair{fmt.Sprintf("sliding-log/W=%v,L=%d", w.Window, w.Limit), ok(NewSlidingLog(rdb, w)),
				func() framing.Algorithm { return ok(sliding.NewLog(sl)) }, w.Limit, w.Window.Milliseconds() / 4},
		)
		for _, n := range []int{1, 4, 16} {
			wn := w
			wn.SubWindows = n
			sc := sliding.Config{Window: w.Window, Limit: w.Limit, SubWindows: n}
			pairs = append(pairs, pair{fmt.Sprintf("sliding-counter/W=%v,L=%d,N=%d", w.Window, w.Limit, n),
				ok(NewSlidingCounter(rdb, wn)),
				func() framing.Algorithm { return ok(sliding.NewCounter(sc)) }, w.Limit, w.Window.Milliseconds() / 4})
		}
	}
	// Rates whose emission interval is a whole number of nanoseconds and of
	// milliseconds, so that both sides do exact arithmetic.
	for _, b := range []BucketConfig{{Capacity: 3, Rate: 2}, {Capacity: 10, Rate: 5}, {Capacity: 6, Rate: 0.5}, {Capacity: 3, Rate: 3}, {Capacity: 7, Rate: 30}} {
		bc := buckets.Config{Capacity: b.Capacity, Rate: b.Rate}
		gap := int64(2000 / b.Rate)
		pairs = append(pairs,
			pair{fmt.Sprintf("token-bucket/C=%d,R=%g", b.Capacity, b.Rate), ok(NewTokenBucket(rdb, b)),
				func() framing.Algorithm { return ok(buckets.NewTokenBucket(bc)) }, b.Capacity, gap},
			pair{fmt.Sprintf("gcra/C=%d,R=%g", b.Capacity, b.Rate), ok(NewGCRA(rdb, b)),
				func() framing.Algorithm { return ok(buckets.NewGCRA(bc)) }, b.Capacity, gap},
		)
	}

	for _, p := range pairs {
		t.Run(p.name, func(t *testing.T) {
			allowed, total := 0, 0
			for seed := uint64(1); seed <= 4; seed++ {
				r := rand.New(rand.NewPCG(seed, 6))
				maxCost := 1
				if seed%2 == 0 {
					maxCost = p.maxCost // weighted requests on even seeds
				}
				seq := sequence(r, 150, p.maxGap, maxCost)
				mem := p.memory()
				id := redistest.ID(t)
				for i, q := range seq {
					now := time.UnixMilli(base + q.at)
					want := mem.AllowN(now, q.cost)
					got, err := p.redis.AllowNAt(ctx, id, now, q.cost)
					require.NoError(t, err)
					where := fmt.Sprintf("seed %d, request %d (t=%d ms, cost %d)", seed, i+1, q.at, q.cost)
					require.Equal(t, want.Allowed, got.Allowed, "allowed, %s", where)
					require.Equal(t, want.Remaining, got.Remaining, "remaining, %s", where)
					// The script answers in whole ms, never earlier than a permit.
					require.GreaterOrEqual(t, got.RetryAfter, want.RetryAfter-time.Microsecond, "retry, %s", where)
					require.Less(t, got.RetryAfter, want.RetryAfter+time.Millisecond, "retry, %s", where)
					if got.Allowed {
						allowed++
					}
					total++
				}
			}
			require.Greater(t, allowed, 0)
			require.Less(t, allowed, total, "the sequences should exercise rejections too")
			t.Logf("%d of %d allowed, identical on both sides", allowed, total)
		})
	}
}
