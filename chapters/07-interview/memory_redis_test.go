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

	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
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

	tb, err := distributed.NewTokenBucket(rdb, buckets.Config{Capacity: 100, Rate: 100.0 / 60})
	if err != nil {
		t.Fatal(err)
	}
	// An id of 40 characters and a fractional token count (two requests
	// 1 ms apart), like chapter 06's memory table: MEMORY USAGE grows with
	// the id and with the digits of the stored tokens.
	id := func(i int) string { return fmt.Sprintf("customer-%031d", i) }
	t0 := time.UnixMilli(1_700_000_000_000)
	for _, at := range []time.Time{t0, t0.Add(time.Millisecond)} {
		if _, err := tb.AllowNAt(ctx, id(0), at, 1); err != nil {
			t.Fatal(err)
		}
	}
	key := distributed.Key(id(0), "tb")
	usage, err := rdb.MemoryUsage(ctx, key, 0).Result()
	if err != nil {
		t.Fatal(err)
	}
	if usage != MemoryUsageTokenBucket {
		t.Errorf("MEMORY USAGE of %s is %d B; chapter 06 measured %d", key, usage, MemoryUsageTokenBucket)
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
	if perKey < 225 || perKey > 245 { // the README says "about 235 B per key"
		t.Errorf("%.1f B per key; the README says about 235", perKey)
	}
}
