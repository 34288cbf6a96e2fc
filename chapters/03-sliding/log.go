//go:build !exercise

package sliding

import (
	"math"
	"time"

	framing "github.com/ratelimit-course/ratelimit/chapters/01-framing"
)

// Log is the sliding log (`sliding-log`): the exact answer to "how many
// requests in the last W?".
//
// It keeps the time of every allowed request (a cost-k request k times) and
// forgets one when its age reaches W, so the window at t is (t-W, t]. A
// request is allowed iff what is kept plus its cost is at most L. Rejected
// requests are not logged: a client hammering a full window does not push its
// own recovery further away (logging them too is a stricter variant).
//
// The timestamps sit in a ring of int64 nanoseconds, oldest at head. It never
// holds more than L entries, so it grows on demand up to L and is then reused:
// memory is O(L) per key, and a decision allocates nothing once the ring has
// reached the key's peak.
type Log struct {
	width int64 // W in nanoseconds
	limit int
	ring  []int64 // len(ring) <= limit; entries ring[head], ..., n of them
	head  int
	n     int
	last  int64 // latest time seen: time never runs backwards for a key
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
func (l *Log) AllowN(now time.Time, cost int) framing.Decision {
	t := max(now.UnixNano(), l.last)
	stale := l.expired(t)
	if cost < 1 || cost > l.limit {
		return framing.Decision{Remaining: l.limit - (l.n - stale)}
	}
	l.last = t
	l.head = (l.head + stale) % max(1, len(l.ring))
	l.n -= stale
	if over := l.n + cost - l.limit; over > 0 {
		// The request fits once the over oldest entries have aged out; the
		// last of them leaves when its age reaches W.
		return framing.Decision{
			Remaining:  l.limit - l.n,
			RetryAfter: time.Duration(l.at(over-1) + l.width - t),
		}
	}
	if l.n+cost > len(l.ring) {
		l.grow(l.n + cost)
	}
	for range cost {
		l.ring[(l.head+l.n)%len(l.ring)] = t
		l.n++
	}
	return framing.Decision{Allowed: true, Remaining: l.limit - l.n}
}

// expired counts the oldest entries whose age at t is W or more.
func (l *Log) expired(t int64) int {
	k := 0
	for k < l.n && t-l.at(k) >= l.width {
		k++
	}
	return k
}

// at is the i-th oldest entry.
func (l *Log) at(i int) int64 { return l.ring[(l.head+i)%len(l.ring)] }

// grow makes room for need entries, doubling so that growth is amortised
// and capping at L, the most a log ever holds.
func (l *Log) grow(need int) {
	size := min(l.limit, max(need, 2*len(l.ring), 8))
	ring := make([]int64, size)
	for i := range l.n {
		ring[i] = l.at(i)
	}
	l.ring, l.head = ring, 0
}

// State copies the kept timestamps; it allocates and is not for the hot path.
func (l *Log) State() LogState {
	ts := make([]time.Time, l.n)
	for i := range ts {
		ts[i] = time.Unix(0, l.at(i))
	}
	return LogState{Timestamps: ts}
}
