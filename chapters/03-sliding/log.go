//go:build !exercise

package sliding

import (
	"sort"
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
// inside the window: at most L entries, O(L) memory per key. Each entry
// carries the running total of the cost up to it (a prefix sum), so the
// cost of any run of entries is a difference of two totals, and a rejection
// finds the entry it waits for by binary search, in O(log L) for any cost.
type Log struct {
	width, last int64   // W, and the latest time seen (ns)
	limit       int     // L
	log         []entry // the entries kept are log[head:], oldest first
	head        int
}

type entry struct {
	t     int64 // when it was allowed (ns)
	total int64 // the cost of log[0] to this entry, itself included
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

// before is the cost of the entries ahead of log[i], dropped or kept.
func (l *Log) before(i int) int64 {
	if i == 0 {
		return 0
	}
	return l.log[i-1].total
}

// AllowN decides a request of the given cost at now. A now earlier than the
// latest seen is decided at the latest; RetryAfter counts from now.
func (l *Log) AllowN(now time.Time, cost int) core.Decision {
	t := max(now.UnixNano(), l.last)
	head := l.head
	for head < len(l.log) && t-l.log[head].t >= l.width {
		head++
	}
	gone := l.before(head)
	used := int(l.before(len(l.log)) - gone)
	if cost < 1 || cost > l.limit {
		return core.Decision{Remaining: l.limit - used}
	}
	l.last, l.head = t, head
	if over := int64(used + cost - l.limit); over > 0 {
		// It fits once the oldest entries holding over permits have left:
		// the last of them, the first whose total reaches gone + over,
		// leaves when its age reaches W. For cost 1 that is the oldest.
		kept, i := l.log[head:], 0
		if kept[0].total-gone < over {
			i = sort.Search(len(kept), func(i int) bool { return kept[i].total-gone >= over })
		}
		return core.Decision{Remaining: l.limit - used,
			RetryAfter: time.Duration(kept[i].t + l.width - now.UnixNano())}
	}
	if len(l.log) == cap(l.log) && head >= len(l.log)/2 {
		// Full, and at least half of it dropped entries: move the kept ones
		// to the front, their totals counted from there. It grows only while
		// more than half is kept (fewer than 2L), so it stays O(L) and stops
		// allocating once grown; a total, at most L for each of under 5L
		// entries, stays below 5e18, inside an int64.
		n := copy(l.log, l.log[head:])
		for i := range n {
			l.log[i].total -= gone
		}
		l.log, l.head = l.log[:n], 0
	}
	l.log = append(l.log, entry{t, l.before(len(l.log)) + int64(cost)})
	return core.Decision{Allowed: true, Remaining: l.limit - used - cost}
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
	for i := range kept {
		j := l.head + i
		kept[i] = LogEntry{At: time.Unix(0, l.log[j].t), Cost: int(l.log[j].total - l.before(j))}
	}
	return LogState{Entries: kept}
}
