package service

import (
	"context"
	"errors"
	"time"

	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
	"github.com/ratelimit-course/ratelimit/core"
)

// newGuard is chapter 06's Guard in front of the store, with one class per
// failure mode: a remote store always sits behind it, and the in-memory
// store does when an Outage is given (outage.go). Each call names its
// rule's counter (AllowOn). timeout is one call's deadline; past it a call
// waits on while the store answers others, for as long as the store is not
// silent for StorePatience.
func (s *Service) newGuard(timeout time.Duration) (*distributed.Guard, error) {
	// Fail open admits and counts the failure: a bucket far above any
	// limit, so the answer is OK (the reference's failure mode allow); the
	// per-key table stays bounded at DefaultMaxKeys.
	wide := buckets.Config{Capacity: core.MaxCount, Rate: core.MaxRate}
	return distributed.NewGuard(distributed.GuardConfig{
		Timeout:  timeout,
		Patience: s.o.StorePatience,
		Breaker:  distributed.BreakerConfig{Failures: 3, Cooldown: time.Second},
		Classes: map[string]distributed.ClassPolicy{
			string(FailOpen):   distributed.OpenPolicy(wide, wide),
			string(FailClosed): distributed.ClosedPolicy(),
		},
		Now: s.o.Now, // the breaker's cooldown on the service's clock
	})
}

// storeCall is one call to a rule's counter, as the Guard makes it: an
// Outage switched on fails it before it reaches the counter, as a store
// that does not answer would, and the store's health hears how it went.
type storeCall struct {
	s *Service
	c counter
}

func (sc storeCall) AllowN(ctx context.Context, key string, cost int) (core.Decision, error) {
	if sc.s.o.Outage.Down() {
		return core.Decision{}, ErrStoreDown
	}
	d, err := sc.s.ask(ctx, sc.c, key, cost)
	sc.s.health.storeErr(err)
	return d, err
}

// errFailedOpen marks a decision the store could not make in a fail-open domain.
var errFailedOpen = errors.New("store unavailable, failed open")

// count asks the rule's counter (cost 0: Peek), through the Guard for a
// remote store, and records the store's latency and failures. The memory
// store's errStoreFull (no room for a new key) is answered by the domain's
// failure mode: errFailedOpen for open, errStoreFull itself for closed.
func (s *Service) count(ctx context.Context, c counter, d *domainRules, key string, cost int) (core.Decision, error) {
	mode := s.failureModeOf(d)
	if s.guard == nil {
		dec, err := s.ask(ctx, c, key, cost)
		if errors.Is(err, errStoreFull) {
			s.m.storeFull.WithLabelValues(d.name, string(mode)).Inc()
			if mode == FailOpen {
				return dec, errFailedOpen
			}
		}
		return dec, err
	}
	select { // a place in front of the store: the wait here is not the store's
	case s.slots <- struct{}{}:
	case <-ctx.Done():
		return core.Decision{}, ctx.Err()
	}
	start := time.Now()
	out, err := s.guard.AllowOn(ctx, storeCall{s: s, c: c}, string(mode), key, cost)
	<-s.slots
	s.m.storeTime.Observe(time.Since(start).Seconds())
	switch {
	case errors.Is(err, distributed.ErrUnavailable):
		s.failed(d, mode, err)
		return core.Decision{}, err
	case err != nil:
		return core.Decision{}, err
	case out.Source == distributed.SourceLocal:
		s.failed(d, mode, errFailedOpen)
		return core.Decision{}, errFailedOpen
	}
	s.health.ok(d.name)
	return out.Decision, nil
}

// failed counts a decision the store could not make.
func (s *Service) failed(d *domainRules, mode FailureMode, err error) {
	s.m.storeErrs.Inc()
	s.m.failures.WithLabelValues(d.name, string(mode)).Inc()
	s.health.failed(d.name, mode, err)
}

// ask decides cost on c, or with cost 0 reads what the key has left, and
// counts the call.
func (s *Service) ask(ctx context.Context, c counter, key string, cost int) (core.Decision, error) {
	s.m.storeCalls.Inc()
	if cost == 0 {
		return c.Peek(ctx, key)
	}
	return c.AllowN(ctx, key, cost)
}
