package lab

import (
	"slices"
	"testing"
)

// TestBoundaries: each algorithm reports the windows it counted in, from its
// own state: the aligned grid kW .. (k+1)W of the windows its requests fell
// in (a window with no request in it is not drawn unless a neighbour's edge
// is its edge), every TTL opening and its expiry, the counter's sub-windows
// (rounded to the ms when W/N is not whole), and nothing for the rest.
func TestBoundaries(t *testing.T) {
	e1 := []int64{820, 880, 940, 960, 1000, 1060, 1120, 1850}
	e4 := []int64{970, 980, 990, 1500, 1510, 1520}
	sub := func(n int) Params { p := DefaultParams(); p.SubWindows = n; return p }
	for _, c := range []struct {
		name     string
		algo     Algorithm
		p        Params
		arrivals []int64
		want     []int64
	}{
		{"E1 fixed", FixedWindow, DefaultParams(), e1, []int64{0, 1000, 2000}},
		{"a window skipped", FixedWindow, DefaultParams(), []int64{500, 2500}, []int64{0, 1000, 2000, 3000}},
		{"on the edge", FixedWindow, DefaultParams(), []int64{1000, 1999, 2000}, []int64{1000, 2000, 3000}},
		// E1: [820, 1820) and the 1850 that opens [1850, 2850).
		{"E1 TTL", FixedWindowTTL, DefaultParams(), e1, []int64{820, 1820, 1850, 2850}},
		// A request exactly W after the opening opens the next window.
		{"TTL reopens at W", FixedWindowTTL, DefaultParams(), []int64{820, 1000, 1820}, []int64{820, 1820, 2820}},
		{"E4 counter", SlidingCounter, DefaultParams(), e4, []int64{0, 1000, 2000}},
		{"E4 counter N=4", SlidingCounter, sub(4), e4, []int64{750, 1000, 1500, 1750}},
		{"counter N=16", SlidingCounter, sub(16), []int64{0, 70, 130, 130}, []int64{0, 63, 125, 188}}, // 62.5 ms
		{"log", SlidingLog, DefaultParams(), e1, nil},
		{"token bucket", TokenBucket, DefaultParams(), e1, nil},
		{"gcra", GCRA, DefaultParams(), e1, nil},
		{"leaky queue", LeakyQueue, DefaultParams(), e1, nil},
	} {
		r, err := Run(c.algo, c.p, c.arrivals, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !slices.Equal(r.Boundaries, c.want) {
			t.Errorf("%s (%s %v): Boundaries %v, want %v", c.name, c.algo, c.arrivals, r.Boundaries, c.want)
		}
	}
}
