package fixedwindow

import (
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	framing "github.com/ratelimit-course/ratelimit/chapters/01-framing"
	"golang.org/x/time/rate"
)

// Every benchmark sends one request per 500 µs against W = 1 s, L = 1000:
// two requests per permit, so half the decisions allow and half reject.
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
	var seed atomic.Int64
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		// Each goroutine walks its own clock over every key; a key may see a
		// slightly older instant from another goroutine, which it treats as
		// the latest time seen.
		i := int(seed.Add(7919))
		now := benchOrigin
		for pb.Next() {
			i++
			now = now.Add(benchStep / benchKeys)
			allow(keys[i&(benchKeys-1)], now)
		}
	})
}

func BenchmarkFixedWindow(b *testing.B) {
	c := Config{Window: time.Second, Limit: benchLimit}
	b.Run("AllowN", func(b *testing.B) {
		w, err := New(c)
		if err != nil {
			b.Fatal(err)
		}
		benchSingle(b, w)
	})
	b.Run("KeyedParallel", func(b *testing.B) {
		k, err := NewLimiter(c)
		if err != nil {
			b.Fatal(err)
		}
		benchKeyed(b, k.Allow)
	})
}

func BenchmarkFixedWindowTTL(b *testing.B) {
	c := Config{Window: time.Second, Limit: benchLimit}
	b.Run("AllowN", func(b *testing.B) {
		w, err := NewTTL(c)
		if err != nil {
			b.Fatal(err)
		}
		benchSingle(b, w)
	})
	b.Run("KeyedParallel", func(b *testing.B) {
		k, err := NewTTLLimiter(c)
		if err != nil {
			b.Fatal(err)
		}
		benchKeyed(b, k.Allow)
	})
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
