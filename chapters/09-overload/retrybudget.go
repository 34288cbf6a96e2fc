package overload

import (
	"sync"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// RetryBudget lets a client retry only while its retries stay within ratio of
// its requests over the last window: with 0.1, one retry per ten requests, so
// a failing backend sees at most 1.1 times its normal load, not the 3 times
// that "three attempts per request" makes. Safe for concurrent use.
type RetryBudget struct {
	mu    sync.Mutex
	ratio float64
	t     tally // a: first attempts, b: retries
}

// NewRetryBudget returns a budget of ratio (above 0, at most 1) over window.
func NewRetryBudget(ratio float64, window time.Duration) (*RetryBudget, error) {
	if !(ratio > 0 && ratio <= 1) {
		return nil, core.BadParam("ratio", ratio, "a number above 0 and at most 1")
	}
	if err := core.CheckWindow("window", window); err != nil || window < 10 {
		return nil, core.BadParam("window", window, "a duration from 10ns to 1e18ns")
	}
	return &RetryBudget{ratio: ratio, t: tally{slot: window / 10}}, nil
}

// Request counts a first attempt at now.
func (b *RetryBudget) Request(now time.Time) {
	b.mu.Lock()
	b.t.add(now, 1, 0)
	b.mu.Unlock()
}

// Retry reports whether one more retry fits the budget at now, and counts it
// if it does: retries + 1 <= ratio × requests (a tie allows, within core.Tolerance).
func (b *RetryBudget) Retry(now time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	requests, retries := b.t.sum(now)
	if float64(retries+1) > b.ratio*float64(requests)+core.Tolerance {
		return false
	}
	b.t.add(now, 0, 1)
	return true
}
