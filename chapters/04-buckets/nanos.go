package buckets

import (
	"math/big"
	"math/bits"
)

// nanos is an instant (Unix time) or a duration in nanoseconds, carried to
// 2^-64 ns: ns + frac/2^64, with frac in [0, 2^64), so ns is the floor.
//
// Why not plain int64 nanoseconds: the emission interval T = 1/R is usually
// not a whole number of them (3 per second: 333 333 333.33… ns). Rounding T
// once makes every later TAT drift by the rounding times the number of
// permits: after three permits at R = 3 the bucket would be a nanosecond
// early, after a million a third of a millisecond. Why not float64: it
// cannot hold a Unix time in nanoseconds exactly (2^53 ns is 104 days). So
// the whole nanoseconds stay an int64, and a 64-bit binary fraction rides
// along; every operation below is exact integer arithmetic, and the only
// rounding is T's own, once, by less than 2^-64 ns.
type nanos struct {
	ns   int64  // whole nanoseconds (the floor)
	frac uint64 // and frac/2^64 of one more
}

// tolerance is CONTRACT.md §1's 1e-9 ms (1e-3 ns) in the same fixed point. TAT and
// tau are sums of the rounded T, so an exact tie between them and a whole-ns
// now can come out a few 2^-64 ns either way; everything within the
// tolerance counts as the tie it is, and a tie allows.
var tolerance = nanos{frac: 18_446_744_073_709_552} // 1e-3 · 2^64

func (x nanos) add(y nanos) nanos {
	frac, carry := bits.Add64(x.frac, y.frac, 0)
	return nanos{x.ns + y.ns + int64(carry), frac}
}

func (x nanos) sub(y nanos) nanos {
	frac, borrow := bits.Sub64(x.frac, y.frac, 0)
	return nanos{x.ns - y.ns - int64(borrow), frac}
}

// times is k·x for k >= 0. The caller keeps k·x within int64 nanoseconds
// (here k·T <= C·T, which Validate bounds).
func (x nanos) times(k int64) nanos {
	hi, lo := bits.Mul64(uint64(k), x.frac)
	return nanos{k*x.ns + int64(hi), lo}
}

// less reports x < y.
func (x nanos) less(y nanos) bool {
	return x.ns < y.ns || x.ns == y.ns && x.frac < y.frac
}

// ceil is the smallest whole number of nanoseconds >= x.
func (x nanos) ceil() int64 {
	if x.frac != 0 {
		return x.ns + 1
	}
	return x.ns
}

// round is x to the nearest nanosecond, halves up: what a time.Time or a
// time.Duration can hold.
func (x nanos) round() int64 {
	return x.ns + int64(x.frac>>63)
}

// float is x as a float64, for estimates only.
func (x nanos) float() float64 {
	return float64(x.ns) + float64(x.frac)/(1<<64)
}

// interval is 1e9/rate ns, the emission interval, to within 2^-64 ns. It
// divides with math/big because for slow rates (T above 2^53 ns) not even
// the whole nanoseconds fit a float64's mantissa. It runs once per
// configuration, never per decision. rate must be valid (Config.Validate).
func interval(rate float64) nanos {
	t := new(big.Float).SetPrec(256).SetInt64(1e9)
	t.Quo(t, new(big.Float).SetFloat64(rate))
	whole, _ := t.Int64() // truncates; T <= 1e18 ns after Validate
	t.Sub(t, new(big.Float).SetInt64(whole))
	frac, _ := t.SetMantExp(t, 64).Uint64() // the fraction in units of 2^-64 ns, truncated
	return nanos{whole, frac}
}

// permitsLeft is how many cost-1 requests GCRA would still admit right now
// when TAT is ahead of now by debt: the largest q+1 with debt + q·T <= limit
// (tau + tolerance), or 0 if even the first fails. It is the token bucket's
// floor(tokens) without the floating-point doubt: a float division guesses
// q, exact products settle it.
func permitsLeft(debt, t, limit nanos) int {
	room := limit.sub(debt)
	if room.ns < 0 {
		return 0
	}
	q := int64(room.float() / t.float())
	for q > 0 && room.less(t.times(q)) {
		q--
	}
	for !room.less(t.times(q + 1)) {
		q++
	}
	return int(q) + 1
}
