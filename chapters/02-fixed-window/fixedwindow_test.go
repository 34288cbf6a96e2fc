package fixedwindow

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/internal/algotest"
)

// The lesson tests: what `make exercise CH=02` runs against your exercise.go.

func at(msec int64) time.Time { return time.UnixMilli(msec) }

func newWindow(t testing.TB, w time.Duration, limit int) *Window {
	return algotest.Must(t, New, Config{Window: w, Limit: limit})
}

func newTTL(t testing.TB, w time.Duration, limit int) *TTLWindow {
	return algotest.Must(t, NewTTL, Config{Window: w, Limit: limit})
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

// TestRetryAfterIsExact replays every rejection: the same request sent
// RetryAfter later is allowed (RetryAfter is never early), and 1 ns or 1 ms
// earlier it is not (it is the time to the next window, not a guess).
func TestRetryAfterIsExact(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for v := range 2 {
		fresh := func() core.Algorithm { return both(t, time.Second, 3)[v] }
		checked := 0
		for range 50 {
			arrivals, costs, _ := randomRun(r, fresh(), 3, 30, 120)
			checked += algotest.CheckRetryAfter(t, fresh, arrivals, costs, true)
		}
		if checked < 50 {
			t.Fatalf("%T: only %d rejections checked", fresh(), checked)
		}
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
