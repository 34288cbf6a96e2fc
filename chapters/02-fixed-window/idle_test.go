//go:build !exercise

package fixedwindow

import (
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/internal/algotest"
)

// Idle is a reference extra (Keyed.Sweep uses it), not part of the exercise.
func TestIdleIsLossless(t *testing.T) {
	c := Config{Window: time.Second, Limit: 3}
	t.Run("fixed-window", func(t *testing.T) {
		algotest.IdleIsLossless(t, func() core.Algorithm { a, _ := New(c); return a }, 3, time.Second)
	})
	t.Run("fixed-window-ttl", func(t *testing.T) {
		algotest.IdleIsLossless(t, func() core.Algorithm { a, _ := NewTTL(c); return a }, 3, time.Second)
	})
}

func TestSweepForgetsPassedWindows(t *testing.T) {
	k, err := NewLimiter(Config{Window: time.Second, Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	k.Allow("a", time.UnixMilli(900))
	k.Allow("b", time.UnixMilli(1500))
	if got := k.Sweep(time.UnixMilli(1999)); got != 1 || k.Len() != 1 {
		t.Fatalf("at 1999 ms: swept %d, %d left; want 1 swept (a's window 0 ended), 1 left", got, k.Len())
	}
	if got := k.Sweep(time.UnixMilli(2000)); got != 1 || k.Len() != 0 {
		t.Fatalf("at 2000 ms: swept %d, %d left; want 1, 0", got, k.Len())
	}
}
