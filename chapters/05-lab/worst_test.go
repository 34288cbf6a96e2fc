package lab

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/ratelimit-course/ratelimit/core"
)

// TestWorst_RediscoversBounds pins what the search finds for L = 3, W = 1000,
// C = 3, R = 2: the textbook worst cases of CONTRACT.md E19.
func TestWorst_RediscoversBounds(t *testing.T) {
	fast := DefaultParams()
	fast.RatePerS = 3
	even := DefaultParams()
	even.RatePerS = 4 // T = 250 ms exactly (at R = 3, T rounds down to whole ns)
	cases := []struct {
		algo Algorithm
		p    Params
		max  int
	}{
		{FixedWindow, DefaultParams(), 6},    // 2L
		{FixedWindowTTL, DefaultParams(), 5}, // 2L-1
		{SlidingLog, DefaultParams(), 3},     // L
		{SlidingCounter, DefaultParams(), 6}, // 2L, on an uneven sequence
		{TokenBucket, DefaultParams(), 4},    // just under C + R*W = 5
		{GCRA, DefaultParams(), 4},           // same as the token bucket
		{LeakyQueue, DefaultParams(), 2},     // R*W
		{TokenBucket, fast, 5},               // just under C + R*W = 6 (E5)
		{LeakyQueue, even, 4},                // R*W
	}
	for _, tc := range cases {
		t.Run(string(tc.algo), func(t *testing.T) {
			w, err := Worst(tc.algo, tc.p)
			if err != nil {
				t.Fatal(err)
			}
			if w.MaxInWindow != tc.max || w.Overshoot != max(0, tc.max-tc.p.Limit) {
				t.Errorf("found %d (overshoot %d) with %v, want %d", w.MaxInWindow, w.Overshoot, w.Arrivals, tc.max)
			}
			// The sequence replays to the same count, inside the reported W.
			r, err := Run(tc.algo, tc.p, w.Arrivals, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.Metrics.MaxInWindow != w.MaxInWindow || r.Metrics.Rejected != 0 {
				t.Errorf("replay: max %d rejected %d", r.Metrics.MaxInWindow, r.Metrics.Rejected)
			}
			if w.Window[1]-w.Window[0] != tc.p.WindowMS || !slices.Contains(r.MaxWindows, w.Window) {
				t.Errorf("window %v not among %v", w.Window, r.MaxWindows)
			}
			if w.Bound == "" || w.Algorithm != tc.algo || w.Params != tc.p {
				t.Errorf("result %+v", w)
			}
			t.Logf("%s: %d in %v from %v (textbook %s)", tc.algo, w.MaxInWindow, w.Window, w.Arrivals, w.Bound)
		})
	}
}

// The counter's 2L needs an uneven sequence: the previous window's L late
// (after 2W/3), then the current window's L spread so the estimate stays
// under L. Pin the one the search reports.
func TestWorst_SlidingCounterSequence(t *testing.T) {
	w, err := Worst(SlidingCounter, DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	if want := []int64{999, 999, 999, 1001, 1334, 1667}; !slices.Equal(w.Arrivals, want) {
		t.Errorf("arrivals %v, want %v", w.Arrivals, want)
	}
	if w.Window != [2]int64{999, 1999} {
		t.Errorf("window %v", w.Window)
	}
}

func TestWorst_Deterministic(t *testing.T) {
	for _, algo := range Algorithms {
		a, err := Worst(algo, DefaultParams())
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Worst(algo, DefaultParams())
		if !slices.Equal(a.Arrivals, b.Arrivals) || a.Window != b.Window {
			t.Errorf("%s: two searches differ: %v / %v", algo, a.Arrivals, b.Arrivals)
		}
	}
}

func TestWorst_BadInput(t *testing.T) {
	big := DefaultParams()
	big.Limit = 1000
	for _, tc := range []struct {
		algo  Algorithm
		p     Params
		param string
	}{
		{"nope", DefaultParams(), "algo"},
		{FixedWindow, big, "limit"},
		{GCRA, Params{WindowMS: 1000, Limit: 3, Capacity: 3, RatePerS: 500, SubWindows: 1}, "rate"},
		{FixedWindow, Params{WindowMS: 0, Limit: 3, Capacity: 3, RatePerS: 2, SubWindows: 1}, "window"},
	} {
		_, err := Worst(tc.algo, tc.p)
		var pe *core.ParamError
		if !errors.As(err, &pe) || pe.Param != tc.param {
			t.Errorf("Worst(%s, %+v) error %v, want one naming %s", tc.algo, tc.p, err, tc.param)
		}
	}
}

// TestWorst_TooLargeNamesTheFlagAndRange: a budget too large to search names
// the flag that is too large and the values that would fit (C = 63 with
// R = 2 used to blame the rate without saying what rate fits).
func TestWorst_TooLargeNamesTheFlagAndRange(t *testing.T) {
	with := func(f func(*Params)) Params { p := DefaultParams(); f(&p); return p }
	for _, tc := range []struct {
		algo          Algorithm
		param, accept string
		p             Params
	}{
		{FixedWindow, "limit", "an integer from 1 to 128", with(func(p *Params) { p.Limit = 129 })},
		{FixedWindowTTL, "limit", "an integer from 1 to 128", with(func(p *Params) { p.Limit = 129 })},
		{SlidingLog, "limit", "an integer from 1 to 256", with(func(p *Params) { p.Limit = 257 })},
		{GCRA, "capacity", "an integer from 1 to 255", with(func(p *Params) { p.Capacity = 256 })},
		{TokenBucket, "rate", "at most 1 per second with C = 255", with(func(p *Params) { p.Capacity = 255 })},
		{LeakyQueue, "rate", "at most 255 per second with W = 1000 ms", with(func(p *Params) { p.RatePerS = 256 })},
	} {
		_, err := Worst(tc.algo, tc.p)
		var pe *core.ParamError
		if !errors.As(err, &pe) || pe.Param != tc.param || !strings.HasPrefix(pe.Accept, tc.accept) {
			t.Errorf("%s %+v: %v, want --%s accepting %q", tc.algo, tc.p, err, tc.param, tc.accept)
		}
	}
	// The largest budgets that fit are searched.
	for _, p := range []Params{with(func(p *Params) { p.Limit = 128 }), with(func(p *Params) { p.Capacity = 254 })} {
		if _, err := Worst(FixedWindow, p); err != nil {
			t.Error(err)
		}
		if _, err := Worst(GCRA, p); err != nil {
			t.Error(err)
		}
	}
}

// TestWorst_L100: at L = C = R·W = 100 every search reaches its textbook
// bound (BenchmarkWorst times it: well under a second each).
func TestWorst_L100(t *testing.T) {
	p := Params{WindowMS: 1000, Limit: 100, Capacity: 100, RatePerS: 100, SubWindows: 1}
	want := map[Algorithm]int{FixedWindow: 200, FixedWindowTTL: 199, SlidingLog: 100,
		SlidingCounter: 200, TokenBucket: 199, GCRA: 199, LeakyQueue: 100}
	for _, algo := range Algorithms {
		w, err := Worst(algo, p)
		if err != nil || w.MaxInWindow != want[algo] {
			t.Errorf("%s: found %d (%v), want %d (%s)", algo, w.MaxInWindow, err, want[algo], w.Bound)
		}
	}
}

// TestBusiest: the search's ruler reads sorted times exactly as
// core.MaxInWindow does: the count and the first busiest window.
func TestBusiest(t *testing.T) {
	rng := splitmix(5)
	for range 2000 {
		n := rng.intn(30)
		times := make([]int64, n)
		for i := range times {
			times[i] = int64(rng.intn(50))
		}
		slices.Sort(times)
		w := int64(1 + rng.intn(20))
		best, first := busiest(times, w)
		want, windows := core.MaxInWindow(times, w)
		if best != want || want > 0 && first != windows[0][0] {
			t.Fatalf("%v w %d: busiest %d from %d, ruler %d %v", times, w, best, first, want, windows)
		}
	}
}

// TestWorst_HugeCapacityForAWindowAlgorithm: the window algorithms ignore C,
// so a huge C must not size their search (it tried one opening burst per
// unit of C and never finished for C = 100000).
func TestWorst_HugeCapacityForAWindowAlgorithm(t *testing.T) {
	p := DefaultParams()
	p.Capacity = 100_000
	p.RatePerS = 1e9
	w, err := Worst(FixedWindow, p)
	if err != nil || w.MaxInWindow != 6 {
		t.Fatalf("fixed-window with C = 100000: %v, found %d, want 6", err, w.MaxInWindow)
	}
}
