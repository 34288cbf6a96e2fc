package buckets

import (
	"strconv"
	"sync"
	"testing"
	"time"

	"golang.org/x/time/rate"
)

// Every benchmark feeds the same clock: request i arrives at benchStart +
// i·benchStep, twice the refill rate, so about half are admitted and half
// rejected (both paths are measured). Building the time.Time is part of every
// loop alike, so the ratios compare the limiters.
var benchConfig = Config{Capacity: 10, Rate: 1000}

const (
	benchStart = int64(1_700_000_000) * int64(time.Second)
	benchStep  = int64(500 * time.Microsecond)
)

func benchTime(i int) time.Time { return time.Unix(0, benchStart+int64(i)*benchStep) }

var sink bool

func BenchmarkTokenBucket(b *testing.B) {
	tb, err := NewTokenBucket(benchConfig)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		sink = tb.AllowN(benchTime(i), 1).Allowed
	}
}

// BenchmarkXTimeRate is the reference: x/time/rate's AllowN on the same
// clock, same C and R. It takes a mutex on every call, which the one-key
// Algorithm does not; BenchmarkTokenBucketLocked adds one for the like-for-
// like comparison.
func BenchmarkXTimeRate(b *testing.B) {
	lim := rate.NewLimiter(rate.Limit(benchConfig.Rate), benchConfig.Capacity)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		sink = lim.AllowN(benchTime(i), 1)
	}
}

func BenchmarkTokenBucketLocked(b *testing.B) {
	tb, err := NewTokenBucket(benchConfig)
	if err != nil {
		b.Fatal(err)
	}
	var mu sync.Mutex
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		mu.Lock()
		sink = tb.AllowN(benchTime(i), 1).Allowed
		mu.Unlock()
	}
}

func BenchmarkGCRA(b *testing.B) {
	g, err := NewGCRA(benchConfig)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		sink = g.AllowN(benchTime(i), 1).Allowed
	}
}

func BenchmarkLeakyQueue(b *testing.B) {
	q, err := NewLeakyQueue(benchConfig)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		sink = q.AllowN(benchTime(i), 1).Allowed
	}
}

// R = 999 per second makes T = 1 001 001.001 ns, not a whole number, so
// n·T is a whole number of ns only every 999th permit; the clock is the same.
var benchFractional = Config{Capacity: 10, Rate: 999}

func BenchmarkGCRAFractionalT(b *testing.B) {
	g, err := NewGCRA(benchFractional)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		sink = g.AllowN(benchTime(i), 1).Allowed
	}
}

func BenchmarkLeakyQueueFractionalT(b *testing.B) {
	q, err := NewLeakyQueue(benchFractional)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		sink = q.AllowN(benchTime(i), 1).Allowed
	}
}

// The keyed variants spread goroutines over 1024 keys through core.Keyed
// (sharded locks). Goroutines keep their own clocks, so one key sees times
// slightly out of order, which every algorithm here takes as the latest time
// seen.
var benchKeys = func() []string {
	ks := make([]string, 1024)
	for i := range ks {
		ks[i] = "key:" + strconv.Itoa(i)
	}
	return ks
}()

func benchKeyed(b *testing.B, allow func(key string, now time.Time) bool) {
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		var ok bool
		for i := 0; pb.Next(); i++ {
			ok = allow(benchKeys[i&1023], benchTime(i>>10))
		}
		sink = ok
	})
}

func BenchmarkTokenBucketKeyedParallel(b *testing.B) {
	lim, err := NewTokenBucketLimiter(benchConfig)
	if err != nil {
		b.Fatal(err)
	}
	benchKeyed(b, func(k string, now time.Time) bool { return lim.Allow(k, now).Allowed })
}

func BenchmarkGCRAKeyedParallel(b *testing.B) {
	lim, err := NewGCRALimiter(benchConfig)
	if err != nil {
		b.Fatal(err)
	}
	benchKeyed(b, func(k string, now time.Time) bool { return lim.Allow(k, now).Allowed })
}

func BenchmarkLeakyQueueKeyedParallel(b *testing.B) {
	lim, err := NewLeakyQueueLimiter(benchConfig)
	if err != nil {
		b.Fatal(err)
	}
	benchKeyed(b, func(k string, now time.Time) bool { return lim.Allow(k, now).Allowed })
}
