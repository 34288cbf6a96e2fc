package service

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
	"github.com/ratelimit-course/ratelimit/core"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/rules"
	"github.com/ratelimit-course/ratelimit/chapters/10-service/store"
)

// nodeGuards is chapter 06's Guard per store node, made on a node's first
// call: each node has its own breaker and its own patience, so that one
// node that stops answering takes the failure mode for its own keys only,
// and the keys on the nodes that answer go on being counted. A store of one
// node (Redis, or memory behind an Outage) has one Guard.
type nodeGuards struct {
	make func() (*distributed.Guard, error)

	mu     sync.RWMutex
	byNode map[string]*distributed.Guard
}

// of is node's Guard.
func (g *nodeGuards) of(node string) (*distributed.Guard, error) {
	g.mu.RLock()
	gd := g.byNode[node]
	g.mu.RUnlock()
	if gd != nil {
		return gd, nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if gd = g.byNode[node]; gd != nil {
		return gd, nil
	}
	gd, err := g.make()
	if err != nil {
		return nil, err
	}
	g.byNode[node] = gd
	return gd, nil
}

// worst is the state of the breaker furthest from closed: open, then
// half-open, then closed.
func (g *nodeGuards) worst() distributed.BreakerState {
	g.mu.RLock()
	defer g.mu.RUnlock()
	rank := map[distributed.BreakerState]int{distributed.BreakerClosed: 0, distributed.BreakerHalfOpen: 1, distributed.BreakerOpen: 2}
	worst := distributed.BreakerClosed
	for _, gd := range g.byNode {
		if st := gd.Breaker().State(); rank[st] > rank[worst] {
			worst = st
		}
	}
	return worst
}

// newGuard is chapter 06's Guard per node in front of the store, with one
// class per failure mode: a remote store always sits behind it, and the
// in-memory store does when an Outage is given (store/outage.go). Each call names
// its rule's counter (AllowOn). timeout is one call's deadline; past it a
// call waits on while its node answers others, for as long as the node is
// not silent for StorePatience.
func (s *Service) newGuard(timeout time.Duration) (*nodeGuards, error) {
	// Fail open admits and counts the failure: a bucket far above any
	// limit, so the answer is OK (the reference's failure mode allow); the
	// per-key table stays bounded at DefaultMaxKeys.
	wide := buckets.Config{Capacity: core.MaxCount, Rate: core.MaxRate}
	g := &nodeGuards{byNode: map[string]*distributed.Guard{}, make: func() (*distributed.Guard, error) {
		return distributed.NewGuard(distributed.GuardConfig{
			Timeout:  timeout,
			Patience: s.o.StorePatience,
			Breaker:  distributed.BreakerConfig{Failures: 3, Cooldown: time.Second},
			Classes: map[string]distributed.ClassPolicy{
				string(rules.FailOpen):   distributed.OpenPolicy(wide, wide),
				string(rules.FailClosed): distributed.ClosedPolicy(),
			},
			Clock: core.NowClock(s.st.Now), // the breaker's cooldown on the store's clock
		})
	}}
	if _, err := g.make(); err != nil { // a bad setting shows at start
		return nil, err
	}
	return g, nil
}

// storeCall is one call to a rule's counter, as the Guard makes it: an
// Outage switched on fails it before it reaches the counter, as a store
// that does not answer would, and the store's health hears how it went. A
// full in-memory store answers the call (the store works: the breaker must
// not open for it), and full says so.
type storeCall struct {
	s    *Service
	c    store.Counter
	full bool // the in-memory store had no room for the key
}

func (sc *storeCall) AllowN(ctx context.Context, key string, cost int) (core.Decision, error) {
	d, err := sc.s.ask(ctx, sc.c, key, cost)
	if errors.Is(err, store.ErrFull) {
		sc.full = true
		return d, nil
	}
	sc.s.health.storeErr(err)
	return d, err
}

// errFailedOpen marks a decision the store could not make in a fail-open domain.
var errFailedOpen = errors.New("store unavailable, failed open")

// count asks the rule's counter (cost 0: Peek), through the Guard of the
// node that holds key for a remote store, and records the store's latency
// and failures.
func (s *Service) count(ctx context.Context, c store.Counter, d *rules.Domain, key string, cost int) (core.Decision, error) {
	mode := s.failureModeOf(d)
	if s.guard == nil {
		dec, err := s.ask(ctx, c, key, cost)
		if errors.Is(err, store.ErrFull) {
			return dec, s.full(d, mode)
		}
		return dec, err
	}
	node := store.NodeOf(ctx, s.st, c, key)
	g, err := s.guard.of(node)
	if err != nil {
		return core.Decision{}, err
	}
	select { // a place in front of the store: the wait here is not the store's
	case s.slots <- struct{}{}:
	case <-ctx.Done():
		return core.Decision{}, ctx.Err()
	}
	start := time.Now()
	call := &storeCall{s: s, c: c}
	out, err := g.AllowOn(ctx, call, string(mode), key, cost)
	<-s.slots
	s.m.storeTime.Observe(time.Since(start).Seconds())
	switch {
	case errors.Is(err, distributed.ErrUnavailable):
		s.failed(d, node, mode, err)
		return core.Decision{}, err
	case err != nil:
		return core.Decision{}, err
	case out.Source == distributed.SourceLocal:
		s.failed(d, node, mode, errFailedOpen)
		return core.Decision{}, errFailedOpen
	case call.full:
		return core.Decision{}, s.full(d, mode)
	}
	s.health.ok(d.Name(), node)
	return out.Decision, nil
}

// full answers a new key the in-memory store has no room for (--max-keys)
// by the domain's failure mode, as an outage is answered: errFailedOpen for
// open, ErrUnavailable (503) for closed; a full store is never taken for
// the client's own limit (OVER_LIMIT).
func (s *Service) full(d *rules.Domain, mode rules.FailureMode) error {
	s.m.storeFull.WithLabelValues(d.Name(), string(mode)).Inc()
	if mode == rules.FailOpen {
		return errFailedOpen
	}
	return fmt.Errorf("%w: %w", ErrUnavailable, store.ErrFull)
}

// failed counts a decision the store (its node) could not make.
func (s *Service) failed(d *rules.Domain, node string, mode rules.FailureMode, err error) {
	s.m.storeErrs.Inc()
	s.m.failures.WithLabelValues(d.Name(), string(mode)).Inc()
	s.health.failed(d.Name(), node, mode, err)
}

// ask decides cost on c, or with cost 0 reads what the key has left, and
// counts the call.
func (s *Service) ask(ctx context.Context, c store.Counter, key string, cost int) (core.Decision, error) {
	s.m.storeCalls.Inc()
	if cost == 0 {
		return c.Peek(ctx, key)
	}
	return c.AllowN(ctx, key, cost)
}
