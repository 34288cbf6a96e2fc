package algotest

import (
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

func TestMaxInWindowCountsPermits(t *testing.T) {
	// Half-open: 0 and 1000 are not in one window of 1000, 0 and 999 are.
	if got := MaxInWindow([]int64{0, 1000}, nil, 1000); got != 1 {
		t.Fatalf("half-open: got %d, want 1", got)
	}
	if got := MaxInWindow([]int64{0, 999, 1000}, []int{2, 3, 4}, 1000); got != 7 {
		t.Fatalf("costs 3 and 4 in [999, 1999): got %d, want 7", got)
	}
}

// firstTwo admits the first two requests, whatever their time.
type firstTwo struct{ n int }

func (f *firstTwo) MaxCost() int { return 1 }
func (f *firstTwo) AllowN(time.Time, int) core.Decision {
	f.n++
	return core.Decision{Allowed: f.n <= 2}
}

func TestRunAndLetters(t *testing.T) {
	if got := Letters(Run(&firstTwo{}, 0, 10, 20)); got != "A A R" {
		t.Fatalf("got %q, want %q", got, "A A R")
	}
}
