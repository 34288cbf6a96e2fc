package service

import (
	"time"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/rules"
	"github.com/ratelimit-course/ratelimit/chapters/10-service/store"
)

// outageDeadline is the in-memory store's deadline behind the Guard.
const outageDeadline = 5 * time.Second

// guardOutage puts a store behind an Outage switch behind the Guard; the
// in-memory store without one is called directly.
func (s *Service) guardOutage() error {
	if store.OutageOf(s.st) == nil {
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
