//go:build !exercise

package buckets

import (
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// LeakyQueue is the leaky bucket used as a queue (traffic shaping). It runs
// GCRA's test, but an admitted request does not go upstream at once: it
// departs at max(TAT, now), and TAT moves to that departure + k·T. The
// upstream therefore sees requests at least T apart, and a burst turns into
// waiting (Decision.Wait = departure - arrival, at most tau). The depth is C:
// the request leaving now plus at most C-1 waiting behind it.
//
// TAT is kept to 2^-64 ns like GCRA's; a departure is reported to the
// nearest nanosecond (at R = 3 a burst departs at 0, 333 333 333,
// 666 666 667 and 1 000 000 000 ns), and the next one still counts from the
// exact instant, so the rounding never accumulates.
//
// Not safe for concurrent use; see NewLeakyQueueLimiter.
type LeakyQueue struct {
	meter GCRA // the admission test; the queue only adds departure times

	// Departures (Unix ns, rounded as reported) still in the future at the
	// last decision, oldest first, in a ring buffer that grows to the depth
	// it needs and is then reused.
	ring       []int64
	head, size int
}

// NewLeakyQueue returns an empty queue, or the configuration's
// *core.ParamError.
func NewLeakyQueue(c Config) (*LeakyQueue, error) {
	g, err := NewGCRA(c)
	if err != nil {
		return nil, err
	}
	return &LeakyQueue{meter: *g}, nil
}

// MaxCost is the capacity.
func (q *LeakyQueue) MaxCost() int { return q.meter.capacity }

// AllowN decides a request of the given cost arriving at now. An allowed
// request must be held for Wait before it goes upstream. Remaining is how
// many more cost-1 requests could still join the queue now.
func (q *LeakyQueue) AllowN(now time.Time, cost int) core.Decision {
	prev, ns := q.meter.last, now.UnixNano()
	d, start := q.meter.admit(ns, cost)
	n := q.meter.last // now, or the latest time seen if now was earlier
	if uint64(n-prev) >= far {
		q.size = 0 // every departure is long past
	}
	// Departures are compared through differences, which stay exact when an
	// instant near the year 2262 wraps (see clock).
	for q.size > 0 && q.ring[q.head]-n <= 0 { // departed by now
		q.head = (q.head + 1) & (len(q.ring) - 1)
		q.size--
	}
	if d.Allowed {
		// The slot starts at max(TAT, now); TAT itself moved on from the exact
		// instant, so rounding the reported departure never accumulates.
		departure := start.round()
		if departure-n > 0 {
			q.push(departure)
		}
		// Held from the caller's now, which may be behind n.
		d.Wait = time.Duration(departure - ns)
	}
	return d
}

// Idle reports whether the queue has drained by now: TAT has passed, so
// every departure has too (core.Idler).
func (q *LeakyQueue) Idle(now time.Time) bool { return q.meter.Idle(now) }

// push appends a departure, doubling the ring (a power of two) when full.
func (q *LeakyQueue) push(departure int64) {
	if q.size == len(q.ring) {
		grown := make([]int64, max(4, 2*len(q.ring)))
		for i := 0; i < q.size; i++ {
			grown[i] = q.ring[(q.head+i)&(len(q.ring)-1)]
		}
		q.ring, q.head = grown, 0
	}
	q.ring[(q.head+q.size)&(len(q.ring)-1)] = departure
	q.size++
}

// State returns TAT (to the nearest nanosecond) and a copy of the departures
// still waiting.
func (q *LeakyQueue) State() QueueState {
	if !q.meter.seen {
		return QueueState{}
	}
	last := q.meter.last
	s := QueueState{TAT: instant(last, q.meter.tat), Queue: make([]time.Time, q.size)}
	for i := range s.Queue {
		s.Queue[i] = instant(last, nanos{ns: q.ring[(q.head+i)&(len(q.ring)-1)]})
	}
	return s
}
