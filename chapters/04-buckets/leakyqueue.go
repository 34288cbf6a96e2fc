//go:build !exercise

package buckets

import (
	"slices"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// LeakyQueue is a leaky bucket used as a queue (traffic shaping): it admits
// as GCRA does, and an admitted request departs at max(TAT, now), so the
// upstream sees requests at least T apart and a burst waits instead
// (Decision.Wait = departure - now, at most tau). At most C requests are in
// the bucket: the one leaving now and C-1 waiting behind it.
//
// A departure is base + n·T to the nearest nanosecond (at R = 3 a burst
// departs at 0, 333 333 333, 666 666 667 and 1 000 000 000 ns); the next one
// is computed from n again, so the rounding never accumulates.
// Not safe for concurrent use; see NewLeakyQueueLimiter.
type LeakyQueue struct {
	meter GCRA // the admission test and TAT

	// Departures later than the last decision's time, oldest first from
	// head; the slice is compacted in place, so it stops allocating once it
	// has grown to the depth it needs.
	queue []time.Time
	head  int
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

// AllowN decides a request of the given cost at now. An allowed request is
// held for Wait before it goes upstream. Remaining is how many more cost-1
// requests could still join the queue now.
func (q *LeakyQueue) AllowN(now time.Time, cost int) core.Decision {
	d, slot, late := q.meter.admit(now, cost)
	if cost < 1 || cost > q.meter.capacity {
		return d // changes nothing, not even which departures are past
	}
	t := now.Add(late) // the time decided at: now, or the latest time seen if later
	for q.head < len(q.queue) && !q.queue[q.head].After(t) {
		q.head++ // departed by t
	}
	if q.head > len(q.queue)/2 {
		q.queue, q.head = append(q.queue[:0], q.queue[q.head:]...), 0
	}
	if d.Allowed {
		d.Wait = slot + late // from the caller's now
		if slot > 0 {
			q.queue = append(q.queue, t.Add(slot))
		}
	}
	return d
}

// Idle reports whether the queue has drained by now: TAT has passed, so
// every departure has too (core.Idler).
func (q *LeakyQueue) Idle(now time.Time) bool { return q.meter.Idle(now) }

// State returns TAT (to the nearest nanosecond) and a copy of the departures
// still waiting.
func (q *LeakyQueue) State() QueueState {
	return QueueState{TAT: q.meter.State().TAT, Queue: slices.Clone(q.queue[q.head:])}
}
