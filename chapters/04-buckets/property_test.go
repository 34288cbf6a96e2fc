package buckets

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"golang.org/x/time/rate"
)

// Rates whose emission interval T is a whole number of nanoseconds, then
// rates where it is not (3/s: 333 333 333.33 ns; 100 per minute; 1000/7,
// whose T is a hair off 7 ms because 1000/7 is not a float64, so near-ties
// abound). GCRA carries T's fraction, so it must agree with the token bucket
// on both.
var (
	wholeNanosecondRates = []float64{0.25, 0.5, 1, 1.25, 2, 2.5, 4, 5, 8, 10, 100, 1000}
	fractionalRates      = []float64{3, 7, 0.3, 1.5, 100.0 / 60, 1000.0 / 7}
	equivalenceRates     = append(append([]float64(nil), wholeNanosecondRates...), fractionalRates...)
)

// checkGCRAMatchesTokenBucket plays rs (whole ms) through both and requires
// the same decision, the same Remaining, a token count that is GCRA's debt
// turned round (C - (TAT-now)/T), and the same RetryAfter within the token
// bucket's tolerance. (State().TAT is rounded to the nearest ns, hence half
// a ns of slack in the tokens when T is not whole.)
//
// Why a RetryAfter may differ: GCRA's is exact (time within 1e-3 ns). The
// token bucket's float tokens drift from exact by a few ulps per request,
// which the 1e-9-token tolerance absorbs for decisions; but as a refill time
// that tolerance is 1/R ns, so its RetryAfter may land up to ceil(1/R) ns
// either side of GCRA's (E6 and TestRemainingAndRetryAfter pin exact values).
func checkGCRAMatchesTokenBucket(t *testing.T, c Config, rs []req) {
	t.Helper()
	b, err := NewTokenBucket(c)
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewGCRA(c)
	if err != nil {
		t.Fatal(err)
	}
	T := 1e9 / c.Rate
	slack := 1e-9 * float64(c.Capacity)
	if T != math.Trunc(T) {
		slack += 0.5 / T
	}
	retrySlack := time.Duration(math.Ceil(1 / c.Rate))
	for i, r := range rs {
		now := time.UnixMilli(0).Add(r.at)
		db, dg := b.AllowN(now, r.cost), g.AllowN(now, r.cost)
		if diff := db.RetryAfter - dg.RetryAfter; diff >= -retrySlack && diff <= retrySlack {
			db.RetryAfter = dg.RetryAfter
		}
		if db != dg {
			t.Fatalf("C=%d R=%g, request %d (at %v, cost %d): token-bucket %+v, gcra %+v",
				c.Capacity, c.Rate, i+1, r.at, r.cost, db, dg)
		}
		debt := max(float64(g.State().TAT.Sub(now)), 0)
		if tokens, want := b.Tokens(now), float64(c.Capacity)-debt/T; math.Abs(tokens-want) > slack {
			t.Fatalf("C=%d R=%g, after request %d: %.12f tokens, but GCRA's TAT says %.12f",
				c.Capacity, c.Rate, i+1, tokens, want)
		}
	}
}

// randomTraffic makes n requests in whole ms: bursts at one instant, gaps
// shorter and longer than T, and costs from 1 to maxCost.
func randomTraffic(rng *rand.Rand, c Config, n, maxCost int) []req {
	tms := int64(c.Interval() / time.Millisecond)
	rs := make([]req, n)
	at := time.Duration(rng.Int64N(5000)) * time.Millisecond
	for i := range rs {
		if rng.IntN(3) > 0 {
			at += time.Duration(rng.Int64N(2*tms+2)) * time.Millisecond
		}
		rs[i] = req{at, 1 + rng.IntN(maxCost)}
	}
	return rs
}

func TestGCRAEquivalentToTokenBucket(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, r := range equivalenceRates {
		for _, capacity := range []int{1, 2, 3, 4, 5, 6, 7, 8, 1000, 1 << 12} {
			c := Config{Capacity: capacity, Rate: r}
			for trial := 0; trial < 20; trial++ {
				checkGCRAMatchesTokenBucket(t, c, randomTraffic(rng, c, 200, 1))        // cost 1
				checkGCRAMatchesTokenBucket(t, c, randomTraffic(rng, c, 200, capacity)) // weighted
			}
		}
	}
}

// FuzzGCRAMatchesTokenBucket: byte 0 picks R, bytes 1-2 pick C (1 to 2^12,
// little-endian), then each pair (at most 256) is (gap, cost): gap byte b is
// b hundredths of T in whole ms, cost byte b is 1 + b·C/256.
//
// The bounds are where a float64 token count provably resolves a tie: each
// refill and spend rounds by at most an ulp of C (2^-40 near 2^12), so 256
// requests leave it within 5e-10 of exact, inside the 1e-9 tolerance. A
// bucket of a million tokens rounds by 2^-32 per step, and a few hundred
// steps can push a tie past the tolerance: its Remaining, or a decision at
// an exact tie, can then come out one off GCRA's (and exact arithmetic's).
func FuzzGCRAMatchesTokenBucket(f *testing.F) {
	f.Add([]byte{4, 2, 0, 0, 0, 2, 0, 2, 0, 2, 0})                  // E6: C=3, R=2, 0 10 20 30 ms
	f.Add([]byte{4, 5, 0, 0, 0, 2, 0, 2, 0, 2, 0})                  // E6 with C=6
	f.Add([]byte{11, 7, 0, 0, 200, 100, 30, 150, 255, 250, 0})      // R=1000, C=8
	f.Add([]byte{12, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 100, 0, 200, 0}) // R=3, C=4
	f.Add([]byte{17, 1, 0, 0, 0, 0, 0, 100, 0, 100, 0, 50, 255})    // R=1000/7, C=2
	f.Add([]byte{12, 255, 15, 0, 255, 3, 254, 200, 255, 60, 128})   // R=3, C=2^12
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 3 {
			return
		}
		c := Config{
			Capacity: 1 + (int(data[1])|int(data[2])<<8)%(1<<12),
			Rate:     equivalenceRates[int(data[0])%len(equivalenceRates)],
		}
		tms := int64(c.Interval() / time.Millisecond)
		var rs []req
		var at time.Duration
		for i := 3; i+1 < len(data) && len(rs) < 256; i += 2 {
			at += time.Duration(int64(data[i])*tms/100) * time.Millisecond
			rs = append(rs, req{at, 1 + int(data[i+1])*c.Capacity/256})
		}
		checkGCRAMatchesTokenBucket(t, c, rs)
	})
}

// TestTokenBucketMatchesXTimeRate is a differential test against
// golang.org/x/time/rate, written by other people: rate.NewLimiter(R, C) and
// AllowN(time.UnixMilli(ms), n) must decide every request exactly as our
// token bucket does, on random non-decreasing whole-ms arrivals with random
// costs from 1 to C+1 (C+1 is rejected by both and changes nothing).
//
// Why the two can be compared at all:
//   - Initial state: x/time/rate starts with tokens = b and last = the zero
//     time, so its first refill spans two thousand years and clamps to b:
//     a full bucket on first sight, as here.
//   - Its floats: it converts elapsed time with Duration.Seconds()*R and has
//     no tie tolerance, but it admits whenever the missing tokens would refill
//     in under 1 ns (durationFromTokens truncates to whole ns), so its
//     tolerance is R·1e-9 tokens where ours is 1e-9.
//   - exact rates (125 · 2^k per second, C < R): every quantity x/time/rate
//     computes is a multiple of 1/8 token, exactly representable, and any
//     gap of 1 s or more fills the bucket, so it is exact (checked below).
//     Ours multiplies the gap in ns by R/1e9 (at R = 125, 1.25e-7: not a
//     float64), so it rounds, by ulps, inside its 1e-9 tolerance: an exact
//     tie still allows, and the tokens agree within 1e-9 (checked below).
//   - other rates (1, 2, 3, 0.5, 10, 100/60): both round, by ~1e-15 tokens,
//     far inside both tolerances; a whole-ms arrival is either an exact tie
//     or at least 1/(1000·denominator) tokens away from one, so both agree.
//
// Excluded, and why: arrivals finer than 1 ms at rates where a deficit can
// fall between the two tolerances (see TestXTimeRateAdmitsWithinOneNanosecond),
// time going backwards (x/time/rate moves its last refill back to the earlier
// time and credits the interval again; we keep the latest time seen), and
// R = Inf or C = 0, which x/time/rate accepts and Validate does not.
func TestTokenBucketMatchesXTimeRate(t *testing.T) {
	exact := []float64{125, 250, 500, 1000, 2000, 4000, 8000}
	for _, r := range exact { // guard the claim above: sub-second gaps convert exactly
		for k := int64(0); k < 1000; k++ {
			got := (time.Duration(k) * time.Millisecond).Seconds() * r
			if got != float64(k)*(r/125)/8 {
				t.Fatalf("x/time/rate converts %d ms at R=%g to %.17g tokens, not %g", k, r, got, float64(k)*r/1000)
			}
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, r := range append(exact, 1, 2, 3, 0.5, 10, 100.0/60) {
		var allowed, rejected, ties int
		for trial := 0; trial < 60; trial++ {
			c := Config{Capacity: 1 + rng.IntN(min(100, int(r)+8)), Rate: r} // C < R when R >= 125
			ours, err := NewTokenBucket(c)
			if err != nil {
				t.Fatal(err)
			}
			theirs := rate.NewLimiter(rate.Limit(r), c.Capacity)
			fillMS := int64(math.Ceil(float64(c.Capacity) * 1000 / r))
			at := int64(rng.IntN(100000))
			for i := 0; i < 300; i++ {
				switch rng.IntN(4) {
				case 0: // same ms
				case 1:
					at += rng.Int64N(2*fillMS + 2)
				default:
					at += rng.Int64N(fillMS/4 + 2)
				}
				n := 1 + rng.IntN(c.Capacity+1)
				now := time.UnixMilli(at)
				if math.Abs(theirs.TokensAt(now)-float64(n)) < 1e-9 {
					ties++ // exactly n tokens: the case a float slip would flip
				}
				d, want := ours.AllowN(now, n), theirs.AllowN(now, n)
				if want {
					allowed++
				} else {
					rejected++
				}
				if d.Allowed != want {
					t.Fatalf("C=%d R=%g, request %d at %d ms cost %d: ours allowed=%v, x/time/rate %v",
						c.Capacity, r, i+1, at, n, d.Allowed, want)
				}
				if got, want := ours.Tokens(now), theirs.TokensAt(now); math.Abs(got-want) > 1e-9 {
					t.Fatalf("C=%d R=%g after request %d: %.12f tokens, x/time/rate %.12f", c.Capacity, r, i+1, got, want)
				}
			}
		}
		if allowed == 0 || rejected == 0 || ties == 0 {
			t.Errorf("R=%g: %d allowed, %d rejected, %d exact ties: the traffic does not test much", r, allowed, rejected, ties)
		}
	}
}

// TestXTimeRateAdmitsWithinOneNanosecond pins down the excluded case: with
// R = 4e8 per second a token takes 2.5 ns. Two requests 2 ns apart on a
// 1-token bucket find 0.8 tokens for the second; x/time/rate rounds the
// 0.5 ns it would need down to 0 and admits it; the token bucket rejects it
// and says to retry in 1 ns.
func TestXTimeRateAdmitsWithinOneNanosecond(t *testing.T) {
	c := Config{Capacity: 1, Rate: 4e8}
	ours, err := NewTokenBucket(c)
	if err != nil {
		t.Fatal(err)
	}
	theirs := rate.NewLimiter(rate.Limit(c.Rate), 1)
	t0 := time.UnixMilli(1000)
	t1 := t0.Add(2 * time.Nanosecond)
	if !ours.AllowN(t0, 1).Allowed || !theirs.AllowN(t0, 1) {
		t.Fatal("first request rejected")
	}
	d := ours.AllowN(t1, 1)
	if d.Allowed || d.RetryAfter != time.Nanosecond {
		t.Errorf("token bucket at +2 ns: %+v, want rejected, RetryAfter 1ns (0.8 tokens)", d)
	}
	if !theirs.AllowN(t1, 1) {
		t.Errorf("x/time/rate at +2 ns rejected; the exclusion documented above no longer holds")
	}
}

// TestRetryAfterIsExact probes every rejection on random weighted traffic,
// including rates whose T is not a whole nanosecond (3/s, 100 per minute):
// the same request is allowed exactly RetryAfter later, and not 1 ns or 1 ms
// sooner.
func TestRetryAfterIsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, r := range []float64{0.5, 2, 3, 100.0 / 60, 7, 1000} {
		for trial := 0; trial < 6; trial++ {
			c := Config{Capacity: 1 + rng.IntN(6), Rate: r}
			rs := randomTraffic(rng, c, 40, c.Capacity)
			for _, a := range allAlgos {
				checkRetryAfter(t, a, c, rs, play(t, a, c, rs))
			}
		}
	}
}
