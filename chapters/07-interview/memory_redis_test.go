//go:build linux && !exercise

package interview

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
	"github.com/ratelimit-course/ratelimit/internal/redistest"
)

// usedMemory is INFO memory's used_memory, in bytes.
func usedMemory(t *testing.T, ctx context.Context, rdb *redis.Client) int64 {
	t.Helper()
	info, err := rdb.Info(ctx, "memory").Result()
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(info, "\r\n") {
		if v, ok := strings.CutPrefix(line, "used_memory:"); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatalf("no used_memory in INFO memory: %q", info)
	return 0
}

// TestMemoryPerKeyWithinTheRange checks the bytes-per-key model on a Redis
// of the test's own: chapter 06's token-bucket script writes one key, that
// key is copied (DUMP, RESTORE with its TTL) 100,000 times, and the growth
// of used_memory per key must exceed what MEMORY USAGE reports and fall
// inside BytesPerKey's range. used_memory leaves out the allocator's
// fragmentation (RSS), so the measurement sits near the range's low end.
func TestMemoryPerKeyWithinTheRange(t *testing.T) {
	d := redistest.StartDedicated(t)
	rdb := redis.NewClient(&redis.Options{Addr: d.Addr()})
	t.Cleanup(func() { _ = rdb.Close() })
	ctx := context.Background()

	tb, err := distributed.NewTokenBucket(rdb, distributed.BucketConfig{Capacity: 100, Rate: 100.0 / 60})
	if err != nil {
		t.Fatal(err)
	}
	// Ids of 40 characters and a fractional token count, like chapter 06's
	// memory table: MEMORY USAGE grows with the id and the stored digits.
	id := func(i int) string { return fmt.Sprintf("customer-%031d", i) }
	for range 2 {
		if _, err := tb.AllowN(ctx, id(0), 1); err != nil {
			t.Fatal(err)
		}
	}
	key := distributed.Key(id(0), "tb")
	usage, err := rdb.MemoryUsage(ctx, key, 0).Result()
	if err != nil {
		t.Fatal(err)
	}
	if usage < MemoryUsageTokenBucket/2 || usage > 2*MemoryUsageTokenBucket {
		t.Errorf("MEMORY USAGE of %s is %d B, far from chapter 06's %d", key, usage, MemoryUsageTokenBucket)
	}
	dump, err := rdb.Dump(ctx, key).Result()
	if err != nil {
		t.Fatal(err)
	}

	const n = 100_000
	before := usedMemory(t, ctx, rdb)
	for start := 1; start <= n; start += 10_000 {
		pipe := rdb.Pipeline()
		for i := start; i < start+10_000; i++ {
			pipe.Restore(ctx, distributed.Key(id(i), "tb"), time.Hour, dump)
		}
		if _, err := pipe.Exec(ctx); err != nil {
			t.Fatal(err)
		}
	}
	perKey := float64(usedMemory(t, ctx, rdb)-before) / n
	lo, hi := BytesPerKey(int(usage))
	t.Logf("MEMORY USAGE %d B; used_memory grew %.1f B per key over %d keys; the model's range %.0f to %.0f B", usage, perKey, n, lo, hi)
	if perKey <= float64(usage) || perKey < lo || perKey > hi {
		t.Fatalf("%.1f B per key: want more than MEMORY USAGE's %d B and within %.0f to %.0f B", perKey, usage, lo, hi)
	}
	if perKey < 180 || perKey > 220 { // the README says "about 200 B per key"
		t.Errorf("%.1f B per key; the README says about 200", perKey)
	}
}
