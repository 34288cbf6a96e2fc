package buckets

// The domain (CONTRACT.md §1): bad configurations, its corners, and costs
// outside 1..C.

import (
	"errors"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/internal/algotest"
)

func TestBadParameters(t *testing.T) {
	cases := []struct {
		c     Config
		param string
	}{
		{Config{Capacity: 0, Rate: 1}, "capacity"},
		{Config{Capacity: -3, Rate: 1}, "capacity"},
		{Config{Capacity: core.MaxCount + 1, Rate: 1e9}, "capacity"},
		{Config{Capacity: 1 << 53, Rate: 1e9}, "capacity"}, // beyond float64's whole numbers too
		{Config{Capacity: 3, Rate: 0}, "rate"},
		{Config{Capacity: 3, Rate: -2}, "rate"},
		{Config{Capacity: 3, Rate: math.NaN()}, "rate"},
		{Config{Capacity: 3, Rate: math.Inf(1)}, "rate"},
		{Config{Capacity: 3, Rate: math.Inf(-1)}, "rate"},
		{Config{Capacity: 3, Rate: 2e9}, "rate"},            // T below one nanosecond
		{Config{Capacity: 3, Rate: 1e-12}, "rate"},          // refilling would take 95 000 years
		{Config{Capacity: 1e9, Rate: 0.5}, "rate"},          // a full refill of 2e9 s
		{Config{Capacity: 0, Rate: math.NaN()}, "capacity"}, // the first bad one is named
	}
	check := algotest.ParamError
	for _, tc := range cases {
		check(t, "Validate", tc.c.Validate(), tc.param)
		for _, a := range allAlgos {
			l, err := a.make(tc.c)
			check(t, a.name, err, tc.param)
			if err == nil && l != nil {
				t.Errorf("%s %+v: got a limiter", a.name, tc.c)
			}
		}
		_, err := NewTokenBucketLimiter(tc.c)
		check(t, "NewTokenBucketLimiter", err, tc.param)
		_, err = NewGCRALimiter(tc.c)
		check(t, "NewGCRALimiter", err, tc.param)
		_, err = NewLeakyQueueLimiter(tc.c)
		check(t, "NewLeakyQueueLimiter", err, tc.param)
	}
	for _, c := range []Config{{1, 1}, {3, 2}, {1e9, 1e9}, {1e9, 1}, {1, 1e-9}, {100, 100.0 / 60}} {
		if err := c.Validate(); err != nil {
			t.Errorf("%+v: %v, want valid", c, err)
		}
	}
	// Instants outside the domain (1970 to 2200) are refused by the keyed
	// limiters, so no TAT comes near the end of int64 nanoseconds (2262).
	c := Config{Capacity: 3, Rate: 2}
	tb, err1 := NewTokenBucketLimiter(c)
	g, err2 := NewGCRALimiter(c)
	q, err3 := NewLeakyQueueLimiter(c)
	if err := errors.Join(err1, err2, err3); err != nil {
		t.Fatal(err)
	}
	for _, now := range []time.Time{time.Date(1700, 1, 1, 0, 0, 0, 0, time.UTC), core.End, time.Unix(0, math.MaxInt64)} {
		for name, l := range map[string]keyedAllow{"token-bucket": tb, "gcra": g, "leaky-queue": q} {
			_, err := l.AllowN("k", now, 1)
			check(t, fmt.Sprintf("%s at %v", name, now), err, "time")
		}
	}
}

// TestDomainCorners: at the corners of the domain (C = 1e9 at R = 1e9 and at
// R = 1, whose tau is 31 years; C = 1 at R = 1e-9, T = 1e18 ns) in the year
// 2199, a full bucket is spent in one request, the next is rejected, its
// RetryAfter is about T, and waiting it out admits it.
func TestDomainCorners(t *testing.T) {
	start := time.Date(2199, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []Config{{1e9, 1e9}, {1e9, 1}, {1, 1e-9}} {
		T := 1e9 / c.Rate
		for _, a := range allAlgos {
			l := newAlgo(t, a, c)
			if d := l.AllowN(start, c.Capacity); !d.Allowed || d.Remaining != 0 {
				t.Errorf("%s %+v: the full bucket's worth %+v, want allowed, 0 left", a.name, c, d)
			}
			d := l.AllowN(start, 1)
			if d.Allowed || math.Abs(float64(d.RetryAfter)-T) > 1e-9*T+1 {
				t.Errorf("%s %+v: the next %+v, want rejected with RetryAfter %g ns", a.name, c, d, T)
			}
			if d := l.AllowN(start.Add(d.RetryAfter), 1); !d.Allowed {
				t.Errorf("%s %+v: rejected after waiting RetryAfter out: %+v", a.name, c, d)
			}
		}
	}
}

// TestCostOutOfRange: a cost the bucket could never hold is rejected at
// once, RetryAfter 0, state untouched; through Keyed it is an error.
func TestCostOutOfRange(t *testing.T) {
	c := Config{Capacity: 3, Rate: 2}
	for _, a := range allAlgos {
		l := newAlgo(t, a, c)
		if l.MaxCost() != 3 {
			t.Errorf("%s: MaxCost %d, want 3", a.name, l.MaxCost())
		}
		l.AllowN(ms(0), 2)
		for _, cost := range []int{0, -1, 4} {
			if d := l.AllowN(ms(10), cost); d.Allowed || d.RetryAfter != 0 || d.Wait != 0 {
				t.Errorf("%s cost %d: %+v, want rejected with RetryAfter 0", a.name, cost, d)
			}
		}
		if d := l.AllowN(ms(10), 1); !d.Allowed { // only 2 of 3 spent
			t.Errorf("%s: bad costs changed the state: %+v", a.name, d)
		}
	}
	tb, err := NewTokenBucketLimiter(c)
	if err != nil {
		t.Fatal(err)
	}
	var pe *core.ParamError
	if _, err := tb.AllowN("k", ms(0), 4); !errors.As(err, &pe) || pe.Param != "cost" {
		t.Errorf("Keyed cost 4: %v, want ParamError naming cost", err)
	}
}
