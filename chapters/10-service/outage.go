package service

import (
	"errors"
	"sync/atomic"
	"time"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/rules"
)

// Outage is a switch that takes the store down, so that a learner (or a
// test) can watch each domain's failure mode answer without stopping a
// Redis. Give it in Options.Outage: the in-memory store then sits behind
// chapter 06's Guard as Redis does, and while the outage is on every call
// to the store fails. The Guard's breaker counts the failures, opens after
// three, and lets a probe through one second (on Options.Now) later; the
// store is back for good once a probe succeeds. A nil *Outage is never down.
type Outage struct{ down atomic.Bool }

// Set switches the outage on (down) or off.
func (o *Outage) Set(down bool) { o.down.Store(down) }

// Down reports whether the store is down.
func (o *Outage) Down() bool { return o != nil && o.down.Load() }

// outageDeadline is the in-memory store's deadline behind the Guard.
const outageDeadline = 5 * time.Second

// ErrStoreDown is what a store call returns while the outage is on.
var ErrStoreDown = errors.New("the store is down (an Outage is switched on)")

// guardOutage puts the in-memory store behind the Guard when an Outage is
// given; without one, the in-memory store is called directly.
func (s *Service) guardOutage() error {
	if s.o.Outage == nil {
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
