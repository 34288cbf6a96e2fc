package sliding

import (
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	framing "github.com/ratelimit-course/ratelimit/chapters/01-framing"
	"golang.org/x/time/rate"
)

// Every benchmark sends one request per 500 µs against W = 1 s, L = 1000:
// two requests per permit, so about half the decisions allow and half reject,
// and the log is full (1000 timestamps per key) most of the time.
const (
	benchStep  = 500 * time.Microsecond
	benchLimit = 1000
	benchKeys  = 1024
)

var benchOrigin = time.Unix(1_700_000_000, 0)

func benchSingle(b *testing.B, a framing.Algorithm) {
	b.ReportAllocs()
	now := benchOrigin
	for b.Loop() {
		now = now.Add(benchStep)
		a.AllowN(now, 1)
	}
}

func benchKeyed(b *testing.B, allow func(key string, now time.Time) framing.Decision) {
	keys := make([]string, benchKeys)
	for i := range keys {
		keys[i] = "user:" + strconv.Itoa(i)
	}
	// Warm every key up to its peak so that the log's one-off growth to L
	// entries is not charged to the timed decisions.
	for i := range 2 * benchLimit {
		for _, k := range keys {
			allow(k, benchOrigin.Add(time.Duration(i)*benchStep))
		}
	}
	var seed atomic.Int64
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := int(seed.Add(7919))
		now := benchOrigin.Add(2 * benchLimit * benchStep)
		for pb.Next() {
			i++
			now = now.Add(benchStep / benchKeys)
			allow(keys[i&(benchKeys-1)], now)
		}
	})
}

func BenchmarkSlidingLog(b *testing.B) {
	c := Config{Window: time.Second, Limit: benchLimit}
	b.Run("AllowN", func(b *testing.B) {
		l, err := NewLog(c)
		if err != nil {
			b.Fatal(err)
		}
		benchSingle(b, l)
	})
	b.Run("KeyedParallel", func(b *testing.B) {
		k, err := NewLogLimiter(c)
		if err != nil {
			b.Fatal(err)
		}
		benchKeyed(b, k.Allow)
	})
}

func BenchmarkSlidingCounter(b *testing.B) {
	for _, n := range []int{1, 10} {
		c := Config{Window: time.Second, Limit: benchLimit, SubWindows: n}
		b.Run("N="+strconv.Itoa(n)+"/AllowN", func(b *testing.B) {
			k, err := NewCounter(c)
			if err != nil {
				b.Fatal(err)
			}
			benchSingle(b, k)
		})
		b.Run("N="+strconv.Itoa(n)+"/KeyedParallel", func(b *testing.B) {
			k, err := NewCounterLimiter(c)
			if err != nil {
				b.Fatal(err)
			}
			benchKeyed(b, k.Allow)
		})
	}
}

// BenchmarkReferenceXTimeRate is the yardstick for the ratios quoted in the
// README: golang.org/x/time/rate's AllowN, one key, the same request stream.
func BenchmarkReferenceXTimeRate(b *testing.B) {
	l := rate.NewLimiter(rate.Limit(benchLimit), benchLimit)
	b.ReportAllocs()
	now := benchOrigin
	for b.Loop() {
		now = now.Add(benchStep)
		l.AllowN(now, 1)
	}
}
