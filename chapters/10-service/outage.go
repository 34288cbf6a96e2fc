package service

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/ratelimit-course/ratelimit/core"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/rules"
)

// Outage is a switch that takes a store down, so that a learner (or a
// test) can watch each domain's failure mode answer without stopping a
// Redis. Wrap a store in it and give that in Options.Store: the store then
// sits behind chapter 06's Guard as Redis does, and while the outage is on
// every call to it fails with ErrStoreDown. The Guard's breaker counts the
// failures, opens after three, and lets a probe through one second (on
// Options.Now) later; the store is back for good once a probe succeeds. The
// zero Outage is up; a nil *Outage is never down.
type Outage struct{ down atomic.Bool }

// Set switches the outage on (down) or off.
func (o *Outage) Set(down bool) { o.down.Store(down) }

// Down reports whether the store is down.
func (o *Outage) Down() bool { return o != nil && o.down.Load() }

// Wrap is st behind the switch: its counters fail while the outage is on.
// One switch may wrap the store of each service started in turn (the
// terminal app starts a new one when the learner loads other rules).
func (o *Outage) Wrap(st Store) Store { return &outageStore{Store: st, o: o} }

// outageStore is a store behind an Outage switch.
type outageStore struct {
	Store
	o *Outage
}

// Counter is the rule's counter behind the switch.
func (s *outageStore) Counter(r *rules.Rule) (Counter, error) {
	c, err := s.Store.Counter(r)
	if err != nil {
		return nil, err
	}
	return outageCounter{Counter: c, o: s.o}, nil
}

// outageCounter is a counter that fails while its switch is on.
type outageCounter struct {
	Counter
	o *Outage
}

// AllowN fails with ErrStoreDown while the outage is on.
func (c outageCounter) AllowN(ctx context.Context, key string, cost int) (core.Decision, error) {
	if c.o.Down() {
		return core.Decision{}, ErrStoreDown
	}
	return c.Counter.AllowN(ctx, key, cost)
}

// Peek fails with ErrStoreDown while the outage is on.
func (c outageCounter) Peek(ctx context.Context, key string) (core.Decision, error) {
	if c.o.Down() {
		return core.Decision{}, ErrStoreDown
	}
	return c.Counter.Peek(ctx, key)
}

// outageDeadline is the in-memory store's deadline behind the Guard.
const outageDeadline = 5 * time.Second

// ErrStoreDown is what a store call returns while the outage is on.
var ErrStoreDown = errors.New("the store is down (an Outage is switched on)")

// guardOutage puts a store behind an Outage switch behind the Guard; the
// in-memory store without one is called directly.
func (s *Service) guardOutage() error {
	if _, ok := s.st.(*outageStore); !ok {
		return nil
	}
	// An in-memory count takes microseconds: the deadline is only there
	// because the Guard has one, and is long so that a loaded machine
	// (the race detector, two cores) never trips the breaker by itself.
	g, err := s.newGuard(max(s.o.StoreTimeout, outageDeadline))
	if err != nil {
		return err
	}
	s.guard = g
	return nil
}

// Breaker is the state of the Guard's breaker in front of the store:
// "closed" (calls go to the store), "open" (the failure mode answers without
// asking it) or "half-open" (one probe is out); "" when the store is called
// directly (in memory without an Outage). On a store of several nodes it is
// the state of the node furthest from closed.
func (s *Service) Breaker() string {
	if s.guard == nil {
		return ""
	}
	return s.guard.worst().String()
}

// FailureMode is what domain answers while the store is down: FailOpen or
// FailClosed (the service's default for a domain that sets none, or for a
// domain the rules do not name).
func (s *Service) FailureMode(domain string) rules.FailureMode {
	return s.failureModeOf(s.cur.Load().rules.Domain(domain))
}

// failureModeOf is the failure mode of d (nil: a domain without rules).
func (s *Service) failureModeOf(d *rules.Domain) rules.FailureMode {
	if d != nil && d.FailureMode() != "" {
		return d.FailureMode()
	}
	return s.o.FailureMode
}
