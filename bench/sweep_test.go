package bench

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
)

// BenchmarkSweepMemory: a million keys' token buckets, then a Sweep once they
// are all full again; it reports the heap the keys took and what is still
// held after the sweep and a collection (a Go map keeps the room it grew
// to, so Keyed.Sweep copies a shard's map that fell under a quarter of its
// peak into one of its size).
func BenchmarkSweepMemory(b *testing.B) {
	const n = 1_000_000
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprintf("client-%d", i)
	}
	heap := func() float64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return float64(m.HeapAlloc) / 1e6
	}
	for b.Loop() {
		before := heap()
		k, err := buckets.NewTokenBucketLimiter(buckets.Config{Capacity: 10, Rate: 10})
		if err != nil {
			b.Fatal(err)
		}
		t0 := time.Unix(1_700_000_000, 0)
		for _, key := range keys {
			k.Allow(key, t0)
		}
		full := heap()
		if got := k.Sweep(t0.Add(time.Second)); got != n {
			b.Fatalf("swept %d keys, want %d", got, n)
		}
		after := heap()
		b.ReportMetric(full-before, "MB-with-keys")
		b.ReportMetric(after-before, "MB-after-sweep")
		runtime.KeepAlive(k)
	}
}
