//go:build !exercise09

package overload

import (
	"sync"

	"github.com/ratelimit-course/ratelimit/core"
)

// InFlight is a concurrency limit of N: a request is admitted iff fewer than
// N requests are in progress, and it holds its slot until Release. It needs no
// clock: slots come back as fast as the work finishes, so the rate it admits
// follows the latency by itself (Little's law: in flight = rate × latency).
// Safe for concurrent use.
type InFlight struct {
	mu       sync.Mutex
	limit    int
	inFlight int
}

// NewInFlight returns a concurrency limit of limit (1 to 1e9) with nothing in
// flight, or a *core.ParamError naming "limit".
func NewInFlight(limit int) (*InFlight, error) {
	if err := core.CheckCount("limit", limit); err != nil {
		return nil, err
	}
	return &InFlight{limit: limit}, nil
}

// Acquire admits a request iff a slot is free and takes it. Remaining is the
// free slots left. A rejection carries no RetryAfter: when a slot frees
// depends on the work in progress, not on a clock, so the caller's 503 says
// how long to wait (see Reject).
func (l *InFlight) Acquire() core.Decision {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.inFlight >= l.limit {
		return core.Decision{}
	}
	l.inFlight++
	return core.Decision{Allowed: true, Remaining: l.limit - l.inFlight}
}

// Release gives back the slot of a request that has finished (or failed, or
// timed out: every admitted Acquire needs exactly one Release).
func (l *InFlight) Release() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.inFlight == 0 {
		return ErrNotHeld
	}
	l.inFlight--
	return nil
}

// SetLimit moves N, as an adaptive limit does (adaptive.go). Requests already
// in flight keep their slots; a lower N only stops new admissions until
// enough of them finish.
func (l *InFlight) SetLimit(limit int) error {
	if err := core.CheckCount("limit", limit); err != nil {
		return err
	}
	l.mu.Lock()
	l.limit = limit
	l.mu.Unlock()
	return nil
}

// InFlight reports how many requests hold a slot.
func (l *InFlight) InFlight() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.inFlight
}
