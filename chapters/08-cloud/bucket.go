package cloud

import "time"

// bucket is the smallest token bucket that models a throttle: tokens refill
// at rate per second up to burst; a request takes one. It has a separate
// check and take so that several throttles can be consulted before any of
// them is spent (a request rejected by the account throttle does not eat
// the usage plan's token in this model).
type bucket struct {
	tokens float64
	last   int64 // ns
	seen   bool
}

const eps = 1e-9 // CONTRACT.md §1: a tie allows

func (b *bucket) refill(t Throttle, now time.Time) {
	ns := now.UnixNano()
	if !b.seen {
		b.tokens, b.last, b.seen = float64(t.Burst), ns, true
		return
	}
	if ns > b.last {
		b.tokens = min(float64(t.Burst), b.tokens+float64(ns-b.last)/1e9*t.Rate)
		b.last = ns
	}
}

// ok refills and reports whether one token is there, without taking it.
func (b *bucket) ok(t Throttle, now time.Time) bool {
	b.refill(t, now)
	return b.tokens+eps >= 1
}

func (b *bucket) take() { b.tokens = max(b.tokens-1, 0) }
