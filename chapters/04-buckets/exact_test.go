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
