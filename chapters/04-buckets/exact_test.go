//go:build !exercise

package buckets

import (
	"math/big"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// TestIntervalAndTauRoundExactT: Interval and Tau report T and (C-1)·T to the
// nearest nanosecond, (C-1)·T computed in one step, not as C-1 rounded Ts.
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

// exactRates are float64 rates whose 1e9/R ns has a denominator of at most
// 100 (T = 333 333 333.33, 142 857 142.857, 10 101 010.1010…, and 3.33 ns at
// R = 3e8), so an exact excess is either a whole ns or at least 0.01 ns away
// from one, ten times the 1e-3 ns tolerance.
var exactRates = []float64{3, 7, 1.5, 0.75, 6, 12.5, 99, 3e5, 3e8}

// exactDomain is where GCRA and the queue must match exact arithmetic field
// for field: TAT - base = n·T below 2^45 ns (9.8 hours of back-to-back
// traffic). There the float64 n·T is within 0.002 ns of the exact value
// (half an ulp), closer than any exact excess comes to a whole ns short of a
// tie, and a tie itself is exact (n·T from integers in one rounding). Beyond
// it, up to 2^53 ns, ties stay exact but a non-tie can come out a RetryAfter
// or a Wait 1 ns off exact arithmetic, still never early against the meter
// itself. The traffic keeps C·T within 40 s, so that 400 requests (each gap
// at most 2·C·T) cannot leave the domain, and checks that they did not.
const exactDomain = 1 << 45 // ns

// ahead is n·T, how far a meter's TAT is from its base.
func ahead(l core.Algorithm) float64 {
	if q, ok := l.(*LeakyQueue); ok {
		l = &q.meter
	}
	g := l.(*GCRA)
	return g.times(g.n)
}

// exactCapacity is the largest capacity of at most want whose C·T is within
// 40 s at rate r.
func exactCapacity(want int, r float64) int { return max(1, min(want, int(40*r))) }

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
			if ahead(l) >= exactDomain {
				t.Fatalf("%s C=%d R=%g seed %d, request %d: TAT is %g ns past its base, outside the domain of exactness",
					a.name, c.Capacity, c.Rate, seed, i+1, ahead(l))
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
		for _, want := range []int{1, 2, 4, 9, 1 << 20} { // weighted costs up to a million at R = 3e5 and 3e8
			capacity := exactCapacity(want, r)
			ok, no := checkMatchesExactArithmetic(t, uint64(i*100+capacity), Config{Capacity: capacity, Rate: r}, 400)
			if ok == 0 || no == 0 {
				t.Errorf("C=%d R=%g: %d allowed, %d rejected: the traffic does not test much", capacity, r, ok, no)
			}
		}
	}
}

// FuzzGCRAMatchesExactArithmetic: a seed for the traffic, a rate from
// exactRates and a capacity from 1 to 64 (and C·T within 40 s).
func FuzzGCRAMatchesExactArithmetic(f *testing.F) {
	f.Add(uint64(1), uint8(0), uint8(3))
	f.Add(uint64(2), uint8(8), uint8(63))
	f.Fuzz(func(t *testing.T, seed uint64, rate, capacity uint8) {
		r := exactRates[int(rate)%len(exactRates)]
		c := Config{Capacity: exactCapacity(1+int(capacity)%64, r), Rate: r}
		checkMatchesExactArithmetic(t, seed, c, 200)
	})
}

// TestRetryAfterExactToTheNanosecond: at rates whose T = 1e9/R is not a
// whole ns (3 and 7 per second), at the top of the domain (1e9 per second,
// T = 1 ns) and near its bottom (1e-3 per second: T = 1e12 ns, and 1e-3 is
// not a float64, so T is 2.1e-5 ns short of 1e12), a bucket emptied at 0 is
// asked for cost k at g ns. Every algorithm must say to retry after exactly
// ceil(k·T - g) ns, the first whole ns at which exact arithmetic (T of the
// float64 R, in math/big) has k tokens back (GCRA: TAT + (k-1)·T - now - tau
// = C·T + (k-1)·T - g - (C-1)·T, the same), and admit the request then
// (checkRetryAfter). A RetryAfter 1 ns short, or early by any amount, fails
// the first check; the second checks the retry against the bucket itself.
// Two cases are the token bucket's traps: at R = 5 and g = 84 ms the float
// deficit/R is 116 000 000.000000015 ns (rounding it up adds a ns that is
// not there), and at T = 1000.0005 ns the guess ceil(x - 1e-3) = 1000 ns
// leaves the bucket 5e-7 tokens short (the check adds the ns); GCRA and
// the queue take 1000 ns there, a tie within their 1e-3 ns tolerance of
// time, so they are held only to the cases at least 0.01 ns above a whole ns.
//
// The cases keep C·T within 2^40 ns, where the float64 deficit/R is within
// the 1e-3 ns tolerance of exact, and k·T - g either a whole ns, or at least
// 0.01 ns above one, or far enough above one that a ns less would leave the
// bucket ten times the 1e-9-token tolerance short: otherwise that ns less is
// a tie, which the tolerance may admit.
func TestRetryAfterExactToTheNanosecond(t *testing.T) {
	cases := []struct {
		c    Config
		g    time.Duration // the second request's arrival, ns after the first
		cost int
		want time.Duration
	}{
		{Config{4, 3}, 0, 1, 333_333_334},                      // T = 333 333 333.33
		{Config{4, 3}, time.Millisecond, 2, 665_666_667},       // 2T - 1 ms = 665 666 666.67
		{Config{4, 3}, 333_333_000, 1, 334},                    // T - g = 333.33 ns
		{Config{3, 7}, 0, 3, 428_571_429},                      // 3T = 428 571 428.57
		{Config{3, 7}, 100, 1, 142_857_043},                    // T - 100 = 142 857 042.86
		{Config{1, 5}, 84 * time.Millisecond, 1, 116_000_000},  // 0.42 tokens, 116 ms to go
		{Config{1, 1e9 / 1000.0005}, 0, 1, 1001},               // T = 1000.0005 ns
		{Config{1000, 1e9}, 0, 1, 1},                           // T = 1 ns
		{Config{1000, 1e9}, 250, 1000, 750},                    // 1000 tokens, 250 back
		{Config{1000, 1e9}, 999, 1000, 1},                      // one token short
		{Config{1, 1e-3}, 0, 1, 1_000_000_000_000},             // T = 999 999 999 999.99998
		{Config{1, 1e-3}, 1, 1, 999_999_999_999},               // T - 1 ns
		{Config{1, 1e-3}, 500_000_000_000, 1, 500_000_000_000}, // half refilled
	}
	for _, tc := range cases {
		r := new(big.Rat).SetFloat64(tc.c.Rate)
		x := new(big.Rat).Quo(big.NewRat(int64(tc.cost)*1e9, 1), r)
		x.Sub(x, big.NewRat(int64(tc.g), 1))
		frac := new(big.Rat).Sub(x, new(big.Rat).SetInt64(floorRat(x)))
		nearInTime := frac.Sign() != 0 && frac.Cmp(big.NewRat(1, 100)) < 0
		short := new(big.Rat).Mul(frac, r) // tokens short a ns before ceil(x), times 1e9
		if nearInTime && short.Cmp(big.NewRat(10, 1)) < 0 {
			t.Fatalf("%+v g=%d cost %d: k·T - g = %s ns is a near tie, not a case this test can pin",
				tc.c, tc.g, tc.cost, x.FloatString(6))
		}
		if want := time.Duration(ceilRat(x)); want != tc.want {
			t.Fatalf("%+v g=%d cost %d: the table says %d ns, exact arithmetic %d", tc.c, tc.g, tc.cost, tc.want, want)
		}
		rs := []req{{0, tc.c.Capacity}, {tc.g, tc.cost}}
		algos := allAlgos
		if nearInTime { // a tie for GCRA and the queue
			algos = []algo{tokenBucket}
		}
		for _, a := range algos {
			ds := play(t, a, tc.c, rs)
			if !ds[0].Allowed || ds[1].Allowed || ds[1].RetryAfter != tc.want {
				t.Errorf("%s %+v: cost %d at %d ns after emptying it: %+v, want rejected with RetryAfter %d ns",
					a.name, tc.c, tc.cost, tc.g, ds[1], tc.want)
			}
			checkRetryAfter(t, a, tc.c, rs, ds)
		}
	}
}
