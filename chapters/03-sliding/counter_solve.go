//go:build !exercise

package sliding

import "math/bits"

// The counter's two answers beyond allowed or not, Remaining and
// RetryAfter, are solved rather than searched: Remaining in integers, and
// RetryAfter from a guess on the float estimate that fits (counter.go)
// then settles, so both are exact and RetryAfter is never early. The README's exercise finds RetryAfter by bisection on fits,
// the same answer in more steps.

// remaining is the largest cost in [0, L] that fits. With q = old*(S-e),
// fits(k) is q < (L - inside - k + 1)*S, which for whole numbers is
// k <= L - inside - floor(q/S): the rule solved, in the same 128 bits (the
// quotient is at most old, so it fits in 64).
func (c *Counter) remaining(old, inside int, e int64) int {
	hi, lo := bits.Mul64(uint64(old), uint64(c.size-e))
	q, _ := bits.Div64(hi, lo, uint64(c.size))
	return max(0, min(c.limit, c.limit-inside-int(q)))
}

// retryAt is the first instant after t (in sub-window cur) at which the same
// request fits if nothing else arrives. With no arrivals the estimate only
// falls, so it walks to the first sub-window whose last nanosecond fits
// (after N+1 the window is empty and every cost fits), solves fits for e
// there, and steps to the first e that fits, since floats round: fits has
// the last word, so the answer is never early.
func (c *Counter) retryAt(t int64, cost int) int64 {
	start, old, inside := c.cur*c.size, c.counts[0], c.inside
	first := t - start // the first e to try
	for d := 1; !c.fits(old, inside, c.size-1, cost); d++ {
		start, first, old = start+c.size, 0, 0 // sub-window cur+d
		if d <= c.n {
			old = c.counts[d]
			inside -= old
		}
	}
	e := first
	if old > 0 { // S-e < (L - inside - cost + 1)*S/old
		x := float64(c.limit-inside-cost+1) * float64(c.size) / float64(old)
		e = max(first, c.size-int64(min(x, float64(c.size))))
	}
	for e > first && c.fits(old, inside, e-1, cost) {
		e--
	}
	for !c.fits(old, inside, e, cost) {
		e++
	}
	return start + e
}
