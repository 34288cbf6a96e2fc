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
// Not safe for concurrent use; see NewLeakyQueueLimiter.
type LeakyQueue struct {
	capacity int
	t, tau   int64 // emission interval and tolerance, ns
	tat      int64 // Unix ns
	last     int64 // Unix ns of the latest time seen
	seen     bool

	// Departures still in the future at the last decision, oldest first, in
	// a ring buffer that grows to the depth it needs and is then reused.
	ring       []int64
	head, size int
}

// NewLeakyQueue returns an empty queue, or the configuration's
// *framing.ParamError.
func NewLeakyQueue(c Config) (*LeakyQueue, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &LeakyQueue{capacity: c.Capacity, t: int64(c.Interval()), tau: int64(c.Tau())}, nil
}

// MaxCost is the capacity.
func (q *LeakyQueue) MaxCost() int { return q.capacity }

// AllowN decides a request of the given cost arriving at now. An allowed
// request must be held for Wait before it goes upstream. Remaining is how
// many more cost-1 requests could still join the queue now.
func (q *LeakyQueue) AllowN(now time.Time, cost int) framing.Decision {
	n, tat := clock(now.UnixNano(), q.last, q.tat, q.seen)
	if cost < 1 || cost > q.capacity {
		return framing.Decision{Remaining: permits(tat-n, q.t, q.tau)}
	}
	q.last, q.seen = n, true
	for q.size > 0 && q.ring[q.head] <= n { // departed by now
		q.head = (q.head + 1) & (len(q.ring) - 1)
		q.size--
	}
	if over := tat + int64(cost-1)*q.t - n - q.tau; over > 0 {
		return framing.Decision{Remaining: permits(tat-n, q.t, q.tau), RetryAfter: time.Duration(over)}
	}
	departure := tat
	q.tat = departure + int64(cost)*q.t
	if departure > n {
		q.push(departure)
	}
	return framing.Decision{
		Allowed:   true,
		Remaining: permits(q.tat-n, q.t, q.tau),
		Wait:      time.Duration(departure - n),
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

// State returns TAT and a copy of the departures still waiting.
func (q *LeakyQueue) State() QueueState {
	if !q.seen {
		return QueueState{}
	}
	s := QueueState{TAT: time.Unix(0, q.tat), Queue: make([]time.Time, q.size)}
	for i := range s.Queue {
		s.Queue[i] = time.Unix(0, q.ring[(q.head+i)&(len(q.ring)-1)])
	}
	return s
}
