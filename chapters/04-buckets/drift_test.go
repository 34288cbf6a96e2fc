package buckets

import (
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/internal/algotest"
)

// When T = 1/R is not a whole number of nanoseconds (R = 3: 333 333 333.33…
// ns), adding up a rounded T drifts. These lessons pin the instants exact
// arithmetic gives, which TAT = base + n·T (n·T computed in one step) keeps.

// TestLeakyQueueDeparturesExactAtFractionalInterval: C = 4, R = 3, four
// requests at 0 ms. Exactly, they depart at 0, T, 2T and 3T = 1 s, so the
// ruler's half-open [0, 1000) holds three of them, not four. Each departure is
// reported to the nearest nanosecond: T = 333 333 333.33 rounds down to
// 333 333 333, 2T = 666 666 666.67 rounds up to 666 666 667, 3T is exactly
// 1 000 000 000. (With T rounded down once, the 4th departed at 999 999 999
// ns, inside the first second.)
func TestLeakyQueueDeparturesExactAtFractionalInterval(t *testing.T) {
	c := Config{Capacity: 4, Rate: 3}
	rs := arrivalsMS(0, 0, 0, 0, 0)
	ds := play(t, leakyQueue, c, rs)
	if got := algotest.Letters(ds); got != "A A A A R" {
		t.Fatalf("%s, want A A A A R", got)
	}
	for i, want := range []time.Duration{0, 333_333_333, 666_666_667, time.Second} {
		if ds[i].Wait != want {
			t.Errorf("request %d departs at %d ns, want %d", i+1, ds[i].Wait, want)
		}
	}
	if n := maxInWindow(sentMS(rs, ds), W); n != 3 {
		t.Errorf("max departures in any [s, s+1000 ms) = %d, want 3", n)
	}
	// The 5th would wait 4T - 0 = 1333.33 ms against tau = 3T = 1000 ms:
	// T = 333 333 333.33 ns too early, so it may retry 333 333 334 ns later.
	if ds[4].RetryAfter != 333_333_334 {
		t.Errorf("5th RetryAfter %d ns, want 333333334 (T rounded up)", ds[4].RetryAfter)
	}
	checkRetryAfter(t, leakyQueue, c, rs, ds)

	q := newAlgo(t, leakyQueue, c).(*LeakyQueue)
	for range 4 {
		q.AllowN(ms(0), 1)
	}
	s := q.State()
	wantQ := []int64{333_333_333, 666_666_667, 1_000_000_000}
	if s.TAT.UnixNano() != 1_333_333_333 || len(s.Queue) != len(wantQ) {
		t.Fatalf("state %+v, want TAT 1333333333 ns and 3 waiting", s)
	}
	for i, w := range wantQ {
		if s.Queue[i].UnixNano() != w {
			t.Errorf("queue[%d] departs at %d ns, want %d", i, s.Queue[i].UnixNano(), w)
		}
	}
}

// TestGCRAExactTieAtFractionalInterval: C = 4, R = 3 (tau = 3T = 1 s). Four
// at 0 ms leave TAT = 4T; at 1000 ms three more fit, the third an exact tie
// (TAT - now = 6T - 1 s = 1 s = tau), which allows; the fourth is T early.
// The token bucket agrees: 3 tokens have refilled by 1000 ms.
func TestGCRAExactTieAtFractionalInterval(t *testing.T) {
	c := Config{Capacity: 4, Rate: 3}
	rs := arrivalsMS(0, 0, 0, 0, 1000, 1000, 1000, 1000)
	for _, a := range allAlgos {
		ds := play(t, a, c, rs)
		if got := algotest.Letters(ds); got != "A A A A A A A R" {
			t.Errorf("%s: %s, want A A A A A A A R", a.name, got)
		}
		if ds[7].RetryAfter != 333_333_334 {
			t.Errorf("%s: 8th RetryAfter %d ns, want 333333334", a.name, ds[7].RetryAfter)
		}
		checkRetryAfter(t, a, c, rs, ds)
	}
}

// TestNoDriftOverAMillionPermits: C = 2, R = 3, request i (from 0) arrives
// at floor(i·T) ns, never later than TAT, so TAT is never reset and after a
// million permits it is exactly 10^6·T = 333 333 333.333… s. Every
// departure of the queue must be i·T to the nearest nanosecond, and the
// final TAT 333 333 333 333 333 ns. (T rounded down once would end
// 333 µs early.)
func TestNoDriftOverAMillionPermits(t *testing.T) {
	const n = 1_000_000
	c := Config{Capacity: 2, Rate: 3}
	g := newAlgo(t, gcra, c).(*GCRA)
	q := newAlgo(t, leakyQueue, c).(*LeakyQueue)
	origin := time.Unix(1_700_000_000, 0) // a real Unix time: int64 ns matter
	for i := int64(0); i < n; i++ {
		at := i * 1_000_000_000 / 3 // floor(i·T)
		now := origin.Add(time.Duration(at))
		if d := g.AllowN(now, 1); !d.Allowed {
			t.Fatalf("gcra request %d at %d ns rejected: %+v", i, at, d)
		}
		d := q.AllowN(now, 1)
		if want := (i*1_000_000_000 + 1) / 3; !d.Allowed || at+int64(d.Wait) != want { // round(i·T)
			t.Fatalf("queue request %d at %d ns: %+v, want departure at %d ns", i, at, d, want)
		}
	}
	const want = 333_333_333_333_333 // round(10^6 · 10^9/3) ns
	if got := g.State().TAT.Sub(origin); got != want {
		t.Errorf("gcra TAT after %d permits = %d ns, want %d", n, got, want)
	}
	if got := q.State().TAT.Sub(origin); got != want {
		t.Errorf("queue TAT after %d permits = %d ns, want %d", n, got, want)
	}
}

// TestDecimalRateTies: a rate written in decimals is rarely a float64, so a
// tie of the decimal arithmetic comes out a hair off in the float one, and
// the contract's tolerance (1e-9 tokens, 1e-3 ns) is what makes it a tie
// again. At R = 0.7 per second, 91 refills take exactly 130 s and 63 take
// exactly 90 s; in float64, 91e9/0.7 is 130 000 000 000.000015 ns and
// 90 s × 0.7 is 62.99999999999999 tokens.
func TestDecimalRateTies(t *testing.T) {
	// C = 91: the bucket emptied at 0 is full again at 130 s, to the ns.
	for _, a := range allAlgos {
		c := Config{Capacity: 91, Rate: 0.7}
		ds := play(t, a, c, []req{{0, 91}, {130 * time.Second, 91}})
		for i, d := range ds {
			if !d.Allowed || d.Remaining != 0 || d.Wait != 0 {
				t.Errorf("%s C=91 R=0.7, request %d (cost 91 at %d s): %+v, want allowed at once with Remaining 0 (a tie allows)",
					a.name, i+1, []int{0, 130}[i], d)
			}
		}
	}
	// C = 64: emptied at 0, it holds 63 whole permits at 90 s; a cost-1
	// request there leaves 62.
	for _, a := range allAlgos {
		c := Config{Capacity: 64, Rate: 0.7}
		ds := play(t, a, c, []req{{0, 64}, {90 * time.Second, 1}})
		if d := ds[1]; !d.Allowed || d.Remaining != 62 {
			t.Errorf("%s C=64 R=0.7, cost 1 at 90 s after 64 at 0: %+v, want allowed with Remaining 62 (63 refilled, a tie counts)", a.name, d)
		}
	}
}
