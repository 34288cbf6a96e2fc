package overload

import (
	"fmt"
	"testing"
	"time"

	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
	"github.com/ratelimit-course/ratelimit/core"
)

// TestBudgetRetryNeverEarly: a Reserve rejected with RetryAfter d is
// admitted when it comes back at now + d, never told to wait longer again.
// The rates are fractional per nanosecond (3/s, 7/s, 0.3/s, E28's
// 10,000/min), where a wait computed in floating point can land a hair
// before the tokens are back; every cost from 1 to C is tried after the
// bucket is emptied, at offsets that leave a fraction of a token behind.
func TestBudgetRetryNeverEarly(t *testing.T) {
	cases := []struct {
		rate     float64
		capacity int
	}{
		{3, 5},
		{7, 10},
		{0.3, 4},
		{10_000.0 / 60, 40},
		{1e9 / 3, 9},
	}
	offsets := []time.Duration{0, 1, 333 * time.Microsecond, 100 * time.Millisecond, 1234567891}
	start := core.Epoch.Add(time.Hour)
	for _, c := range cases {
		cfg := buckets.Config{Capacity: c.capacity, Rate: c.rate}
		t.Run(fmt.Sprintf("rate=%v/C=%d", c.rate, c.capacity), func(t *testing.T) {
			for cost := 1; cost <= c.capacity; cost++ {
				for _, off := range offsets {
					b, err := NewBudget(cfg)
					if err != nil {
						t.Fatal(err)
					}
					if _, d := b.Reserve(start, c.capacity); !d.Allowed {
						t.Fatalf("emptying a full budget: %+v", d)
					}
					now := start.Add(off)
					_, d := b.Reserve(now, cost)
					if d.Allowed {
						continue // the offset already refilled cost tokens
					}
					if d.RetryAfter <= 0 {
						t.Fatalf("cost %d at +%v: rejected with RetryAfter %v", cost, off, d.RetryAfter)
					}
					if _, again := b.Reserve(now.Add(d.RetryAfter), cost); !again.Allowed {
						t.Errorf("cost %d at +%v: RetryAfter %v is early: at +%v %+v (tokens %v)",
							cost, off, d.RetryAfter, off+d.RetryAfter, again, b.Tokens(now.Add(d.RetryAfter)))
					}
				}
			}
		})
	}
}
