//go:build !exercise

package sliding

import (
	"math"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// Log is the sliding log (`sliding-log`): the exact answer to "how many
// requests in the last W?".
//
// It keeps the time of every allowed request with its cost and forgets one
// when its age reaches W, so the window at t is (t-W, t]. A request is
// allowed iff the cost kept plus its own is at most L. Rejected requests are
// not logged: a client hammering a full window does not push its own
// recovery further away (logging them too is a stricter variant).
//
// The entries sit in a ring, oldest at head. Every entry kept is an allowed
// request inside the window, so there are never more than L of them: the
// ring grows on demand up to the key's peak and is then reused, memory is
// O(L) per key, and a decision allocates nothing once the ring has reached
// that peak. Keeping the cost beside the time (instead of a cost-k request k
// times) makes one request one entry, so a single request of cost L costs
// one slot, not L.
type Log struct {
	width int64 // W in nanoseconds
	limit int
	ring  []entry // entries ring[head], ..., n of them
	head  int
	n     int
	used  int   // the cost of the n entries kept, <= limit
	last  int64 // latest time seen: time never runs backwards for a key
}

// entry is one allowed request: when, and how many permits it spent.
type entry struct {
	t    int64
	cost int
}

// NewLog returns one key's sliding log.
func NewLog(c Config) (*Log, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &Log{width: int64(c.Window), limit: c.Limit, last: math.MinInt64}, nil
}

// MaxCost is L.
func (l *Log) MaxCost() int { return l.limit }

// AllowN decides a request of the given cost at now.
func (l *Log) AllowN(now time.Time, cost int) core.Decision {
	t, late := clamp(now.UnixNano(), l.last)
	stale, freed := l.expired(t)
	if cost < 1 || cost > l.limit {
		return core.Decision{Remaining: l.limit - (l.used - freed)}
	}
	l.last = t
	l.head = (l.head + stale) % max(1, len(l.ring))
	l.n -= stale
	l.used -= freed
	if over := cost - (l.limit - l.used); over > 0 {
		// The request fits once over permits have aged out: wait for the
		// oldest entries until their costs add up to over; the last of them
		// leaves when its age reaches W.
		i, gone := 0, l.at(0).cost
		for gone < over {
			i++
			gone += l.at(i).cost
		}
		return core.Decision{
			Remaining:  l.limit - l.used,
			RetryAfter: time.Duration(l.at(i).t+l.width-t) + late,
		}
	}
	if l.n == len(l.ring) {
		l.grow()
	}
	l.ring[(l.head+l.n)%len(l.ring)] = entry{t, cost}
	l.n++
	l.used += cost
	return core.Decision{Allowed: true, Remaining: l.limit - l.used}
}

// Idle reports whether every logged request has aged out by now, leaving
// the log as empty as a new key's (core.Idler).
func (l *Log) Idle(now time.Time) bool {
	t := now.UnixNano()
	if t < l.last {
		return false
	}
	k, _ := l.expired(t)
	return k == l.n
}

// expired counts the oldest entries whose age at t is W or more, and their
// cost. t is never before an entry, so the unsigned age is exact however far
// apart the two instants are.
func (l *Log) expired(t int64) (k, cost int) {
	for k < l.n && uint64(t-l.at(k).t) >= uint64(l.width) {
		cost += l.at(k).cost
		k++
	}
	return k, cost
}

// at is the i-th oldest entry.
func (l *Log) at(i int) entry { return l.ring[(l.head+i)%len(l.ring)] }

// grow makes room for one more entry, doubling so that growth is amortised
// and capping at L, the most entries a log ever holds.
func (l *Log) grow() {
	ring := make([]entry, min(l.limit, max(2*len(l.ring), 8)))
	for i := range l.n {
		ring[i] = l.at(i)
	}
	l.ring, l.head = ring, 0
}

// State copies the kept timestamps, a cost-k request k times; it allocates
// and is not for the hot path.
func (l *Log) State() LogState {
	ts := make([]time.Time, 0, l.used)
	for i := range l.n {
		e := l.at(i)
		for range e.cost {
			ts = append(ts, time.Unix(0, e.t))
		}
	}
	return LogState{Timestamps: ts}
}

// clamp keeps a key's time from running backwards: a now earlier than the
// latest time seen is decided at that latest time, and late is how far
// behind it the caller was. RetryAfter adds late back, because the caller
// measures the delay from its own now.
func clamp(now, last int64) (t int64, late time.Duration) {
	if now < last {
		return last, time.Duration(last - now)
	}
	return now, 0
}
