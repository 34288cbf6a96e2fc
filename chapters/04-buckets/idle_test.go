//go:build !exercise

package buckets

import (
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/internal/algotest"
)

// Idle is a reference extra (Keyed.Sweep uses it), not part of the exercise.
func TestIdleIsLossless(t *testing.T) {
	for _, c := range []Config{{Capacity: 3, Rate: 2}, {Capacity: 4, Rate: 3}, {Capacity: 1, Rate: 0.5}} {
		// A bucket is full again, and TAT is in the past, C/R after the last request.
		horizon := time.Duration(float64(c.Capacity)/c.Rate*1e9) + time.Millisecond
		t.Run("token-bucket", func(t *testing.T) {
			algotest.IdleIsLossless(t, func() core.Algorithm { a, _ := NewTokenBucket(c); return a }, c.Capacity, horizon)
		})
		t.Run("gcra", func(t *testing.T) {
			algotest.IdleIsLossless(t, func() core.Algorithm { a, _ := NewGCRA(c); return a }, c.Capacity, horizon)
		})
		t.Run("leaky-queue", func(t *testing.T) {
			algotest.IdleIsLossless(t, func() core.Algorithm { a, _ := NewLeakyQueue(c); return a }, c.Capacity, horizon)
		})
	}
}

func TestSweepForgetsFullBuckets(t *testing.T) {
	k, err := NewTokenBucketLimiter(Config{Capacity: 3, Rate: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, ms := range []int64{0, 10} {
		k.Allow("a", time.UnixMilli(ms))
	}
	// After 10 ms the bucket holds 1.02 of 3 tokens; the missing 1.98 refill
	// at 2 per second in 990 ms: full at 1000 ms.
	if got := k.Sweep(time.UnixMilli(999)); got != 0 {
		t.Fatalf("at 999 ms the bucket is not full yet; swept %d", got)
	}
	if got := k.Sweep(time.UnixMilli(1000)); got != 1 || k.Len() != 0 {
		t.Fatalf("at 1000 ms the bucket is full: swept %d, %d left", got, k.Len())
	}
}
