//go:build !exercise

package sliding

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/internal/algotest"
)

// Regression tests for the reference implementation only: what they pin
// (the exact nanosecond, memory, a figure in the text) is not needed to pass
// the exercise.

// TestRetryAfterIsTheFirstInstant: RetryAfter is not only late enough but
// the first instant that admits the request: 1 ns and 1 ms earlier do not.
// For the counter that holds because RetryAfter is found with the same fits
// that AllowN uses.
func TestRetryAfterIsTheFirstInstant(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	for trial := range 120 {
		n := []int{0, 1, 2, 5, 10}[trial%5]
		limit := 1 + r.IntN(6)
		arrivals, costs := randomArrivals(r, 30, limit, 150)
		algotest.CheckRetryAfter(t, func() core.Algorithm { return newLog(t, time.Second, limit) }, arrivals, costs, true)
		algotest.CheckRetryAfter(t, func() core.Algorithm { return newCounter(t, time.Second, limit, n) }, arrivals, costs, true)
	}
}

// TestCounterRetryAfterAgainstExactArithmetic: the counter's RetryAfter is
// the first instant exact arithmetic admits the request, to the nanosecond
// (fits decides in exact integers; the float64 solve is only a start).
func TestCounterRetryAfterAgainstExactArithmetic(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	checked := 0
	for trial := range 200 {
		n := []int{1, 2, 4, 5, 10}[trial%5]
		w := []time.Duration{time.Second, time.Minute}[trial%2]
		limit := 1 + r.IntN(8)
		arrivals, costs := randomArrivals(r, 40, limit, w.Milliseconds()/8)
		c := newCounter(t, w, limit, n)
		var sentAt []int64
		var sentCost []int
		for i, a := range arrivals {
			now := a * 1e6
			d := c.AllowN(at(a), costs[i])
			if d.Allowed {
				sentAt, sentCost = append(sentAt, now), append(sentCost, costs[i])
				continue
			}
			fits := func(u int64) bool {
				ok, _ := counterOracle(sentAt, sentCost, u, int64(w), n, costs[i], limit)
				return ok
			}
			lo, hi := now+1, now+2*int64(w) // the first u in (now, now+2W] that fits
			for lo < hi {
				if m := lo + (hi-lo)/2; fits(m) {
					hi = m
				} else {
					lo = m + 1
				}
			}
			if got := now + int64(d.RetryAfter); got != lo {
				t.Fatalf("trial %d (W=%v N=%d L=%d) request %d at %d ms cost %d: retry at %d ns, exact %d ns",
					trial, w, n, limit, i, a, costs[i], got, lo)
			}
			checked++
		}
	}
	if checked < 500 {
		t.Fatalf("only %d rejections checked", checked)
	}
}

// TestSlidingLogHugeCostIsOneEntry: the log once kept a request of cost k as
// k timestamps, so one request of cost L asked for L slots; with L = 1e9 that
// is gigabytes. A request is one entry whatever its cost.
func TestSlidingLogHugeCostIsOneEntry(t *testing.T) {
	const huge = core.MaxCount
	l := newLog(t, time.Second, huge)
	ds := []core.Decision{l.AllowN(at(0), huge), l.AllowN(at(10), 1), l.AllowN(at(1000), huge-1), l.AllowN(at(1001), 2)}
	if got := algotest.Letters(ds); got != "A R A R" {
		t.Fatalf("got %s, want A R A R", got)
	}
	if ds[0].Remaining != 0 || ds[1].RetryAfter != 990*time.Millisecond || ds[2].Remaining != 1 ||
		ds[3].Remaining != 1 || ds[3].RetryAfter != 999*time.Millisecond {
		t.Fatalf("decisions %+v", ds)
	}
	if len(l.log)-l.head != 1 || cap(l.log) > 8 {
		t.Fatalf("log holds %d entries in an array of %d, want 1 in a small one", len(l.log)-l.head, cap(l.log))
	}
}

// TestSlidingCounterTieBeyondTheTolerance: the same tie as
// TestSlidingCounterTieNeedsTheTolerance, at sizes where a float64 estimate
// is off by more than the 1e-9 tolerance (its resolution near 2e7 is 4e-9,
// near 3e8 6e-8). The reference once admitted these ties; it now decides in
// exact integers. Checked at e = 0 and in mid-window, where
// old·(S-e)/S is a whole number m too.
func TestSlidingCounterTieBeyondTheTolerance(t *testing.T) {
	for _, c := range []struct {
		w            time.Duration
		limit, old   int
		e            time.Duration
		cost         int
		whatFloatGot string
	}{
		{time.Hour, 20_496_385, 20_496_385, 0, 1, "20496384.999999996"},
		{time.Minute, 307_445_735, 307_445_735, 0, 1, "307445734.99999994"},
		{time.Minute, 999_999_998, 999_999_998, 0, 1, "999999997.9999999"},
		// W = 50,067 ms; the previous window's L = 948,429,218 at 0, weighed 1/2.
		{50_067 * time.Millisecond, 948_429_218, 948_429_218, 25_033_500 * time.Microsecond, 474_214_610, "474214608.99999994"},
	} {
		k := newCounter(t, c.w, c.limit, 1)
		if d := k.AllowN(at(0), c.old); !d.Allowed {
			t.Fatalf("W=%v L=%d: cost %d at 0: %+v", c.w, c.limit, c.old, d)
		}
		now := at(0).Add(c.w + c.e)
		if d := k.AllowN(now, c.cost); d.Allowed {
			t.Errorf("W=%v L=%d, cost %d at W+%v: allowed, want rejected: estimate + cost - 1 is exactly L (float64 had %s for the weighted part)",
				c.w, c.limit, c.cost, c.e, c.whatFloatGot)
		}
	}
}
