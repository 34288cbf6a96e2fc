package sliding

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/internal/algotest"
)

func TestE2_SlidingCounterEstimate(t *testing.T) {
	// prev = 3, curr = 0, now = 1300: the window (300, 1300] covers 70% of
	// window 0, so the estimate is 3 * 0.7 = 2.1 wherever the 3 sat.
	layouts := []struct {
		name      string
		prev      []int64
		trueCount int // of the 3, how many really lie inside (300, 1300]
	}{
		{"at the start (over-estimate)", []int64{0, 10, 20}, 0},
		{"at the end (under-estimate)", []int64{970, 980, 990}, 3},
		{"spread", []int64{100, 400, 700}, 2},
	}
	for _, l := range layouts {
		t.Run(l.name, func(t *testing.T) {
			c := newCounter(t, time.Second, 3, 1)
			algotest.Run(c, l.prev...)
			if got := c.Estimate(at(1300)); math.Abs(got-2.1) > 1e-9 {
				t.Fatalf("Estimate(1300) = %v, want 2.1", got)
			}
			log := newLog(t, time.Second, 3)
			algotest.Run(log, l.prev...)
			// The log's Remaining for a request at 1300 gives the true count.
			d := log.AllowN(at(1300), 1)
			if got := 3 - d.Remaining - 1; d.Allowed && got != l.trueCount || !d.Allowed && l.trueCount != 3 {
				t.Fatalf("true count in (300, 1300]: log says %+v, want %d", d, l.trueCount)
			}
			d = c.AllowN(at(1300), 1)
			st := c.State()
			if !d.Allowed || st.WindowID != 1 || st.Prev != 3 || st.Curr != 1 || math.Abs(st.Estimate-2.1) > 1e-9 {
				t.Fatalf("decision at 1300 %+v, state %+v; want allowed, window 1, prev 3, curr 1, estimate 2.1", d, st)
			}
		})
	}
}

// runCounterE runs one worked example through the counter and the log and
// checks decisions and the estimates (to two decimals) at the given indexes.
func runCounterE(t *testing.T, arrivals []int64, wantCounter string, estAt map[int]string, wantLog string) []core.Decision {
	t.Helper()
	c := newCounter(t, time.Second, 3, 1)
	ds := make([]core.Decision, len(arrivals))
	for i, a := range arrivals {
		ds[i] = c.AllowN(at(a), 1)
		if want, ok := estAt[i]; ok {
			if got := fmt.Sprintf("%.2f", c.State().Estimate); got != want {
				t.Errorf("estimate at %d = %s, want %s", a, got, want)
			}
		}
	}
	if got := algotest.Letters(ds); got != wantCounter {
		t.Errorf("sliding-counter: %s, want %s", got, wantCounter)
	}
	if got := algotest.Letters(algotest.Run(newLog(t, time.Second, 3), arrivals...)); got != wantLog {
		t.Errorf("sliding-log: %s, want %s", got, wantLog)
	}
	return ds
}

func TestE3_PrevCrowdedStart(t *testing.T) {
	arrivals := []int64{0, 10, 20, 1200, 1220, 1240}
	ds := runCounterE(t, arrivals, "A A A A R R",
		map[int]string{3: "2.40", 4: "3.34", 5: "3.28"}, "A A A A A A")
	// A false reject: the log shows only 1 and 2 requests inside the window at
	// 1220 and 1240. The counter lets the next one in once 3*(1000-e)/1000 + 1
	// < 3, i.e. e > 333.33 ms: at 1333.333334 ms.
	for i, want := range map[int]time.Duration{4: 113333334, 5: 93333334} {
		if ds[i].RetryAfter != want {
			t.Errorf("RetryAfter at %d = %v, want %v", arrivals[i], ds[i].RetryAfter, want)
		}
	}
	log := newLog(t, time.Second, 3)
	for i, wantInside := range []int{0, 1, 2, 0, 1, 2} {
		if d := log.AllowN(at(arrivals[i]), 1); 3-d.Remaining-1 != wantInside {
			t.Errorf("log at %d: %d already inside, want %d", arrivals[i], 3-d.Remaining-1, wantInside)
		}
	}
}

func TestE4_PrevCrowdedEnd(t *testing.T) {
	arrivals := []int64{970, 980, 990, 1500, 1510, 1520}
	ds := runCounterE(t, arrivals, "A A A A A R",
		map[int]string{3: "1.50", 4: "2.47", 5: "3.44"}, "A A A R R R")
	st, sc := algotest.Sent(arrivals, nil, ds)
	if got := algotest.MaxInWindow(st, sc, 1000); got != 5 {
		t.Errorf("max upstream in any W = %d, want 5 (overshoot 2)", got)
	}
	inside := 0
	for _, s := range st {
		if s >= 970 && s <= 1510 {
			inside++
		}
	}
	if inside != 5 {
		t.Errorf("allowed inside 970..1510 = %d, want 5", inside)
	}
	// 3*(1000-e)/1000 + 2 < 3 once e > 666.666...ms: from 1666.666667 ms in
	// exact arithmetic; the float tolerance may put it a nanosecond later.
	if got := ds[5].RetryAfter.Round(time.Microsecond); got != 146667*time.Microsecond {
		t.Errorf("RetryAfter at 1520 = %v, want 146.667ms", ds[5].RetryAfter)
	}
}

// counterOracle is CONTRACT.md §2's rule computed from the list of allowed
// requests (no shifting, no floats): the decision and Remaining at t, in
// exact integer arithmetic scaled by S. Times and w are in ns.
func counterOracle(sentAt []int64, sentCost []int, t, w int64, n, cost, limit int) (bool, int) {
	n = max(n, 1)
	s := w / int64(n)
	j := t / s
	e := t - j*s
	var old, inside int64
	for i, a := range sentAt {
		switch k := a / s; {
		case k == j-int64(n):
			old += int64(sentCost[i])
		case k > j-int64(n) && k <= j:
			inside += int64(sentCost[i])
		}
	}
	fits := func(k int) bool { return old*(s-e) < (int64(limit)-inside-int64(k)+1)*s }
	rem := 0
	for k := 1; k <= limit; k++ {
		if fits(k) {
			rem = k
		}
	}
	return fits(cost), rem
}

func TestSlidingCounterMatchesDefinition(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for trial := range 600 {
		n := []int{0, 1, 2, 4, 5, 10}[trial%6]
		limit := 1 + r.IntN(8)
		arrivals, costs := randomArrivals(r, 80, limit, 120)
		c := newCounter(t, time.Second, limit, n)
		var sentAt []int64
		var sentCost []int
		for i, a := range arrivals {
			want, _ := counterOracle(sentAt, sentCost, a*1e6, 1e9, n, costs[i], limit)
			d := c.AllowN(at(a), costs[i])
			if d.Allowed != want {
				t.Fatalf("trial %d (N=%d L=%d) request %d at %d cost %d: allowed %v, definition says %v",
					trial, n, limit, i, a, costs[i], d.Allowed, want)
			}
			if d.Allowed {
				sentAt = append(sentAt, a*1e6)
				sentCost = append(sentCost, costs[i])
			}
			if _, rem := counterOracle(sentAt, sentCost, a*1e6, 1e9, n, 1, limit); d.Remaining != rem {
				t.Fatalf("trial %d (N=%d L=%d) request %d at %d: Remaining %d, definition says %d",
					trial, n, limit, i, a, d.Remaining, rem)
			}
		}
	}
}

// TestSlidingCounterRetryAfterAdmits: waiting RetryAfter admits the same
// request (if nothing else arrived meanwhile), for every N.
func TestSlidingCounterRetryAfterAdmits(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	checked := 0
	for trial := range 120 {
		n := []int{1, 2, 5, 10}[trial%4]
		limit := 1 + r.IntN(6)
		arrivals, costs := randomArrivals(r, 30, limit, 150)
		mk := func() core.Algorithm { return newCounter(t, time.Second, limit, n) }
		checked += algotest.CheckRetryAfter(t, mk, arrivals, costs, false)
	}
	if checked < 200 {
		t.Fatalf("only %d rejections checked", checked)
	}
}

func TestSlidingCounterNeverExceeds2L(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	for trial := range 600 {
		n := []int{1, 2, 5, 10}[trial%4]
		limit := 1 + r.IntN(8)
		arrivals, costs := randomArrivals(r, 80, limit, 100)
		ds := make([]core.Decision, len(arrivals))
		c := newCounter(t, time.Second, limit, n)
		for i, a := range arrivals {
			ds[i] = c.AllowN(at(a), costs[i])
		}
		st, sc := algotest.Sent(arrivals, costs, ds)
		if got := algotest.MaxInWindow(st, sc, 1000); got > 2*limit {
			t.Fatalf("trial %d (N=%d L=%d): %d in one W > 2L", trial, n, limit, got)
		}
		// Why 2L: any N consecutive sub-windows on the grid admit at most L.
		size := int64(1000 / n)
		perSub := map[int64]int{}
		for i, s := range st {
			perSub[s/size] += sc[i]
		}
		for k := range perSub {
			sum := 0
			for i := range int64(n) {
				sum += perSub[k+i]
			}
			if sum > limit {
				t.Fatalf("trial %d (N=%d L=%d): sub-windows %d..%d admitted %d > L", trial, n, limit, k, k+int64(n)-1, sum)
			}
		}
	}
}

// FuzzSlidingCounter: whatever the arrivals, costs and N, any N aligned
// sub-windows in a row admit at most L, so no span of W holds more than 2L;
// Remaining stays in [0, L]; and waiting RetryAfter admits the same request.
func FuzzSlidingCounter(f *testing.F) {
	f.Add([]byte{61, 0, 62, 0, 63, 0, 32, 0, 1, 0, 1, 0}, uint8(2), uint8(0))
	f.Add([]byte{0, 0, 60, 0, 60, 0, 20, 0, 40, 0, 40, 0, 60, 0, 200, 0}, uint8(2), uint8(1))
	f.Add([]byte{255, 2, 0, 1, 1, 1, 0, 0, 9, 3}, uint8(4), uint8(4))
	f.Fuzz(func(t *testing.T, data []byte, limit8, n8 uint8) {
		limit := 1 + int(limit8%16)
		n := []int{1, 2, 4, 5, 10}[int(n8)%5]
		mk := func() core.Algorithm { return newCounter(t, time.Second, limit, n) }
		c := mk()
		var arrivals, sentAt []int64
		var costs, sentCost []int
		now := int64(0)
		for i := 0; i+1 < len(data) && len(arrivals) < 64; i += 2 {
			now += int64(data[i]) * 1000 / 64 // gaps from 0 to about 4W (ms)
			cost := 1 + int(data[i+1])%limit
			arrivals, costs = append(arrivals, now), append(costs, cost)
			d := c.AllowN(at(now), cost)
			if d.Remaining < 0 || d.Remaining > limit {
				t.Fatalf("Remaining %d outside [0, %d]", d.Remaining, limit)
			}
			if d.Allowed {
				sentAt, sentCost = append(sentAt, now), append(sentCost, cost)
			} else if d.RetryAfter <= 0 || d.RetryAfter > 2*time.Second {
				t.Fatalf("RetryAfter %v outside (0, 2W]", d.RetryAfter)
			}
		}
		algotest.CheckRetryAfter(t, mk, arrivals, costs, false)
		perSub := map[int64]int{}
		for i, s := range sentAt {
			perSub[s/int64(1000/n)] += sentCost[i]
		}
		for k := range perSub {
			sum := 0
			for i := range int64(n) {
				sum += perSub[k+i]
			}
			if sum > limit {
				t.Fatalf("sub-windows %d..%d admitted %d > L = %d", k, k+int64(n)-1, sum, limit)
			}
		}
		if got := algotest.MaxInWindow(sentAt, sentCost, 1000); got > 2*limit {
			t.Fatalf("%d allowed in one W, 2L = %d: %v %v", got, 2*limit, sentAt, sentCost)
		}
	})
}

// floodAfter returns a burst followed by one request every millisecond from
// 1000 to 2999: an attacker that takes whatever the limiter gives.
func floodAfter(burst ...int64) []int64 {
	arrivals := slices.Clone(burst)
	for t := int64(1000); t < 3000; t++ {
		arrivals = append(arrivals, t)
	}
	return arrivals
}

func maxUnderCounter(t *testing.T, limit, n int, arrivals []int64) int {
	c := newCounter(t, time.Second, limit, n)
	st, sc := algotest.Sent(arrivals, nil, algotest.Run(c, arrivals...))
	return algotest.MaxInWindow(st, sc, 1000)
}

// TestSubWindowsShrinkOvershoot puts numbers on what N buys (L = 10, W = 1 s).
//
// Burst spread over the last 10% of a window (10 requests at 900, 910, ...,
// 990), then a flood: the estimate assumes the oldest count was spread over
// its whole sub-window. With N = 1 that sub-window is the whole previous
// second, so the counter believes the burst is leaving long before it does and
// lets 9 extra through; with N = 10 the burst exactly fills one sub-window,
// the assumption is true, and nothing extra passes.
//
// Burst packed into the last millisecond of a sub-window (10 at 999), then a
// flood: the assumption is as wrong as it can be for every N, and each N lets
// 2L through. Sub-windows shrink the error on traffic that is uneven at scales
// above W/N; they do not change the exact worst case (CONTRACT.md E19).
func TestSubWindowsShrinkOvershoot(t *testing.T) {
	const limit = 10
	var spread, packed []int64
	for i := range int64(limit) {
		spread = append(spread, 900+10*i)
		packed = append(packed, 999)
	}
	cases := []struct {
		n            int
		spread, pack int // max in any W
	}{
		{1, 19, 20},
		{2, 18, 20},
		{5, 15, 20},
		{10, 10, 20},
	}
	for _, c := range cases {
		if got := maxUnderCounter(t, limit, c.n, floodAfter(spread...)); got != c.spread {
			t.Errorf("N=%d, spread burst: max in any W = %d (overshoot %d), want %d", c.n, got, got-limit, c.spread)
		}
		if got := maxUnderCounter(t, limit, c.n, floodAfter(packed...)); got != c.pack {
			t.Errorf("N=%d, packed burst: max in any W = %d (overshoot %d), want %d", c.n, got, got-limit, c.pack)
		}
	}
	// The log on the same two attacks: exactly L.
	for _, burst := range [][]int64{spread, packed} {
		arrivals := floodAfter(burst...)
		st, sc := algotest.Sent(arrivals, nil, algotest.Run(newLog(t, time.Second, limit), arrivals...))
		if got := algotest.MaxInWindow(st, sc, 1000); got != limit {
			t.Errorf("sliding-log: max in any W = %d, want %d", got, limit)
		}
	}
}

func TestSlidingCounterSubWindowState(t *testing.T) {
	// W = 1000, N = 5: sub-windows of 200 ms.
	c := newCounter(t, time.Second, 5, 5)
	algotest.Run(c, 50, 250, 250, 650)
	st := c.State()
	// At 650 the current sub-window is 3; counts for sub-windows -2..3.
	if st.WindowID != 3 || st.Prev != 0 || st.Curr != 4 || !slices.Equal(st.Sub, []int{0, 0, 1, 2, 0, 1}) {
		t.Fatalf("State at 650 = %+v", st)
	}
	// At 1150 (sub-window 5, 150 ms in) sub-window 0 is covered for its last
	// 50 ms: 1*50/200 + (2+0+1+0+0) = 3.25.
	if got := c.Estimate(at(1150)); math.Abs(got-3.25) > 1e-9 {
		t.Fatalf("Estimate(1150) = %v, want 3.25", got)
	}
	d := c.AllowN(at(1150), 1)
	st = c.State()
	if !d.Allowed || st.WindowID != 5 || st.Prev != 1 || st.Curr != 4 || math.Abs(st.Estimate-3.25) > 1e-9 ||
		!slices.Equal(st.Sub, []int{1, 2, 0, 1, 0, 1}) {
		t.Fatalf("after 1150: %+v, state %+v", d, st)
	}
	// Remaining follows the decision rule (cost k fits while estimate + k - 1
	// < L): the estimate is now 4.25, so k = 1 fits and k = 2 does not.
	if d.Remaining != 1 {
		t.Fatalf("Remaining = %d, want 1", d.Remaining)
	}
	if one := newCounter(t, time.Second, 3, 1); one.State().Sub != nil {
		t.Fatalf("N=1 state should have no Sub")
	}
}

// TestSlidingCounterTieNeedsTheTolerance: E1's tie at the window edge, with
// a daily quota. The previous day admitted L = 6,832,131 in one request at
// 0; at exactly 24 h nothing of it has left the counter's weighting (the
// weight is (W - 0)/W = 1), so the estimate is exactly L and a request of
// cost 1 must be rejected. In float64, 6832131 × 86400e9 / 86400e9 comes out
// 6832130.999999999: without the tolerance (or exact integers) the tie admits.
// One nanosecond later the weight has fallen and the request fits.
func TestSlidingCounterTieNeedsTheTolerance(t *testing.T) {
	const day, limit = 24 * time.Hour, 6_832_131
	c := newCounter(t, day, limit, 1)
	if d := c.AllowN(at(0), limit); !d.Allowed {
		t.Fatalf("cost L on a new key: %+v, want allowed", d)
	}
	d := c.AllowN(at(0).Add(day), 1)
	if d.Allowed || d.Remaining != 0 || d.RetryAfter != time.Nanosecond {
		t.Fatalf("cost 1 at 24 h with the previous day at L: %+v, want rejected (a tie), Remaining 0, RetryAfter 1ns", d)
	}
	if d := c.AllowN(at(0).Add(day+time.Nanosecond), 1); !d.Allowed {
		t.Fatalf("cost 1 at 24 h + 1 ns: %+v, want allowed", d)
	}
}
