package overload

import (
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// Load is a steady stream of requests to one dependency: Rate arrivals per
// second, evenly spaced from time zero (core.Epoch) for Span, each of which
// takes Latency once admitted. At most 1e9 arrivals (Rate × Span).
type Load struct {
	Rate    int // arrivals per second, 1 to 1e9
	Latency time.Duration
	Span    time.Duration
}

// Gate is what stands in front of the dependency: Admit decides the arrival at
// now, and Done is told when an admitted request completes. A rate limit
// ignores Done; a concurrency limit releases its slot there.
type Gate struct {
	Admit func(now time.Time) bool
	Done  func()
}

// Served is what a Load did through a Gate.
type Served struct {
	Arrived  int // requests offered
	Admitted int // requests the gate let through
	Peak     int // the most requests in flight at once
}

// Serve runs the Load through the Gate with explicit time, in arrival order:
// before each arrival every request whose latency has passed completes (Done),
// then the gate decides. Every request takes the same Latency, so they
// complete in the order they were admitted and a slice is the event queue.
func Serve(g Gate, l Load) (Served, error) {
	if err := core.CheckCount("rate", l.Rate); err != nil {
		return Served{}, err
	}
	if l.Latency < 0 || l.Span < 0 || l.Latency > core.MaxWindow {
		return Served{}, core.BadParam("latency and span", []time.Duration{l.Latency, l.Span}, "durations from 0 to 1e18ns")
	}
	if float64(l.Rate)*l.Span.Seconds() > 1e9 {
		return Served{}, core.BadParam("span", l.Span, "at most 1e9 arrivals (rate × span)")
	}
	var s Served
	var ends []time.Time // completion times of the requests in flight, earliest first
	for i := int64(0); ; i++ {
		at := time.Duration(i * int64(time.Second) / int64(l.Rate))
		if at >= l.Span {
			return s, nil
		}
		now := core.Epoch.Add(at)
		for len(ends) > 0 && !ends[0].After(now) {
			ends = ends[1:]
			g.Done()
		}
		s.Arrived++
		if g.Admit(now) {
			s.Admitted++
			ends = append(ends, now.Add(l.Latency))
			s.Peak = max(s.Peak, len(ends))
		}
	}
}
