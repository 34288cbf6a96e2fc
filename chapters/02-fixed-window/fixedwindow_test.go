package fixedwindow

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/internal/algotest"
)

// The lesson tests: what `make exercise CH=02` runs against your exercise.go.

func at(msec int64) time.Time { return time.UnixMilli(msec) }

func newWindow(t testing.TB, w time.Duration, limit int) *Window {
	t.Helper()
	l, err := New(Config{Window: w, Limit: limit})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func newTTL(t testing.TB, w time.Duration, limit int) *TTLWindow {
	t.Helper()
	l, err := NewTTL(Config{Window: w, Limit: limit})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// both is each variant with W and L, for tests that hold for the two.
func both(t testing.TB, w time.Duration, limit int) []stateful {
	return []stateful{newWindow(t, w, limit), newTTL(t, w, limit)}
}

type stateful interface {
	core.Algorithm
	State() State
}

// TestE1_CrossBoundarySpike is CONTRACT.md E1: W = 1000 ms, L = 3.
func TestE1_CrossBoundarySpike(t *testing.T) {
	arrivals := []int64{820, 880, 940, 960, 1000, 1060, 1120, 1850}
	cases := []struct {
		name      string
		algo      func(testing.TB) stateful
		want      string
		remaining []int
		retry     map[int]time.Duration // index -> RetryAfter of a rejection
		maxInW    int                   // the most sent in any [s, s+1000)
		in300ms   int                   // the most sent in any 300 ms span, ends included
		state     State
	}{
		{
			name: "fixed-window", algo: func(t testing.TB) stateful { return newWindow(t, time.Second, 3) },
			want:      "A A A R A A A R",
			remaining: []int{2, 1, 0, 0, 2, 1, 0, 0},
			retry:     map[int]time.Duration{3: 40 * time.Millisecond, 7: 150 * time.Millisecond},
			maxInW:    6, // overshoot 3 = 2L - L
			in300ms:   6, // the spike: all six inside [820, 1120]
			// 1850 was rejected but still counted: 1000, 1060, 1120, 1850.
			state: State{WindowID: 1, Start: at(1000), Count: 4},
		},
		{
			// The same arrivals with the clock started by the first hit: the
			// window is [820, 1820), so the spike across 1000 cannot happen.
			name: "fixed-window-ttl", algo: func(t testing.TB) stateful { return newTTL(t, time.Second, 3) },
			want:      "A A A R R R R A",
			remaining: []int{2, 1, 0, 0, 0, 0, 0, 2},
			retry: map[int]time.Duration{3: 860 * time.Millisecond, 4: 820 * time.Millisecond,
				5: 760 * time.Millisecond, 6: 700 * time.Millisecond},
			maxInW: 3, in300ms: 3,
			state: State{WindowID: 2, Start: at(1850), Count: 1},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := c.algo(t)
			ds := algotest.Run(a, arrivals...)
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
			st, _ := algotest.Sent(arrivals, nil, ds)
			if got := algotest.MaxInWindow(st, nil, 1000); got != c.maxInW {
				t.Errorf("max upstream in any W = %d, want %d (overshoot %d)", got, c.maxInW, c.maxInW-3)
			}
			if got := algotest.MaxInWindow(st, nil, 301); got != c.in300ms {
				t.Errorf("max upstream in any 300 ms span = %d, want %d", got, c.in300ms)
			}
			if got := a.State(); got.WindowID != c.state.WindowID || !got.Start.Equal(c.state.Start) || got.Count != c.state.Count {
				t.Errorf("State = %+v, want %+v", got, c.state)
			}
		})
	}
}

// TestWorstCaseIsReached builds each variant's worst case for L = 1..6 and
// measures it: 2L in some W for aligned windows (L just before the edge at
// 1000, L on it), 2L-1 for the TTL window (the first hit at 0 opens [0, 1000),
// L-1 more at 999, and the hit at 1000 opens the next window for L more).
func TestWorstCaseIsReached(t *testing.T) {
	for limit := 1; limit <= 6; limit++ {
		repeat := func(ms int64, n int) []int64 {
			out := make([]int64, n)
			for i := range out {
				out[i] = ms
			}
			return out
		}
		aligned := append(repeat(999, limit), repeat(1000, limit)...)
		ttl := append(append([]int64{0}, repeat(999, limit-1)...), repeat(1000, limit)...)
		for _, c := range []struct {
			name     string
			algo     core.Algorithm
			arrivals []int64
			want     int
		}{
			{"fixed-window", newWindow(t, time.Second, limit), aligned, 2 * limit},
			{"fixed-window-ttl", newTTL(t, time.Second, limit), ttl, 2*limit - 1},
		} {
			ds := algotest.Run(c.algo, c.arrivals...)
			st, _ := algotest.Sent(c.arrivals, nil, ds)
			if got := algotest.MaxInWindow(st, nil, 1000); got != c.want {
				t.Errorf("%s L=%d: max in any W = %d, want %d (%s)", c.name, limit, got, c.want, algotest.Letters(ds))
			}
		}
	}
}

// randomRun sends n requests with gaps up to maxGap ms and random costs
// (half of them 1) and returns the arrivals (ms), costs and decisions.
func randomRun(r *rand.Rand, a core.Algorithm, limit, n int, maxGap int64) ([]int64, []int, []core.Decision) {
	arrivals, costs, ds := make([]int64, n), make([]int, n), make([]core.Decision, n)
	t := r.Int64N(2000)
	for i := range n {
		t += r.Int64N(maxGap + 1)
		arrivals[i], costs[i] = t, 1
		if r.IntN(2) == 0 {
			costs[i] = 1 + r.IntN(limit)
		}
		ds[i] = a.AllowN(at(t), costs[i])
	}
	return arrivals, costs, ds
}

// checkWorstCase fails t if the permits allowed in some W = 1000 ms exceed
// the variant's worst case (2L aligned, 2L-1 TTL).
func checkWorstCase(t *testing.T, a core.Algorithm, limit int, arrivals []int64, costs []int, ds []core.Decision) {
	t.Helper()
	bound := 2 * limit
	if _, ttl := a.(*TTLWindow); ttl {
		bound--
	}
	st, sc := algotest.Sent(arrivals, costs, ds)
	if got := algotest.MaxInWindow(st, sc, 1000); got > bound {
		t.Fatalf("%T L=%d: %d permits in one W > %d; arrivals %v costs %v", a, limit, got, bound, arrivals, costs)
	}
}

// TestWorstCaseIsNeverExceeded: no random traffic beats the worst case.
func TestWorstCaseIsNeverExceeded(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		limit := 1 + r.IntN(6)
		for _, a := range both(t, time.Second, limit) {
			arrivals, costs, ds := randomRun(r, a, limit, 60, 150)
			checkWorstCase(t, a, limit, arrivals, costs, ds)
		}
	}
}

// FuzzWorstCase is the same invariant on arrivals the fuzzer picks: each
// byte of gaps is the ms since the previous arrival (0..255), each byte of
// costs a cost from 1 to L.
func FuzzWorstCase(f *testing.F) {
	// L = 3, arrivals up to E1's and beyond; L = 2, the TTL worst case.
	f.Add(uint8(2), []byte{255, 255, 255, 55, 60, 60, 20, 40, 60, 60, 255, 255, 220}, []byte{1})
	f.Add(uint8(1), []byte{0, 255, 255, 255, 234, 1, 0}, []byte{1, 1, 2})
	f.Fuzz(func(t *testing.T, l uint8, gaps, costs []byte) {
		limit := 1 + int(l%8)
		for _, a := range both(t, time.Second, limit) {
			arrivals, cs, ds := make([]int64, len(gaps)), make([]int, len(gaps)), make([]core.Decision, len(gaps))
			ms := int64(0)
			for i, g := range gaps {
				ms += int64(g)
				arrivals[i], cs[i] = ms, 1
				if len(costs) > 0 {
					cs[i] = 1 + int(costs[i%len(costs)])%limit
				}
				ds[i] = a.AllowN(at(ms), cs[i])
			}
			checkWorstCase(t, a, limit, arrivals, cs, ds)
		}
	})
}

// TestRetryAfterIsExact replays every rejection: the same request sent
// RetryAfter later is allowed (RetryAfter is never early), and 1 ns or 1 ms
// earlier it is not (it is the time to the next window, not a guess).
func TestRetryAfterIsExact(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for v := range 2 {
		fresh := func() core.Algorithm { return both(t, time.Second, 3)[v] }
		checked := 0
		for range 50 {
			arrivals, costs, ds := randomRun(r, fresh(), 3, 30, 120)
			for i, d := range ds {
				if d.Allowed {
					continue
				}
				replay := func(delay time.Duration) bool {
					a := fresh()
					for j := range i {
						a.AllowN(at(arrivals[j]), costs[j])
					}
					return a.AllowN(at(arrivals[i]).Add(delay), costs[i]).Allowed
				}
				if d.RetryAfter <= 0 || !replay(d.RetryAfter) {
					t.Fatalf("%T request %d (t=%d cost %d) RetryAfter %v: not allowed then", fresh(), i, arrivals[i], costs[i], d.RetryAfter)
				}
				if replay(d.RetryAfter-1) || replay(d.RetryAfter-time.Millisecond) {
					t.Fatalf("%T request %d (t=%d cost %d) RetryAfter %v: allowed earlier", fresh(), i, arrivals[i], costs[i], d.RetryAfter)
				}
				checked++
			}
		}
		if checked < 50 {
			t.Fatalf("%T: only %d rejections checked", fresh(), checked)
		}
	}
}

// TestBadParams: every parameter outside the domain (a window from 1 ns to
// 1e18 ns, a limit from 1 to 1e9) is a *core.ParamError naming it, from
// Validate and from every constructor; the edges of the domain are accepted.
func TestBadParams(t *testing.T) {
	cases := []struct {
		c     Config
		param string
	}{
		{Config{Window: 0, Limit: 3}, "window"},
		{Config{Window: -time.Second, Limit: 3}, "window"},
		{Config{Window: core.MaxWindow + 1, Limit: 3}, "window"},
		{Config{Window: math.MaxInt64, Limit: 3}, "window"},
		{Config{Window: time.Second, Limit: 0}, "limit"},
		{Config{Window: time.Second, Limit: -5}, "limit"},
		{Config{Window: time.Second, Limit: 1e9 + 1}, "limit"},
		{Config{Window: time.Second, Limit: math.MaxInt}, "limit"}, // a counter near MaxInt would wrap
	}
	for _, c := range cases {
		errs := map[string]error{"Validate": c.c.Validate()}
		_, errs["New"] = New(c.c)
		_, errs["NewTTL"] = NewTTL(c.c)
		_, errs["NewLimiter"] = NewLimiter(c.c)
		_, errs["NewTTLLimiter"] = NewTTLLimiter(c.c)
		for fn, err := range errs {
			var pe *core.ParamError
			if !errors.As(err, &pe) || pe.Param != c.param {
				t.Errorf("%s(%+v): err %v, want a ParamError naming %q", fn, c.c, err, c.param)
			} else if !strings.Contains(err.Error(), c.param) || pe.Accept == "" {
				t.Errorf("%s(%+v): message %q must name %q and what is accepted", fn, c.c, err, c.param)
			}
		}
	}
	for _, good := range []Config{{Window: 1, Limit: 1}, {Window: core.MaxWindow, Limit: 1e9}} {
		if _, err := New(good); err != nil {
			t.Errorf("New(%+v): %v", good, err)
		}
		if _, err := NewTTL(good); err != nil {
			t.Errorf("NewTTL(%+v): %v", good, err)
		}
	}
}

// TestDomainEdges: at the widest window and the last instant of the domain
// (just before 2200) plain int64 nanoseconds still give the right window
// and RetryAfter, and a limit of 1e9 admits exactly 1e9.
func TestDomainEdges(t *testing.T) {
	last := core.End.Add(-1)
	for _, a := range both(t, core.MaxWindow, 1) {
		ds := []core.Decision{a.AllowN(core.Epoch, 1), a.AllowN(core.Epoch, 1), a.AllowN(last, 1), a.AllowN(last, 1)}
		if got := algotest.Letters(ds); got != "A R A R" {
			t.Fatalf("%T: %s, want A R A R", a, got)
		}
		// Aligned: the next window starts at 8e18 ns; TTL: W after last.
		want := time.Duration(8e18 - last.UnixNano())
		if _, ttl := a.(*TTLWindow); ttl {
			want = core.MaxWindow
		}
		if ds[1].RetryAfter != core.MaxWindow || ds[3].RetryAfter != want {
			t.Fatalf("%T: RetryAfter %v and %v, want %v and %v", a, ds[1].RetryAfter, ds[3].RetryAfter, core.MaxWindow, want)
		}
	}
	for _, a := range both(t, time.Second, 1e9) {
		ds := []core.Decision{a.AllowN(at(0), 1e9-1), a.AllowN(at(1), 1), a.AllowN(at(2), 1e9), a.AllowN(at(3), 1)}
		if got := algotest.Letters(ds); got != "A A R R" || ds[1].Remaining != 0 {
			t.Fatalf("%T: %s (%+v), want A A R R with Remaining 0 after 1e9", a, got, ds[1])
		}
		if st := a.State(); st.Count != 2e9+1 {
			t.Fatalf("%T: Count %d, want 2e9+1 (rejected requests count too)", a, st.Count)
		}
	}
}

// TestBadCostLeavesStateUntouched: a cost outside [1, L] is rejected with
// RetryAfter 0 and changes nothing (core.Algorithm); Keyed makes it an error.
func TestBadCostLeavesStateUntouched(t *testing.T) {
	for _, a := range both(t, time.Second, 3) {
		a.AllowN(at(100), 1)
		before := a.State()
		for _, cost := range []int{0, -1, 4} {
			d := a.AllowN(at(200), cost)
			if d.Allowed || d.RetryAfter != 0 || d.Remaining != 2 {
				t.Errorf("%T cost %d: %+v, want rejected, RetryAfter 0, Remaining 2", a, cost, d)
			}
		}
		if after := a.State(); after != before {
			t.Errorf("%T: a bad cost changed the state from %+v to %+v", a, before, after)
		}
		// A full window's count passes L (rejected requests count too), but
		// Remaining never goes below 0: after 4 requests at L = 3 the count
		// is 4, and L - count would be -1.
		for range 3 {
			a.AllowN(at(300), 1)
		}
		if st := a.State(); st.Count != 4 {
			t.Fatalf("%T: count %d after 4 requests, want 4", a, st.Count)
		}
		if d := a.AllowN(at(400), 0); d.Allowed || d.RetryAfter != 0 || d.Remaining != 0 {
			t.Errorf("%T cost 0 after 4 requests at L = 3: %+v, want rejected, RetryAfter 0, Remaining 0 (not -1)", a, d)
		}
		before = a.State()
		// After the window has rolled over, Remaining is the new window's.
		if d := a.AllowN(at(1200), 4); d.Allowed || d.RetryAfter != 0 || d.Remaining != 3 {
			t.Errorf("%T cost 4 in a later window: %+v, want rejected, RetryAfter 0, Remaining 3", a, d)
		}
		if after := a.State(); after != before {
			t.Errorf("%T: a bad cost in a later window changed the state from %+v to %+v", a, before, after)
		}
		if a.MaxCost() != 3 {
			t.Errorf("%T: MaxCost %d, want 3", a, a.MaxCost())
		}
	}
	k, err := NewLimiter(Config{Window: time.Second, Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	_, err = k.AllowN("a", at(0), 4)
	var pe *core.ParamError
	if !errors.As(err, &pe) || pe.Param != "cost" {
		t.Fatalf("Keyed cost 4: err %v, want a ParamError naming cost", err)
	}
}

// TestLateRequest: a request stamped earlier than the latest the key has
// seen is decided at that latest time (it counts in the latest window), but
// its RetryAfter counts from the caller's own now, so that waiting it out
// never arrives early (core.Algorithm).
func TestLateRequest(t *testing.T) {
	w := newWindow(t, time.Second, 2)
	ds := []core.Decision{w.AllowN(at(1500), 1), w.AllowN(at(900), 1), w.AllowN(at(950), 1)}
	if got := algotest.Letters(ds); got != "A A R" {
		t.Fatalf("fixed-window: %s, want A A R", got)
	}
	if st := w.State(); st.WindowID != 1 || st.Count != 3 {
		t.Fatalf("fixed-window: State %+v, want window 1 with count 3", st)
	}
	// Stamped before the start of the window it counts in: the window opened
	// at 1000 (aligned: window 1; TTL: the one at 0 expired) and the request
	// says 900. It waits until 2000, 1100 ms from its own 900, not W = 1000
	// (which would be the wait from the window's start).
	for _, a := range both(t, time.Second, 1) {
		a.AllowN(at(0), 1)
		a.AllowN(at(1000), 1)
		d := a.AllowN(at(900), 1)
		if d.Allowed || d.RetryAfter != 1100*time.Millisecond {
			t.Fatalf("%T: late request at 900 in the window from 1000: %+v, want rejected with RetryAfter 1.1s", a, d)
		}
		if a.AllowN(at(900).Add(d.RetryAfter-1), 1).Allowed {
			t.Fatalf("%T: allowed 1 ns before RetryAfter", a)
		}
		if !a.AllowN(at(900).Add(d.RetryAfter), 1).Allowed {
			t.Fatalf("%T: not allowed after waiting RetryAfter from the caller's now", a)
		}
	}
	// Latest seen 900; stamped 800: the window ends at 1000 (aligned) or
	// 1500 (TTL, opened at 500), 200 ms or 700 ms after the caller's 800.
	for i, a := range both(t, time.Second, 1) {
		a.AllowN(at(500), 1)
		a.AllowN(at(900), 1)
		d := a.AllowN(at(800), 1)
		want := []time.Duration{200 * time.Millisecond, 700 * time.Millisecond}[i]
		if d.Allowed || d.RetryAfter != want {
			t.Fatalf("%T: %+v, want rejected with RetryAfter %v", a, d, want)
		}
		if !a.AllowN(at(800).Add(d.RetryAfter), 1).Allowed {
			t.Fatalf("%T: not allowed after waiting RetryAfter from the caller's now", a)
		}
	}
}

// TestKeyedConcurrentExactCounts hammers both keyed limiters from many
// goroutines over several keys (run it with -race): every key admits exactly
// L per window, however the requests interleave.
func TestKeyedConcurrentExactCounts(t *testing.T) {
	const limit, goroutines, perG = 37, 16, 60
	keys := []string{"user:1", "user:2", "ip:10.0.0.0/24", "key:abc|/upload", "global"}
	fixed, err := NewLimiter(Config{Window: time.Second, Limit: limit})
	if err != nil {
		t.Fatal(err)
	}
	ttl, err := NewTTLLimiter(Config{Window: time.Second, Limit: limit})
	if err != nil {
		t.Fatal(err)
	}
	allow := map[string]func(key string, now time.Time) core.Decision{
		"fixed-window":     fixed.Allow,
		"fixed-window-ttl": ttl.Allow,
	}
	for name, fn := range allow {
		// Two rounds: one instant in window 0, one a whole W later.
		for round, now := range []time.Time{at(500), at(1500)} {
			for k, got := range algotest.Hammer(fn, keys, now, goroutines, perG) {
				if got != limit {
					t.Errorf("%s round %d key %s: %d allowed, want exactly %d", name, round, keys[k], got, limit)
				}
			}
		}
	}
	if fixed.Len() != len(keys) || ttl.Len() != len(keys) {
		t.Fatalf("Len = %d, %d; want %d", fixed.Len(), ttl.Len(), len(keys))
	}
}

func ExampleWindow() {
	w, _ := New(Config{Window: time.Second, Limit: 3})
	for _, t := range []int64{820, 880, 940, 960, 1000, 1060, 1120, 1850} {
		d := w.AllowN(time.UnixMilli(t), 1)
		fmt.Println(t, d.Allowed, d.Remaining, d.RetryAfter)
	}
	// Output:
	// 820 true 2 0s
	// 880 true 1 0s
	// 940 true 0 0s
	// 960 false 0 40ms
	// 1000 true 2 0s
	// 1060 true 1 0s
	// 1120 true 0 0s
	// 1850 false 0 150ms
}
