//go:build !exercise

package buckets

import (
	"time"

	framing "github.com/ratelimit-course/ratelimit/chapters/01-framing"
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
	capacity int
	t        nanos // emission interval T
	limit    nanos // tau + tolerance: the largest debt TAT - now that admits
	tat      nanos // Unix time
	last     int64 // Unix ns of the latest time seen
	seen     bool

	// Departures (Unix ns, rounded as reported) still in the future at the
	// last decision, oldest first, in a ring buffer that grows to the depth
	// it needs and is then reused.
	ring       []int64
	head, size int
}

// NewLeakyQueue returns an empty queue, or the configuration's
// *framing.ParamError.
func NewLeakyQueue(c Config) (*LeakyQueue, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	t := interval(c.Rate)
	return &LeakyQueue{capacity: c.Capacity, t: t, limit: t.times(int64(c.Capacity - 1)).add(tolerance)}, nil
}

// MaxCost is the capacity.
func (q *LeakyQueue) MaxCost() int { return q.capacity }

// AllowN decides a request of the given cost arriving at now. An allowed
// request must be held for Wait before it goes upstream. Remaining is how
// many more cost-1 requests could still join the queue now.
func (q *LeakyQueue) AllowN(now time.Time, cost int) framing.Decision {
	n, tat := clock(now.UnixNano(), q.last, q.tat, q.seen)
	if cost < 1 || cost > q.capacity {
		return framing.Decision{Remaining: permitsLeft(tat.sub(n), q.t, q.limit)}
	}
	q.last, q.seen = n.ns, true
	for q.size > 0 && q.ring[q.head] <= n.ns { // departed by now
		q.head = (q.head + 1) & (len(q.ring) - 1)
		q.size--
	}
	debt := tat.sub(n)
	if over := debt.add(q.t.times(int64(cost - 1))).sub(q.limit).ceil(); over > 0 { // as in GCRA
		return framing.Decision{Remaining: permitsLeft(debt, q.t, q.limit), RetryAfter: time.Duration(over)}
	}
	q.tat = tat.add(q.t.times(int64(cost))) // from the exact departure
	departure := tat.round()
	if departure > n.ns {
		q.push(departure)
	}
	return framing.Decision{
		Allowed:   true,
		Remaining: permitsLeft(q.tat.sub(n), q.t, q.limit),
		Wait:      time.Duration(departure - n.ns),
	}
}

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
	if !q.seen {
		return QueueState{}
	}
	s := QueueState{TAT: time.Unix(0, q.tat.round()), Queue: make([]time.Time, q.size)}
	for i := range s.Queue {
		s.Queue[i] = time.Unix(0, q.ring[(q.head+i)&(len(q.ring)-1)])
	}
	return s
}
