//go:build !exercise06

package distributed

import (
	"context"
	"testing"
	"time"

	fixedwindow "github.com/ratelimit-course/ratelimit/chapters/02-fixed-window"
	sliding "github.com/ratelimit-course/ratelimit/chapters/03-sliding"
	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/internal/redistest"
)

// Peek reads what a key has left and counts nothing, on every script: the
// check that a descriptor's hits_addend of 0 asks for (chapter 10). Slow
// limits (per hour), so that the server clock moving between calls changes
// nothing.
func TestPeekCountsNothing(t *testing.T) {
	rdb := redistest.Client(t)
	w := fixedwindow.Config{Window: time.Hour, Limit: 3}
	lw := sliding.Config{Window: time.Hour, Limit: 3}
	sc := sliding.Config{Window: time.Hour, Limit: 3, SubWindows: 4}
	b := buckets.Config{Capacity: 3, Rate: 3.0 / 3600}
	type peeker interface {
		AllowN(ctx context.Context, id string, cost int) (core.Decision, error)
		Peek(ctx context.Context, id string) (core.Decision, error)
	}
	for _, tc := range []struct {
		name string
		l    peeker
		// refusals counted: a fixed window counts refused hits, so a peek
		// after one sees the count past the limit, as INCRBY 0 would.
		overAfterRefusal bool
	}{
		{"fixed-window", ok(NewFixedWindow(rdb, w)), true},
		{"fixed-window-ttl", ok(NewFixedWindowTTL(rdb, w)), true},
		{"sliding-log", ok(NewSlidingLog(rdb, lw)), false},
		{"sliding-counter", ok(NewSlidingCounter(rdb, sc)), false},
		{"token-bucket", ok(NewTokenBucket(rdb, b)), false},
		{"gcra", ok(NewGCRA(rdb, b)), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			id := redistest.ID(t)
			peek := func(want int, allowed bool) {
				t.Helper()
				d, err := tc.l.Peek(ctx, id)
				if err != nil || d.Remaining != want || d.Allowed != allowed {
					t.Fatalf("Peek: %+v, %v; want remaining %d, allowed %v", d, err, want, allowed)
				}
			}
			peek(3, true) // a key never seen
			for i := range 2 {
				if d, err := tc.l.AllowN(ctx, id, 1); err != nil || !d.Allowed {
					t.Fatalf("request %d: %+v, %v", i, d, err)
				}
			}
			peek(1, true)
			peek(1, true) // twice: nothing was counted
			if d, err := tc.l.AllowN(ctx, id, 1); err != nil || !d.Allowed || d.Remaining != 0 {
				t.Fatalf("the last request the limit holds: %+v, %v", d, err)
			}
			peek(0, true)
			if d, err := tc.l.AllowN(ctx, id, 1); err != nil || d.Allowed {
				t.Fatalf("past the limit: %+v, %v", d, err)
			}
			peek(0, !tc.overAfterRefusal)
			if n, err := rdb.Exists(ctx, Key(id, "log")).Result(); err == nil && tc.name == "sliding-log" {
				if size, _ := rdb.ZCard(ctx, Key(id, "log")).Result(); n != 1 || size != 4 {
					t.Fatalf("sliding log after 3 entries and 5 peeks: %d members, want 4 (3 entries and t)", size)
				}
			}
		})
	}
}
