package fixedwindow

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/internal/algotest"
)

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

// sentMs returns the arrival times of the allowed requests.
func sentMs(arrivals []int64, ds []core.Decision) []int64 {
	var sent []int64
	for i, d := range ds {
		if d.Allowed {
			sent = append(sent, arrivals[i])
		}
	}
	return sent
}

func TestE1_CrossBoundarySpike(t *testing.T) {
	arrivals := []int64{820, 880, 940, 960, 1000, 1060, 1120, 1850}
	cases := []struct {
		name      string
		algo      core.Algorithm
		want      string
		remaining []int
		retry     map[int]time.Duration // index -> RetryAfter of a rejection
		maxInW    int
		state     State
	}{
		{
			name: "fixed-window", algo: newWindow(t, time.Second, 3),
			want:      "A A A R A A A R",
			remaining: []int{2, 1, 0, 0, 2, 1, 0, 0},
			retry:     map[int]time.Duration{3: 40 * time.Millisecond, 7: 150 * time.Millisecond},
			maxInW:    6,
			// 1850 was rejected but still counted: 1000, 1060, 1120, 1850.
			state: State{WindowID: 1, Start: at(1000), Count: 4},
		},
		{
			// The same arrivals with the clock started by the first hit: the
			// window is [820, 1820), so the spike across 1000 cannot happen.
			name: "fixed-window-ttl", algo: newTTL(t, time.Second, 3),
			want:      "A A A R R R R A",
			remaining: []int{2, 1, 0, 0, 0, 0, 0, 2},
			retry: map[int]time.Duration{3: 860 * time.Millisecond, 4: 820 * time.Millisecond,
				5: 760 * time.Millisecond, 6: 700 * time.Millisecond},
			maxInW: 3,
			state:  State{WindowID: 2, Start: at(1850), Count: 1},
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
			sent := sentMs(arrivals, ds)
			if got := algotest.MaxInWindow(sent, nil, 1000); got != c.maxInW {
				t.Errorf("max upstream in any W = %d, want %d (overshoot %d)", got, c.maxInW, c.maxInW-3)
			}
			var st State
			switch a := c.algo.(type) {
			case *Window:
				st = a.State()
			case *TTLWindow:
				st = a.State()
			}
			if st.WindowID != c.state.WindowID || !st.Start.Equal(c.state.Start) || st.Count != c.state.Count {
				t.Errorf("State = %+v, want %+v", st, c.state)
			}
		})
	}
	// The spike itself: 6 allowed inside [820, 1120], a 300 ms span.
	ds := algotest.Run(newWindow(t, time.Second, 3), arrivals...)
	inside := 0
	for _, s := range sentMs(arrivals, ds) {
		if s >= 820 && s <= 1120 {
			inside++
		}
	}
	if inside != 6 {
		t.Fatalf("allowed inside [820, 1120] = %d, want 6", inside)
	}
}

// randomRun sends a random non-decreasing sequence with random costs and
// returns the arrivals (ms), costs and decisions.
func randomRun(r *rand.Rand, a core.Algorithm, limit, n int, maxGap int64) ([]int64, []int, []core.Decision) {
	arrivals := make([]int64, n)
	costs := make([]int, n)
	ds := make([]core.Decision, n)
	t := r.Int64N(2000)
	for i := range n {
		t += r.Int64N(maxGap + 1)
		arrivals[i] = t
		costs[i] = 1 + r.IntN(limit)
		if r.IntN(2) == 0 {
			costs[i] = 1
		}
		ds[i] = a.AllowN(at(t), costs[i])
	}
	return arrivals, costs, ds
}

func sentWithCosts(arrivals []int64, costs []int, ds []core.Decision) ([]int64, []int) {
	var st []int64
	var sc []int
	for i, d := range ds {
		if d.Allowed {
			st = append(st, arrivals[i])
			sc = append(sc, costs[i])
		}
	}
	return st, sc
}

func TestAlignedWindowReaches2L(t *testing.T) {
	for limit := 1; limit <= 6; limit++ {
		// L at the last millisecond of window 0, L at the first of window 1.
		var arrivals []int64
		for range limit {
			arrivals = append(arrivals, 999)
		}
		for range limit {
			arrivals = append(arrivals, 1000)
		}
		ds := algotest.Run(newWindow(t, time.Second, limit), arrivals...)
		if got := algotest.MaxInWindow(sentMs(arrivals, ds), nil, 1000); got != 2*limit {
			t.Errorf("L=%d: max in any W = %d, want 2L = %d", limit, got, 2*limit)
		}
	}
}

func TestAlignedWindowNeverExceeds2L(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 500 {
		limit := 1 + r.IntN(6)
		arrivals, costs, ds := randomRun(r, newWindow(t, time.Second, limit), limit, 60, 150)
		st, sc := sentWithCosts(arrivals, costs, ds)
		if got := algotest.MaxInWindow(st, sc, 1000); got > 2*limit {
			t.Fatalf("trial %d, L=%d: %d in one W > 2L; arrivals %v costs %v", trial, limit, got, arrivals, costs)
		}
	}
}

func TestTTLWindowReaches2LMinus1(t *testing.T) {
	for limit := 1; limit <= 6; limit++ {
		// The first hit at 0 opens [0, 1000); L-1 more at 999; the hit at
		// 1000 opens the next window and L go through: 2L-1 inside [999, 1999).
		arrivals := []int64{0}
		for range limit - 1 {
			arrivals = append(arrivals, 999)
		}
		for range limit {
			arrivals = append(arrivals, 1000)
		}
		ds := algotest.Run(newTTL(t, time.Second, limit), arrivals...)
		if got := algotest.MaxInWindow(sentMs(arrivals, ds), nil, 1000); got != 2*limit-1 {
			t.Errorf("L=%d: max in any W = %d, want 2L-1 = %d (%s)", limit, got, 2*limit-1, algotest.Letters(ds))
		}
	}
}

func TestTTLWindowNeverExceeds2LMinus1(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 1000 {
		limit := 1 + r.IntN(6)
		arrivals, costs, ds := randomRun(r, newTTL(t, time.Second, limit), limit, 60, 150)
		st, sc := sentWithCosts(arrivals, costs, ds)
		if got := algotest.MaxInWindow(st, sc, 1000); got > 2*limit-1 {
			t.Fatalf("trial %d, L=%d: %d in one W > 2L-1; arrivals %v costs %v", trial, limit, got, arrivals, costs)
		}
	}
}

// TestRetryAfterIsExact replays every rejection: the same request sent
// RetryAfter later is allowed, and 1 ns (and 1 ms) earlier it is not.
func TestRetryAfterIsExact(t *testing.T) {
	variants := []struct {
		name string
		make func(t testing.TB) core.Algorithm
	}{
		{"fixed-window", func(t testing.TB) core.Algorithm { return newWindow(t, time.Second, 3) }},
		{"fixed-window-ttl", func(t testing.TB) core.Algorithm { return newTTL(t, time.Second, 3) }},
	}
	r := rand.New(rand.NewPCG(5, 6))
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			checked := 0
			for range 50 {
				arrivals, costs, ds := randomRun(r, v.make(t), 3, 30, 120)
				for i, d := range ds {
					if d.Allowed {
						continue
					}
					replay := func(delay time.Duration) bool {
						a := v.make(t)
						for j := range i {
							a.AllowN(at(arrivals[j]), costs[j])
						}
						return a.AllowN(at(arrivals[i]).Add(delay), costs[i]).Allowed
					}
					if d.RetryAfter <= 0 || !replay(d.RetryAfter) {
						t.Fatalf("request %d (t=%d cost %d) RetryAfter %v: not allowed then", i, arrivals[i], costs[i], d.RetryAfter)
					}
					if replay(d.RetryAfter-1) || replay(d.RetryAfter-time.Millisecond) {
						t.Fatalf("request %d (t=%d cost %d) RetryAfter %v: allowed earlier", i, arrivals[i], costs[i], d.RetryAfter)
					}
					checked++
				}
			}
			if checked < 50 {
				t.Fatalf("only %d rejections checked", checked)
			}
		})
	}
}

func TestBadParams(t *testing.T) {
	cases := []struct {
		c     Config
		param string
	}{
		{Config{Window: 0, Limit: 3}, "window"},
		{Config{Window: -time.Second, Limit: 3}, "window"},
		{Config{Window: time.Second, Limit: 0}, "limit"},
		{Config{Window: time.Second, Limit: -5}, "limit"},
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
	if err := (Config{Window: time.Second, Limit: 1}).Validate(); err != nil {
		t.Fatalf("a good config is rejected: %v", err)
	}
}

func TestBadCostLeavesStateUntouched(t *testing.T) {
	for _, a := range []interface {
		core.Algorithm
		State() State
	}{newWindow(t, time.Second, 3), newTTL(t, time.Second, 3)} {
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

func TestTimeNeverRunsBackwards(t *testing.T) {
	// A late-arriving earlier timestamp counts in the latest window seen.
	w := newWindow(t, time.Second, 2)
	ds := []core.Decision{w.AllowN(at(1500), 1), w.AllowN(at(900), 1), w.AllowN(at(950), 1)}
	if got := algotest.Letters(ds); got != "A A R" {
		t.Fatalf("got %s, want A A R", got)
	}
	if st := w.State(); st.WindowID != 1 || st.Count != 3 {
		t.Fatalf("State %+v, want window 1 with count 3", st)
	}
}

// TestKeyedConcurrentExactCounts hammers both keyed limiters from many
// goroutines over several keys (run it with -race): every key admits exactly
// L per window, however the requests interleave.
func TestKeyedConcurrentExactCounts(t *testing.T) {
	const (
		limit      = 37
		goroutines = 16
		perG       = 60
	)
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
			counts := make([]atomic.Int64, len(keys))
			var wg sync.WaitGroup
			for g := range goroutines {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := range perG {
						k := (g + i) % len(keys)
						if fn(keys[k], now).Allowed {
							counts[k].Add(1)
						}
					}
				}()
			}
			wg.Wait()
			for k := range keys {
				if got := counts[k].Load(); got != limit {
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

// TestHugeLimitDoesNotWrap is a regression test: with L = MaxInt a request of
// cost L used to leave the counter at MaxInt, and the next request wrapped it
// negative and was allowed with Remaining -1.
func TestHugeLimitDoesNotWrap(t *testing.T) {
	const huge = math.MaxInt
	for _, a := range []core.Algorithm{newWindow(t, time.Second, huge), newTTL(t, time.Second, huge)} {
		if d := a.AllowN(at(0), huge); !d.Allowed || d.Remaining != 0 {
			t.Fatalf("%T: cost L on a fresh key: %+v, want allowed with Remaining 0", a, d)
		}
		for i := range 3 {
			if d := a.AllowN(at(10), 1+i*(huge/2)); d.Allowed || d.Remaining != 0 || d.RetryAfter != 990*time.Millisecond {
				t.Fatalf("%T: request %d after a full window: %+v, want rejected, Remaining 0, RetryAfter 990ms", a, i, d)
			}
		}
		if d := a.AllowN(at(1000), huge); !d.Allowed {
			t.Fatalf("%T: next window: %+v, want allowed", a, d)
		}
	}
}

// TestRetryAfterFromCallersNow is a regression test: a request stamped
// earlier than the latest time the key has seen is decided at that latest
// time, but its RetryAfter is counted from the caller's own now, so that
// waiting it out never arrives early.
func TestRetryAfterFromCallersNow(t *testing.T) {
	for _, a := range []core.Algorithm{newWindow(t, time.Second, 1), newTTL(t, time.Second, 1)} {
		a.AllowN(at(500), 1)
		a.AllowN(at(900), 1) // latest seen: 900
		// Stamped 800, decided at 900: the window ends at 1000 (fixed) or
		// 1500 (TTL), 200 ms or 700 ms after the caller's 800.
		d := a.AllowN(at(800), 1)
		want := map[bool]time.Duration{true: 200 * time.Millisecond, false: 700 * time.Millisecond}[fmt.Sprintf("%T", a) == "*fixedwindow.Window"]
		if d.Allowed || d.RetryAfter != want {
			t.Fatalf("%T: %+v, want rejected with RetryAfter %v", a, d, want)
		}
		if !a.AllowN(at(800).Add(d.RetryAfter), 1).Allowed {
			t.Fatalf("%T: not allowed after waiting RetryAfter from the caller's now", a)
		}
	}
}

// TestFarApartInstants is a regression test: two requests more than 292
// years apart (the span of an int64 of nanoseconds) used to overflow the TTL
// window's age test and keep a 1700s window open in 2200.
func TestFarApartInstants(t *testing.T) {
	early, late := time.Date(1700, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, a := range []core.Algorithm{newWindow(t, time.Hour, 1), newTTL(t, time.Hour, 1)} {
		ds := []core.Decision{a.AllowN(early, 1), a.AllowN(early, 1), a.AllowN(late, 1), a.AllowN(late, 1)}
		if got := algotest.Letters(ds); got != "A R A R" {
			t.Fatalf("%T: %s, want A R A R", a, got)
		}
		for _, i := range []int{1, 3} {
			if ds[i].RetryAfter != time.Hour {
				t.Fatalf("%T: RetryAfter %v, want 1h", a, ds[i].RetryAfter)
			}
		}
	}
}
