package sliding

import (
	"strconv"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/internal/algotest"
)

// Every benchmark but the last sends algotest's stream, one request per
// 500 µs, against W = 1 s, L = 1000: two requests per permit, so about half
// the decisions allow and half reject, and the log is full (1000 timestamps
// per key) most of the time.
const benchLimit = algotest.BenchLimit

func BenchmarkSlidingLog(b *testing.B) {
	// 2 s of warm-up: each key's array has grown to its final size (about
	// 2L entries) before the timer starts.
	c := Config{Window: time.Second, Limit: benchLimit}
	algotest.BenchPair(b, "", c, NewLog, NewLogLimiter, 4*benchLimit)
}

func BenchmarkSlidingCounter(b *testing.B) {
	for _, n := range []int{1, 10} {
		c := Config{Window: time.Second, Limit: benchLimit, SubWindows: n}
		algotest.BenchPair(b, "N="+strconv.Itoa(n)+"/", c, NewCounter, NewCounterLimiter, 2*benchLimit)
	}
}

// BenchmarkReferenceXTimeRate is the yardstick for the ratios quoted in the
// README: golang.org/x/time/rate's AllowN, one key, the same request stream.
func BenchmarkReferenceXTimeRate(b *testing.B) {
	algotest.BenchXTimeRate(b)
}

// BenchmarkSlidingLogRejection: a request rejected by a full log of L
// entries of cost 1, all inside the window (W = 1 h), at one instant so that
// nothing expires: cost 1 waits for the oldest entry, cost L/2 for the
// middle one. The rejection finds that entry by binary search over the
// entries' running totals, so its time grows with log L, not L.
func BenchmarkSlidingLogRejection(b *testing.B) {
	for _, limit := range []int{10, 1_000, 100_000, 1_000_000} {
		l, err := NewLog(Config{Window: time.Hour, Limit: limit})
		if err != nil {
			b.Fatal(err)
		}
		now := algotest.BenchOrigin
		for range limit {
			now = now.Add(time.Microsecond)
			if !l.AllowN(now, 1).Allowed {
				b.Fatal("the log must take L requests of cost 1")
			}
		}
		for _, cost := range []int{1, limit / 2} {
			b.Run("L="+strconv.Itoa(limit)+"/cost="+strconv.Itoa(cost), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if l.AllowN(now, cost).Allowed {
						b.Fatal("a full log must reject")
					}
				}
			})
		}
	}
}
