package cluster

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/internal/redisproc"
)

// decider is what every limiter of the parent package offers.
type decider interface {
	AllowNAt(ctx context.Context, id string, now time.Time, cost int) (core.Decision, error)
}

// checkPrefix rejects a prefix that would break the identities' hash tags.
func checkPrefix(p string) error {
	if p == "" || strings.ContainsAny(p, "{}") {
		return core.BadParam("prefix", strconv.Quote(p), "a non-empty string without { or }")
	}
	return nil
}

// idOn returns prefix.N for the first N whose slot the primary at addr serves.
func idOn(top redisproc.Topology, addr, prefix string) string {
	for n := 0; ; n++ {
		id := fmt.Sprintf("%s.%d", prefix, n)
		if o, _ := top.Owner(KeySlot(distributed.Key(id, "fw"))); o.Addr == addr {
			return id
		}
	}
}

// warm makes one decision with each limiter on every primary, for an
// identity of its own, and borrows once from a prefetch key of its own
// there if borrow is set: the scripts are then cached on every primary, so
// a counted run sends EVALSHA only (no NOSCRIPT round trip).
func warm(ctx context.Context, cc *redis.ClusterClient, top redisproc.Topology, prefix string, borrow bool, ls ...decider) error {
	at := time.UnixMilli(1_700_000_000_000)
	for _, p := range top.Primaries() {
		id := idOn(top, p.Addr, prefix+"-warm")
		for _, l := range ls {
			if _, err := l.AllowNAt(ctx, id, at, 1); err != nil {
				return fmt.Errorf("warming %s: %w", p.Addr, err)
			}
		}
		if borrow {
			bc := distributed.BorrowConfig{Key: distributed.Key(id, "prefetch"), Limit: 1, Batch: 1, Window: time.Second}
			if _, err := distributed.Borrow(ctx, cc, bc, at); err != nil {
				return fmt.Errorf("warming %s: %w", p.Addr, err)
			}
		}
	}
	return nil
}

// scriptCalls is how many scripts the node ran since its last CONFIG
// RESETSTAT (EVALSHA and EVAL).
func scriptCalls(ctx context.Context, c *redis.Client) (int64, error) {
	return redisproc.Calls(ctx, c, "evalsha", "eval")
}

// runWindows sends n requests in each of windows windows, window after
// window, from workers goroutines; decide(w, i) decides request i of window
// w. The first error stops the run.
func runWindows(ctx context.Context, windows, n, workers int, decide func(w, i int) error) error {
	for w := 0; w < windows; w++ {
		var next atomic.Int64
		var first error
		var once sync.Once
		var wg sync.WaitGroup
		for g := 0; g < workers; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
					if err := decide(w, i); err != nil {
						once.Do(func() { first = err })
						return
					}
				}
			}()
		}
		wg.Wait()
		if first != nil {
			return first
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

func loads(a []atomic.Int64) []int64 {
	out := make([]int64, len(a))
	for i := range a {
		out[i] = a[i].Load()
	}
	return out
}
