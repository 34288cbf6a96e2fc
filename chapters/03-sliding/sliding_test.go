package sliding

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/internal/algotest"
)

func at(msec int64) time.Time { return time.UnixMilli(msec) }

func newLog(t testing.TB, w time.Duration, limit int) *Log {
	return algotest.Must(t, NewLog, Config{Window: w, Limit: limit})
}

func newCounter(t testing.TB, w time.Duration, limit, n int) *Counter {
	return algotest.Must(t, NewCounter, Config{Window: w, Limit: limit, SubWindows: n})
}

func TestE1_CrossBoundarySpike(t *testing.T) {
	arrivals := []int64{820, 880, 940, 960, 1000, 1060, 1120, 1850}
	cases := []struct {
		name      string
		algo      core.Algorithm
		want      string
		remaining []int
		retry     map[int]time.Duration
		maxInW    int
	}{
		{
			// The log remembers 820, 880 and 940 across the edge at 1000.
			name: "sliding-log", algo: newLog(t, time.Second, 3),
			want:      "A A A R R R R A",
			remaining: []int{2, 1, 0, 0, 0, 0, 0, 0},
			retry: map[int]time.Duration{3: 860 * time.Millisecond, 4: 820 * time.Millisecond,
				5: 760 * time.Millisecond, 6: 700 * time.Millisecond},
			maxInW: 3,
		},
		{
			// Not in the contract, for contrast: the counter blunts the spike
			// (estimates 3.00, 2.82, 3.64, 1.45 after the edge) but lets one
			// extra through. At 1000 the estimate is exactly L, a tie, which
			// rejects; it is below L 1 ns later, hence RetryAfter 40ms+1ns
			// at 960 and 1ns at 1000.
			name: "sliding-counter", algo: newCounter(t, time.Second, 3, 1),
			want:      "A A A R R A R A",
			remaining: []int{2, 1, 0, 0, 0, 0, 0, 1},
			retry:     map[int]time.Duration{3: 40*time.Millisecond + 1, 4: 1, 6: 213333334},
			maxInW:    4,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ds := algotest.Run(c.algo, arrivals...)
			if got := algotest.Letters(ds); got != c.want {
				t.Fatalf("decisions %s, want %s", got, c.want)
			}
			for i, d := range ds {
				if d.Remaining != c.remaining[i] {
					t.Errorf("request %d at %d: Remaining %d, want %d", i+1, arrivals[i], d.Remaining, c.remaining[i])
				}
				if want := c.retry[i]; d.RetryAfter != want {
					t.Errorf("request %d at %d: RetryAfter %v, want %v", i+1, arrivals[i], d.RetryAfter, want)
				}
			}
			st, sc := algotest.Sent(arrivals, nil, ds)
			if got := algotest.MaxInWindow(st, sc, 1000); got != c.maxInW {
				t.Errorf("max upstream in any W = %d, want %d", got, c.maxInW)
			}
		})
	}
}

func TestBadParams(t *testing.T) {
	type refusal struct {
		c     Config
		param string
	}
	cases := []refusal{
		{Config{Window: time.Second, Limit: 3, SubWindows: -1}, "subwindows"},
		{Config{Window: time.Second, Limit: 3, SubWindows: 3}, "subwindows"}, // 1e9 ns / 3 is not whole
		{Config{Window: time.Second, Limit: 3, SubWindows: 7}, "subwindows"},
		{Config{Window: 5 * time.Nanosecond, Limit: 3, SubWindows: 10}, "subwindows"},
		{Config{Window: time.Hour, Limit: 3, SubWindows: MaxSubWindows * 2}, "subwindows"},
	}
	for _, bad := range algotest.BadWindowLimits { // W and L as in chapter 02
		cases = append(cases, refusal{Config{Window: bad.Window, Limit: bad.Limit}, bad.Param})
	}
	for _, c := range cases {
		errs := map[string]error{"Validate": c.c.Validate()}
		_, errs["NewLog"] = NewLog(c.c)
		_, errs["NewCounter"] = NewCounter(c.c)
		_, errs["NewLogLimiter"] = NewLogLimiter(c.c)
		_, errs["NewCounterLimiter"] = NewCounterLimiter(c.c)
		for fn, err := range errs {
			algotest.ParamError(t, fmt.Sprintf("%s(%+v)", fn, c.c), err, c.param)
		}
	}
	for _, good := range []Config{
		{Window: time.Second, Limit: 1},
		{Window: time.Second, Limit: 3, SubWindows: 1},
		{Window: time.Second, Limit: 3, SubWindows: 10},
		{Window: 3 * time.Second, Limit: 3, SubWindows: 3},
		{Window: time.Nanosecond, Limit: 1},
		{Window: core.MaxWindow, Limit: core.MaxCount, SubWindows: 1000},
	} {
		if _, err := NewCounter(good); err != nil {
			t.Errorf("NewCounter(%+v) = %v, want no error", good, err)
		}
	}
	err := Config{Window: time.Second, Limit: 3, SubWindows: 3}.Validate()
	if !strings.Contains(err.Error(), "whole nanoseconds") {
		t.Errorf("the divisibility error should say why: %q", err)
	}
}

func TestBadCostLeavesStateUntouched(t *testing.T) {
	l := newLog(t, time.Second, 3)
	c := newCounter(t, time.Second, 3, 2)
	l.AllowN(at(100), 1)
	c.AllowN(at(100), 1)
	logBefore, counterBefore := fmt.Sprint(l.State()), fmt.Sprint(c.State())
	for _, cost := range []int{0, -1, 4} {
		for _, a := range []core.Algorithm{l, c} {
			if d := a.AllowN(at(200), cost); d.Allowed || d.RetryAfter != 0 || d.Remaining != 2 {
				t.Errorf("%T cost %d: %+v, want rejected, RetryAfter 0, Remaining 2", a, cost, d)
			}
		}
	}
	if got := fmt.Sprint(l.State()); got != logBefore {
		t.Errorf("log state changed: %s -> %s", logBefore, got)
	}
	if got := fmt.Sprint(c.State()); got != counterBefore {
		t.Errorf("counter state changed: %s -> %s", counterBefore, got)
	}
	if l.MaxCost() != 3 || c.MaxCost() != 3 {
		t.Errorf("MaxCost = %d, %d; want 3", l.MaxCost(), c.MaxCost())
	}
	for _, mk := range []func() (string, error){
		func() (string, error) {
			k, _ := NewLogLimiter(Config{Window: time.Second, Limit: 3})
			_, err := k.AllowN("a", at(0), 4)
			return "log", err
		},
		func() (string, error) {
			k, _ := NewCounterLimiter(Config{Window: time.Second, Limit: 3})
			_, err := k.AllowN("a", at(0), 0)
			return "counter", err
		},
	} {
		name, err := mk()
		var pe *core.ParamError
		if !errors.As(err, &pe) || pe.Param != "cost" {
			t.Errorf("keyed %s: err %v, want a ParamError naming cost", name, err)
		}
	}
}

// TestKeyedConcurrentExactCounts hammers the keyed limiters from many
// goroutines over several keys (run it with -race). Round 1 is one instant on
// fresh keys: exactly L each. Round 2 is W later: the log has forgotten every
// entry (age exactly W is outside) and admits L again; the counter still
// weighs round 1 by (W-500ms)/W = 1/2, so it admits while curr < 37 - 18.5:
// exactly 19.
func TestKeyedConcurrentExactCounts(t *testing.T) {
	const (
		limit      = 37
		goroutines = 16
		perG       = 60
	)
	keys := []string{"user:1", "user:2", "ip:10.0.0.0/24", "key:abc|/upload", "global"}
	c := Config{Window: time.Second, Limit: limit}
	logs, err := NewLogLimiter(c)
	if err != nil {
		t.Fatal(err)
	}
	counters, err := NewCounterLimiter(c)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		allow func(string, time.Time) core.Decision
		want  [2]int64
	}{
		{"sliding-log", logs.Allow, [2]int64{limit, limit}},
		{"sliding-counter", counters.Allow, [2]int64{limit, 19}},
	}
	for _, tc := range cases {
		for round, now := range []time.Time{at(500), at(1500)} {
			for k, got := range algotest.Hammer(tc.allow, keys, now, goroutines, perG) {
				if got != tc.want[round] {
					t.Errorf("%s round %d key %s: %d allowed, want exactly %d", tc.name, round+1, keys[k], got, tc.want[round])
				}
			}
		}
	}
	if logs.Len() != len(keys) || counters.Len() != len(keys) {
		t.Fatalf("Len = %d, %d; want %d", logs.Len(), counters.Len(), len(keys))
	}
}

// TestRetryAfterFromCallersNow: a request stamped earlier than the latest
// time the key has seen is decided at that latest time, but its RetryAfter
// counts from the caller's own now (core.Algorithm), so that waiting it out
// never arrives early.
func TestRetryAfterFromCallersNow(t *testing.T) {
	for _, mk := range []func() core.Algorithm{
		func() core.Algorithm { return newLog(t, time.Second, 1) },
		func() core.Algorithm { return newCounter(t, time.Second, 1, 1) },
	} {
		late, onTime := mk(), mk()
		for _, a := range []core.Algorithm{late, onTime} {
			a.AllowN(at(500), 1)
			a.AllowN(at(900), 1) // rejected; the latest time seen is 900
		}
		dl, d := late.AllowN(at(800), 1), onTime.AllowN(at(900), 1)
		if dl.Allowed || d.Allowed || dl.RetryAfter != d.RetryAfter+100*time.Millisecond {
			t.Fatalf("%T: at 800 (late) %+v, at 900 %+v; want both rejected, 100ms apart", late, dl, d)
		}
		// The log frees its permit at 1500, 600 ms after 900. The counter's
		// estimate stays 1 = L (a tie) until 1000, then falls: a few ns later.
		if _, isLog := late.(*Log); isLog && d.RetryAfter != 600*time.Millisecond ||
			!isLog && (d.RetryAfter <= 100*time.Millisecond || d.RetryAfter > 100*time.Millisecond+time.Microsecond) {
			t.Fatalf("%T: RetryAfter at 900 = %v", late, d.RetryAfter)
		}
		if !late.AllowN(at(800).Add(dl.RetryAfter), 1).Allowed {
			t.Fatalf("%T: not allowed after waiting RetryAfter from the caller's now", late)
		}
	}
}

// TestDomainEdges runs both ends of the domain: instants at the Unix epoch
// and just before 2200, and the widest window with the largest limit.
func TestDomainEdges(t *testing.T) {
	first, final := core.Epoch, core.End.Add(-time.Nanosecond)
	for _, a := range []core.Algorithm{newLog(t, time.Hour, 1), newCounter(t, time.Hour, 1, 1), newCounter(t, time.Hour, 1, 4)} {
		ds := []core.Decision{a.AllowN(first, 1), a.AllowN(first, 1), a.AllowN(final, 1), a.AllowN(final, 1)}
		if got := algotest.Letters(ds); got != "A R A R" {
			t.Fatalf("%T: %s, want A R A R", a, got)
		}
	}
	huge := Config{Window: core.MaxWindow, Limit: core.MaxCount}
	for _, mk := range []func() core.Algorithm{
		func() core.Algorithm { return ok(NewLog(huge)) },
		func() core.Algorithm { return ok(NewCounter(huge)) },
		func() core.Algorithm { h := huge; h.SubWindows = 1000; return ok(NewCounter(h)) },
	} {
		a := mk()
		arrivals := []time.Time{first, final, final, final}
		costs := []int{core.MaxCount, core.MaxCount - 1, 2, 1}
		var ds []core.Decision
		for i := range arrivals {
			ds = append(ds, a.AllowN(arrivals[i], costs[i]))
		}
		if got := algotest.Letters(ds); got != "A A R A" {
			t.Fatalf("%T: %s, want A A R A", a, got)
		}
		d := ds[2]
		if d.RetryAfter <= 0 || d.RetryAfter > 2*core.MaxWindow {
			t.Fatalf("%T: RetryAfter %v outside (0, 2W]", a, d.RetryAfter)
		}
		b := mk()
		for i := range 2 {
			b.AllowN(arrivals[i], costs[i])
		}
		if !b.AllowN(final.Add(d.RetryAfter), 2).Allowed {
			t.Fatalf("%T: not allowed after waiting RetryAfter %v", a, d.RetryAfter)
		}
	}
}

func ok[A any](a A, err error) A {
	if err != nil {
		panic(err)
	}
	return a
}
