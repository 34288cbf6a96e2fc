package buckets

import (
	"math/big"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/internal/algotest"
)

// When T = 1/R is not a whole number of nanoseconds (R = 3: 333 333 333.33…
// ns), GCRA and the queue carry the fraction instead of rounding T once, so
// times do not drift from exact arithmetic.

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

// TestIntervalAndTauRoundExactT: Interval and Tau report T and (C-1)·T to the
// nearest nanosecond, both computed from the exact quotient 1e9/R.
func TestIntervalAndTauRoundExactT(t *testing.T) {
	cases := []struct {
		c        Config
		tt, tau  time.Duration
		whatIsIt string
	}{
		{Config{3, 2}, 500 * time.Millisecond, time.Second, "E6: whole ms"},
		{Config{4, 3}, 333_333_333, time.Second, "3T is exactly 1 s"},
		{Config{2, 1.5}, 666_666_667, 666_666_667, "T = 666 666 666.67 rounds up"},
		{Config{7, 3}, 333_333_333, 2 * time.Second, "6T = 2 s"},
		// float64(1e-9) is 1.0000000000000000623e-9, so T is 62.28 ns short
		// of 1e18 ns; float64 division alone could not see it.
		{Config{1, 1e-9}, 999_999_999_999_999_938, 0, "slowest valid rate"},
		{Config{0, 3}, 0, 0, "invalid"},
	}
	for _, tc := range cases {
		if got := tc.c.Interval(); got != tc.tt {
			t.Errorf("%+v (%s): Interval %d ns, want %d", tc.c, tc.whatIsIt, got, tc.tt)
		}
		if got := tc.c.Tau(); got != tc.tau {
			t.Errorf("%+v (%s): Tau %d ns, want %d", tc.c, tc.whatIsIt, got, tc.tau)
		}
	}
}

// exactGCRA is the CONTRACT.md §2 rule in exact rational arithmetic (math/big), the
// oracle for GCRA (queue false) and the leaky queue (queue true). Times are
// Unix ns; a departure is reported to the nearest ns, halves up.
type exactGCRA struct {
	queue  bool
	t, tau *big.Rat
	tat    *big.Rat
	last   int64
	seen   bool
}

func newExactGCRA(c Config, queue bool) *exactGCRA {
	r := new(big.Rat).SetFloat64(c.Rate) // the float64 rate, exactly
	t := new(big.Rat).Quo(big.NewRat(1e9, 1), r)
	tau := new(big.Rat).Mul(t, big.NewRat(int64(c.Capacity-1), 1))
	return &exactGCRA{queue: queue, t: t, tau: tau, tat: new(big.Rat)}
}

// floorRat and ceilRat are floor(x) and ceil(x) for a rational x (Int.Div
// is Euclidean, and the denominator is positive).
func floorRat(x *big.Rat) int64 { return new(big.Int).Div(x.Num(), x.Denom()).Int64() }
func ceilRat(x *big.Rat) int64  { return -floorRat(new(big.Rat).Neg(x)) }

func (e *exactGCRA) allow(now int64, cost int) core.Decision {
	if e.seen && now < e.last {
		now = e.last
	}
	n := new(big.Rat).SetInt64(now)
	if !e.seen || e.tat.Cmp(n) < 0 {
		e.tat.Set(n)
	}
	e.last, e.seen = now, true
	remaining := func() int { // largest q+1 with debt + q·T <= tau, or 0
		room := new(big.Rat).Sub(e.tau, new(big.Rat).Sub(e.tat, n))
		if room.Sign() < 0 {
			return 0
		}
		return int(floorRat(room.Quo(room, e.t))) + 1
	}
	// D = TAT + (cost-1)·T - now - tau; reject iff D > 0, retry after ceil(D).
	d := new(big.Rat).Mul(e.t, big.NewRat(int64(cost-1), 1))
	d.Add(d, e.tat).Sub(d, n).Sub(d, e.tau)
	if d.Sign() > 0 {
		return core.Decision{Remaining: remaining(), RetryAfter: time.Duration(ceilRat(d))}
	}
	var wait time.Duration
	if e.queue {
		half := new(big.Rat).Add(e.tat, big.NewRat(1, 2))
		wait = time.Duration(floorRat(half) - now)
	}
	e.tat.Add(e.tat, new(big.Rat).Mul(e.t, big.NewRat(int64(cost), 1)))
	return core.Decision{Allowed: true, Remaining: remaining(), Wait: wait}
}

// exactRates are float64 rates whose 1e9/R has a denominator below 1000 ns,
// so an exact excess is either 0 or more than the 1e-3 ns tolerance away,
// and the implementation must match exact arithmetic field for field:
// T = 333 333 333.33, 142 857 142.857, … and 3.33 ns at R = 3e8.
var exactRates = []float64{3, 7, 1.5, 0.75, 6, 12.5, 999, 3e5, 3e8}

// checkMatchesExactArithmetic plays random traffic with nanosecond
// arrivals and weighted costs from a real Unix time through GCRA and the
// queue and through the rational oracle, and requires identical Decisions.
// It returns how many were allowed and rejected.
func checkMatchesExactArithmetic(t *testing.T, seed uint64, c Config, n int) (allowed, rejected int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 11))
	tns := 1e9 / c.Rate
	for _, a := range []algo{gcra, leakyQueue} {
		l := newAlgo(t, a, c)
		oracle := newExactGCRA(c, a.name == leakyQueue.name)
		now := int64(1_700_000_000)*1e9 + rng.Int64N(1e9)
		for i := 0; i < n; i++ {
			switch rng.IntN(4) {
			case 0: // same instant
			case 1: // up to two full refills, at most 10^15 ns (11.6 days)
				now += rng.Int64N(int64(min(2*tns*float64(c.Capacity), 1e15)) + 2)
			default:
				now += rng.Int64N(int64(tns) + 2)
			}
			cost := 1 + rng.IntN(c.Capacity)
			got, want := l.AllowN(time.Unix(0, now), cost), oracle.allow(now, cost)
			if got != want {
				t.Fatalf("%s C=%d R=%g seed %d, request %d at %d ns cost %d: %+v, exact arithmetic %+v",
					a.name, c.Capacity, c.Rate, seed, i+1, now, cost, got, want)
			}
			if got.Allowed {
				allowed++
			} else {
				rejected++
			}
		}
	}
	return allowed, rejected
}

func TestGCRAMatchesExactArithmetic(t *testing.T) {
	for i, r := range exactRates {
		huge := int(min(1<<40, r*1e8)) // weighted costs in the millions and more
		for _, capacity := range []int{1, 2, 4, 9, huge} {
			ok, no := checkMatchesExactArithmetic(t, uint64(i*100+capacity), Config{Capacity: capacity, Rate: r}, 400)
			if ok == 0 || no == 0 {
				t.Errorf("C=%d R=%g: %d allowed, %d rejected: the traffic does not test much", capacity, r, ok, no)
			}
		}
	}
}

// FuzzGCRAMatchesExactArithmetic: a seed for the traffic, a rate from
// exactRates and a capacity from 1 to 64.
func FuzzGCRAMatchesExactArithmetic(f *testing.F) {
	f.Add(uint64(1), uint8(0), uint8(3))
	f.Add(uint64(2), uint8(8), uint8(63))
	f.Fuzz(func(t *testing.T, seed uint64, rate, capacity uint8) {
		c := Config{Capacity: 1 + int(capacity)%64, Rate: exactRates[int(rate)%len(exactRates)]}
		checkMatchesExactArithmetic(t, seed, c, 200)
	})
}
