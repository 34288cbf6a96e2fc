package cluster

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	fixedwindow "github.com/ratelimit-course/ratelimit/chapters/02-fixed-window"
	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
)

// fixedWindow is the limiter the experiments count with: chapter 06's fixed
// window on rdb, limit per window.
func fixedWindow(rdb redis.Scripter, window time.Duration, limit int) (*distributed.FixedWindow, error) {
	return distributed.NewFixedWindow(rdb, fixedwindow.Config{Window: window, Limit: limit})
}

// windowCount reads a fixed-window key as a node holds it: chapter 06's
// script keeps one field per key, named for the window it counts, whose
// value is the count. The experiments compare it on two nodes (a failover,
// a slot migration) to show what was forgotten or carried over.
func windowCount(ctx context.Context, c redis.Cmdable, key string) (int64, error) {
	vals, err := c.HVals(ctx, key).Result()
	if err != nil {
		return 0, err
	}
	if len(vals) != 1 {
		return 0, fmt.Errorf("%s holds %d windows, want 1", key, len(vals))
	}
	return strconv.ParseInt(vals[0], 10, 64)
}
