package sliding

import (
	"strconv"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/internal/algotest"
)

// Every benchmark sends one request per 500 µs against W = 1 s, L = 1000:
// two requests per permit, so about half the decisions allow and half reject,
// and the log is full (1000 timestamps per key) most of the time.
const (
	benchStep  = 500 * time.Microsecond
	benchLimit = 1000
)

func BenchmarkSlidingLog(b *testing.B) {
	c := Config{Window: time.Second, Limit: benchLimit}
	b.Run("AllowN", func(b *testing.B) {
		l, err := NewLog(c)
		if err != nil {
			b.Fatal(err)
		}
		algotest.BenchSingle(b, l, benchStep)
	})
	b.Run("KeyedParallel", func(b *testing.B) {
		k, err := NewLogLimiter(c)
		if err != nil {
			b.Fatal(err)
		}
		// 2 s of warm-up: each key's array has grown to its final size
		// (about 2L entries) before the timer starts.
		algotest.BenchKeyed(b, k.Allow, benchStep, 4*benchLimit)
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
			algotest.BenchSingle(b, k, benchStep)
		})
		b.Run("N="+strconv.Itoa(n)+"/KeyedParallel", func(b *testing.B) {
			k, err := NewCounterLimiter(c)
			if err != nil {
				b.Fatal(err)
			}
			algotest.BenchKeyed(b, k.Allow, benchStep, 2*benchLimit)
		})
	}
}

// BenchmarkReferenceXTimeRate is the yardstick for the ratios quoted in the
// README: golang.org/x/time/rate's AllowN, one key, the same request stream.
func BenchmarkReferenceXTimeRate(b *testing.B) {
	algotest.BenchXTimeRate(b, benchLimit, benchStep)
}
