package lab

import (
	"errors"
	"strings"
	"testing"

	"github.com/ratelimit-course/ratelimit/core"
)

func TestTTLWindowState(t *testing.T) {
	r, err := Run(FixedWindowTTL, DefaultParams(), []int64{820, 880, 940, 960, 1000, 1820}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The window opened at 820 lasts to 1820: 1000 is still inside it.
	if got := decisions(r); got != "AAARRA" {
		t.Errorf("decisions %s, want AAARRA", got)
	}
	if got := r.Explain(5).State; got != "window opened 1820: count 1" {
		t.Errorf("state %q", got)
	}
}

func TestCosts(t *testing.T) {
	p := DefaultParams()
	r, err := Run(TokenBucket, p, []int64{0, 0, 500}, []int{3, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := decisions(r); got != "ARA" {
		t.Errorf("decisions %s, want ARA (cost 3 empties C = 3; 500 ms refills 1)", got)
	}
	if r.Requests[0].Cost != 3 {
		t.Errorf("cost not recorded: %+v", r.Requests[0])
	}
	// The ruler counts requests, not cost units.
	if r.Metrics.MaxInWindow != 2 {
		t.Errorf("max in window %d, want 2 requests", r.Metrics.MaxInWindow)
	}
}

func TestSubWindows(t *testing.T) {
	p := DefaultParams()
	p.SubWindows = 4
	r, err := Run(SlidingCounter, p, []int64{970, 980, 990, 1500, 1510, 1520}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Finer sub-windows see that the 3 are still inside the last W.
	if got := decisions(r); got != "AAARRR" {
		t.Errorf("decisions %s, want AAARRR", got)
	}
	if r.Metrics.StateValues != 6 {
		t.Errorf("state values %d, want N+2 = 6", r.Metrics.StateValues)
	}
	if !strings.HasPrefix(r.Explain(3).State, "subs [") {
		t.Errorf("state %q", r.Explain(3).State)
	}
}

// TestRunBadInput: every bad input is a *core.ParamError naming the CLI
// flag, never a panic or a result.
func TestRunBadInput(t *testing.T) {
	ok := DefaultParams()
	with := func(f func(*Params)) Params { p := ok; f(&p); return p }
	cases := []struct {
		name     string
		algo     Algorithm
		p        Params
		arrivals []int64
		costs    []int
		param    string
	}{
		{"unknown algorithm", "leaky-bucket", ok, []int64{0}, nil, "algo"},
		{"window 0", FixedWindow, with(func(p *Params) { p.WindowMS = 0 }), []int64{0}, nil, "window"},
		{"window negative", FixedWindow, with(func(p *Params) { p.WindowMS = -5 }), []int64{0}, nil, "window"},
		{"limit 0", SlidingLog, with(func(p *Params) { p.Limit = 0 }), []int64{0}, nil, "limit"},
		{"capacity 0", TokenBucket, with(func(p *Params) { p.Capacity = 0 }), []int64{0}, nil, "capacity"},
		{"rate 0", GCRA, with(func(p *Params) { p.RatePerS = 0 }), []int64{0}, nil, "rate"},
		{"rate negative", GCRA, with(func(p *Params) { p.RatePerS = -1 }), []int64{0}, nil, "rate"},
		{"subwindows 0", SlidingCounter, with(func(p *Params) { p.SubWindows = 0 }), []int64{0}, nil, "subwindows"},
		{"subwindows not a divisor", SlidingCounter, with(func(p *Params) { p.SubWindows = 7 }), []int64{0}, nil, "subwindows"},
		{"unsorted arrivals", FixedWindow, ok, []int64{10, 5}, nil, "arrivals"},
		{"negative arrival", FixedWindow, ok, []int64{-1, 5}, nil, "arrivals"},
		{"costs too short", TokenBucket, ok, []int64{0, 1}, []int{1}, "costs"},
		{"cost over C", TokenBucket, ok, []int64{0}, []int{4}, "costs"},
		{"cost over L", FixedWindow, ok, []int64{0}, []int{4}, "costs"},
		{"cost 0", LeakyQueue, ok, []int64{0}, []int{0}, "costs"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Run(tc.algo, tc.p, tc.arrivals, tc.costs)
			var pe *core.ParamError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v, want a *core.ParamError", err)
			}
			if pe.Param != tc.param || pe.Accept == "" {
				t.Errorf("error names %q (accepts %q), want %q", pe.Param, pe.Accept, tc.param)
			}
		})
	}
}
