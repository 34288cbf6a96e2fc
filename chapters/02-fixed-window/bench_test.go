package fixedwindow

import (
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/internal/algotest"
)

// Every benchmark sends one request per 500 µs against W = 1 s, L = 1000:
// two requests per permit, so half the decisions allow and half reject.
const (
	benchStep  = 500 * time.Microsecond
	benchLimit = 1000
)

func BenchmarkFixedWindow(b *testing.B) {
	c := Config{Window: time.Second, Limit: benchLimit}
	b.Run("AllowN", func(b *testing.B) {
		w, err := New(c)
		if err != nil {
			b.Fatal(err)
		}
		algotest.BenchSingle(b, w, benchStep)
	})
	b.Run("KeyedParallel", func(b *testing.B) {
		k, err := NewLimiter(c)
		if err != nil {
			b.Fatal(err)
		}
		algotest.BenchKeyed(b, k.Allow, benchStep, 0)
	})
}

func BenchmarkFixedWindowTTL(b *testing.B) {
	c := Config{Window: time.Second, Limit: benchLimit}
	b.Run("AllowN", func(b *testing.B) {
		w, err := NewTTL(c)
		if err != nil {
			b.Fatal(err)
		}
		algotest.BenchSingle(b, w, benchStep)
	})
	b.Run("KeyedParallel", func(b *testing.B) {
		k, err := NewTTLLimiter(c)
		if err != nil {
			b.Fatal(err)
		}
		algotest.BenchKeyed(b, k.Allow, benchStep, 0)
	})
}

// BenchmarkReferenceXTimeRate is the yardstick for the ratios quoted in the
// README: golang.org/x/time/rate's AllowN, one key, the same request stream.
func BenchmarkReferenceXTimeRate(b *testing.B) {
	algotest.BenchXTimeRate(b, benchLimit, benchStep)
}
