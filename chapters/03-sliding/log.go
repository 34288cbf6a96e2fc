//go:build !exercise

package sliding

import (
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// Log is a sliding log (`sliding-log`): it keeps the time and cost of every
// allowed request of the last W and allows a request iff the cost kept plus
// its own is at most L.
//
// At t an entry whose age t - ts is W or more has left the window (t-W, t]
// and is dropped. Rejected requests are not logged, so a client hammering a
// full window does not push its own recovery further away. One request is
// one entry whatever its cost, and every entry kept is an allowed request
// inside the window: at most L entries, O(L) memory per key.
type Log struct {
	width, last int64   // W, and the latest time seen (ns)
	limit, used int     // L, and the cost of the entries kept
	log         []entry // the entries kept are log[head:], oldest first
	head        int
}

type entry struct {
	t    int64 // when it was allowed (ns)
	cost int
}

// NewLog returns one key's sliding log.
func NewLog(c Config) (*Log, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &Log{width: int64(c.Window), limit: c.Limit}, nil
}

// MaxCost is L.
func (l *Log) MaxCost() int { return l.limit }

// AllowN decides a request of the given cost at now. A now earlier than the
// latest seen is decided at the latest; RetryAfter counts from now.
func (l *Log) AllowN(now time.Time, cost int) core.Decision {
	t := max(now.UnixNano(), l.last)
	kept, used := l.log[l.head:], l.used
	for len(kept) > 0 && t-kept[0].t >= l.width {
		used -= kept[0].cost
		kept = kept[1:]
	}
	if cost < 1 || cost > l.limit {
		return core.Decision{Remaining: l.limit - used}
	}
	l.last, l.used, l.head = t, used, len(l.log)-len(kept)
	if over := used + cost - l.limit; over > 0 {
		// It fits once the oldest entries holding over permits have left:
		// the last of them leaves when its age reaches W.
		i, freed := 0, kept[0].cost
		for freed < over {
			i++
			freed += kept[i].cost
		}
		return core.Decision{Remaining: l.limit - used,
			RetryAfter: time.Duration(kept[i].t + l.width - now.UnixNano())}
	}
	if len(l.log) == cap(l.log) && l.head >= len(l.log)/2 {
		// Full, and at least half of it dropped entries: move the kept ones
		// to the front. It grows only while more than half is kept (fewer
		// than 2L), so it stays O(L) and stops allocating once grown.
		l.log, l.head = l.log[:copy(l.log, kept)], 0
	}
	l.log = append(l.log, entry{t, cost})
	l.used += cost
	return core.Decision{Allowed: true, Remaining: l.limit - l.used}
}

// Idle reports whether every entry has aged out at now, leaving the log as
// empty as a new key's (core.Idler).
func (l *Log) Idle(now time.Time) bool {
	t := now.UnixNano()
	return t >= l.last && (l.head == len(l.log) || t-l.log[len(l.log)-1].t >= l.width)
}

// State copies the entries kept, one per allowed request (at most L, and a
// single one for a request of cost 1e9); it is not for the hot path.
func (l *Log) State() LogState {
	kept := make([]LogEntry, len(l.log)-l.head)
	for i, e := range l.log[l.head:] {
		kept[i] = LogEntry{At: time.Unix(0, e.t), Cost: e.cost}
	}
	return LogState{Entries: kept}
}
