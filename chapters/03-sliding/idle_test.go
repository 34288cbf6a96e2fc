//go:build !exercise

package sliding

import (
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/internal/algotest"
)

// Idle is a reference extra (Keyed.Sweep uses it), not part of the exercise.
func TestIdleIsLossless(t *testing.T) {
	t.Run("sliding-log", func(t *testing.T) {
		c := Config{Window: time.Second, Limit: 3}
		algotest.IdleIsLossless(t, func() core.Algorithm { a, _ := NewLog(c); return a }, 3, time.Second)
	})
	for _, n := range []int{1, 4} {
		c := Config{Window: time.Second, Limit: 3, SubWindows: n}
		t.Run("sliding-counter", func(t *testing.T) {
			// A count is remembered for the window it fell in and the next.
			algotest.IdleIsLossless(t, func() core.Algorithm { a, _ := NewCounter(c); return a }, 3, 2*time.Second)
		})
	}
}

func TestSweepForgetsAgedOutLogs(t *testing.T) {
	k, err := NewLogLimiter(Config{Window: time.Second, Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	k.Allow("a", time.UnixMilli(820))
	if got := k.Sweep(time.UnixMilli(1819)); got != 0 {
		t.Fatalf("at 1819 ms the entry at 820 is 999 ms old and still counts; swept %d", got)
	}
	if got := k.Sweep(time.UnixMilli(1820)); got != 1 || k.Len() != 0 {
		t.Fatalf("at 1820 ms (age exactly W) the log is empty: swept %d, %d left", got, k.Len())
	}
}
