package store

import (
	"context"
	"errors"
	"sync/atomic"

	"github.com/ratelimit-course/ratelimit/core"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/rules"
)

// Outage is a switch that takes a store down, so that a learner (or a
// test) can watch each domain's failure mode answer without stopping a
// Redis. Wrap a store in it and give that in the service's Options.Store: the store then
// sits behind chapter 06's Guard as Redis does, and while the outage is on
// every call to it fails with ErrDown. The Guard's breaker counts the
// failures, opens after three, and lets a probe through one second (on
// the wrapped store's clock) later; the store is back for good once a probe succeeds. The
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

// AllowN fails with ErrDown while the outage is on.
func (c outageCounter) AllowN(ctx context.Context, key string, cost int) (core.Decision, error) {
	if c.o.Down() {
		return core.Decision{}, ErrDown
	}
	return c.Counter.AllowN(ctx, key, cost)
}

// Peek fails with ErrDown while the outage is on.
func (c outageCounter) Peek(ctx context.Context, key string) (core.Decision, error) {
	if c.o.Down() {
		return core.Decision{}, ErrDown
	}
	return c.Counter.Peek(ctx, key)
}

// ErrDown is what a store call returns while the outage is on.
var ErrDown = errors.New("the store is down (an Outage is switched on)")

// OutageOf is the switch st is behind, or nil when it is behind none.
func OutageOf(st Store) *Outage {
	if o, ok := st.(*outageStore); ok {
		return o.o
	}
	return nil
}
