package overload

import (
	"sync"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// tally counts two quantities over the last window, in ten slots of a tenth
// of it each; a slot is dropped whole once it is older than the window.
type tally struct {
	slot  time.Duration
	slots [10]struct {
		id   int64
		a, b int
	}
}

func (t *tally) add(now time.Time, a, b int) {
	id := now.UnixNano() / int64(t.slot)
	s := &t.slots[uint64(id)%10] // never a negative index, even for an instant before 1970
	if s.id != id {
		s.id, s.a, s.b = id, 0, 0
	}
	s.a, s.b = s.a+a, s.b+b
}

func (t *tally) sum(now time.Time) (a, b int) {
	id := now.UnixNano() / int64(t.slot)
	for _, s := range t.slots {
		if s.id <= id && id-s.id < 10 {
			a, b = a+s.a, b+s.b
		}
	}
	return a, b
}

// Throttle is the client-side adaptive throttle of Google's SRE book: over
// the last Window a client counts the requests it attempted and the ones the
// backend accepted, and rejects a new request locally, without sending it,
// with probability max(0, (requests − K·accepts) / (requests + 1)). While the
// backend accepts more than 1/K of the requests nothing is dropped; beyond
// that the client sends about K times what is accepted. Safe for concurrent use.
type Throttle struct {
	mu sync.Mutex
	k  float64
	t  tally // a: requests attempted, b: accepted
}

// NewThrottle returns a throttle with multiplier k (1 to 10; 2 is the book's
// usual choice) over a window of at least 10 ns.
func NewThrottle(k float64, window time.Duration) (*Throttle, error) {
	if !(k >= 1 && k <= 10) {
		return nil, core.BadParam("k", k, "a number from 1 to 10")
	}
	if err := core.CheckWindow("window", window); err != nil || window < 10 {
		return nil, core.BadParam("window", window, "a duration from 10ns to 1e18ns")
	}
	return &Throttle{k: k, t: tally{slot: window / 10}}, nil
}

// P is the probability that a new request at now is rejected locally.
func (t *Throttle) P(now time.Time) float64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	requests, accepts := t.t.sum(now)
	return max(0, (float64(requests)-t.k*float64(accepts))/float64(requests+1))
}

// Allow counts a request the client's code attempts at now and reports
// whether to send it: false when draw, uniform in [0, 1) and supplied by the
// caller, is below P. A request dropped locally still counts as attempted.
func (t *Throttle) Allow(now time.Time, draw float64) bool {
	p := t.P(now)
	t.mu.Lock()
	t.t.add(now, 1, 0)
	t.mu.Unlock()
	return draw >= p
}

// Accepted counts a response at now that the backend accepted (any answer
// that is not a rejection for overload or quota).
func (t *Throttle) Accepted(now time.Time) {
	t.mu.Lock()
	t.t.add(now, 0, 1)
	t.mu.Unlock()
}
