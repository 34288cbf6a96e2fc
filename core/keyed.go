package core

import (
	"sync"
	"time"
)

// shardCount spreads keys over independent locks so that two keys rarely
// contend and no lock is global. A power of two keeps the modulo a mask.
const shardCount = 64

// Keyed runs one Algorithm per key and is safe for concurrent use. Each key's
// state is created on first sight by the factory given to NewKeyed.
//
// Keys hash onto shardCount shards, each with its own mutex and map: a
// decision for an existing key takes one shard lock and allocates nothing.
type Keyed[A Algorithm] struct {
	newState func() A
	shards   [shardCount]shard[A]
}

type shard[A Algorithm] struct {
	mu sync.Mutex
	m  map[string]A
	_  [40]byte // keep neighbouring shards' locks off one cache line
}

// NewKeyed returns a keyed limiter whose per-key state comes from newState.
// The factory must not fail: validate the configuration before calling this.
func NewKeyed[A Algorithm](newState func() A) *Keyed[A] {
	k := &Keyed[A]{newState: newState}
	for i := range k.shards {
		k.shards[i].m = make(map[string]A)
	}
	return k
}

// AllowN decides a request of the given cost for key at now. A cost outside
// [1, MaxCost] or a now outside the domain (CheckTime) is an error (a
// *ParamError), never a decision.
func (k *Keyed[A]) AllowN(key string, now time.Time, cost int) (Decision, error) {
	if now.Before(Epoch) || !now.Before(End) {
		return Decision{}, CheckTime(now)
	}
	s := &k.shards[fnv32(key)&(shardCount-1)]
	s.mu.Lock()
	a, ok := s.m[key]
	if !ok {
		a = k.newState()
		s.m[key] = a
	}
	if cost < 1 || cost > a.MaxCost() {
		s.mu.Unlock()
		return Decision{}, CheckCost(cost, a.MaxCost())
	}
	d := a.AllowN(now, cost)
	s.mu.Unlock()
	return d, nil
}

// Allow decides a request of cost 1, which every valid configuration accepts.
func (k *Keyed[A]) Allow(key string, now time.Time) Decision {
	d, _ := k.AllowN(key, now, 1)
	return d
}

// Sweep drops every key whose state is idle at now (see Idler) and reports
// how many it dropped. Without it a limiter keyed by something a client
// chooses (an IP, an API key) keeps one state per key it has ever seen, so a
// caller runs Sweep periodically, e.g. once per window. Dropping is lossless
// for requests stamped at or after now. Sweep takes one shard lock at a time,
// so decisions on other shards go on meanwhile; an Algorithm that does not
// implement Idler is never dropped.
func (k *Keyed[A]) Sweep(now time.Time) int {
	dropped := 0
	for i := range k.shards {
		s := &k.shards[i]
		s.mu.Lock()
		for key, a := range s.m {
			if idler, ok := any(a).(Idler); ok && idler.Idle(now) {
				delete(s.m, key)
				dropped++
			}
		}
		s.mu.Unlock()
	}
	return dropped
}

// Len reports how many keys hold state.
func (k *Keyed[A]) Len() int {
	n := 0
	for i := range k.shards {
		s := &k.shards[i]
		s.mu.Lock()
		n += len(s.m)
		s.mu.Unlock()
	}
	return n
}

// fnv32 is FNV-1a, inlined so that hashing a key allocates nothing.
func fnv32(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}
