package core

import (
	"hash/maphash"
	"sync"
	"sync/atomic"
	"time"
)

// Keyed runs one Algorithm per key and is safe for concurrent use. Each key's
// state is created on first sight by the factory given to NewKeyed.
//
// The keys are spread by a hash over shards, each a plain Go map behind its
// own mutex, and a decision takes its key's shard lock for the lookup and the
// decision both: one lock, one map lookup, no allocation. Two goroutines wait
// for each other only when their keys share a shard, one chance in
// shardCount for two different keys. The hash (hash/maphash) has a random
// seed per Keyed, so a client cannot choose keys that all land on one lock.
type Keyed[A Algorithm] struct {
	newState func() A
	seed     maphash.Seed
	shards   [shardCount]shard[A]
	held     atomic.Int64 // how many keys hold state (Len)
}

// shardCount is a power of two, so that the hash picks a shard with a mask.
const shardCount = 64

type shard[A Algorithm] struct {
	mu   sync.Mutex
	keys map[string]A
	peak int       // the most keys the map has held since it was made
	_    [104]byte // 128 bytes a shard: no two shards' locks on one cache line
}

// NewKeyed returns a keyed limiter whose per-key state comes from newState.
// The factory must not fail: validate the configuration before calling this.
func NewKeyed[A Algorithm](newState func() A) *Keyed[A] {
	k := &Keyed[A]{newState: newState, seed: maphash.MakeSeed()}
	for i := range k.shards {
		k.shards[i].keys = map[string]A{}
	}
	return k
}

// endUnix is End in whole seconds: now is in the domain iff 0 <= now.Unix()
// < endUnix (Unix rounds down), one comparison cheaper than two Befores.
var endUnix = End.Unix()

// AllowN decides a request of the given cost for key at now. A cost outside
// [1, MaxCost] or a now outside the domain (CheckTime) is an error (a
// *ParamError), never a decision.
func (k *Keyed[A]) AllowN(key string, now time.Time, cost int) (Decision, error) {
	if t := now.Unix(); t < 0 || t >= endUnix {
		return Decision{}, CheckTime(now)
	}
	s := k.shard(key)
	s.mu.Lock()
	a := k.get(s, key)
	if cost < 1 || cost > a.MaxCost() {
		s.mu.Unlock()
		return Decision{}, CheckCost(cost, a.MaxCost())
	}
	d := a.AllowN(now, cost)
	s.mu.Unlock()
	return d, nil
}

// Peek reports what key has left at now without deciding a request: every
// Algorithm answers a cost of 0 from its state as it stands and changes
// nothing (see Algorithm). A key never seen is not created: it has all of a
// fresh state's room. It is the check that Envoy's rate limit protocol asks
// for with a descriptor's hits_addend of 0 (chapter 10).
func (k *Keyed[A]) Peek(key string, now time.Time) (Decision, error) {
	if t := now.Unix(); t < 0 || t >= endUnix {
		return Decision{}, CheckTime(now)
	}
	s := k.shard(key)
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.keys[key]
	if !ok {
		return Decision{Allowed: true, Remaining: k.newState().MaxCost()}, nil
	}
	d := a.AllowN(now, 0)
	d.Allowed, d.RetryAfter = true, 0
	return d, nil
}

// Holds reports whether key has state now (a key swept idle has none).
func (k *Keyed[A]) Holds(key string) bool {
	s := k.shard(key)
	s.mu.Lock()
	_, ok := s.keys[key]
	s.mu.Unlock()
	return ok
}

// Allow decides a request of cost 1, which every valid configuration
// accepts; a now outside the domain is a zero Decision (not allowed).
func (k *Keyed[A]) Allow(key string, now time.Time) Decision {
	if t := now.Unix(); t < 0 || t >= endUnix {
		return Decision{}
	}
	s := k.shard(key)
	s.mu.Lock()
	d := k.get(s, key).AllowN(now, 1)
	s.mu.Unlock()
	return d
}

func (k *Keyed[A]) shard(key string) *shard[A] {
	return &k.shards[maphash.String(k.seed, key)&(shardCount-1)]
}

// get returns key's state in s, created on first sight; s.mu is held.
func (k *Keyed[A]) get(s *shard[A], key string) A {
	a, ok := s.keys[key]
	if !ok {
		a = k.newState()
		s.keys[key] = a
		s.peak = max(s.peak, len(s.keys))
		k.held.Add(1)
	}
	return a
}

// Sweep drops every key whose state is idle at now (see Idler) and reports
// how many it dropped. Without it a limiter keyed by something a client
// chooses (an IP, an API key) keeps one state per key it has ever seen, so a
// caller runs Sweep periodically, e.g. once per window. Dropping is lossless
// for requests stamped at or after now. A Go map keeps the room it grew to,
// so a shard left with under a quarter of its peak is copied into a map of
// its size, and the memory goes back. Sweep holds one shard's lock at a
// time, so decisions on the other shards' keys go on meanwhile; an
// Algorithm that does not implement Idler is never dropped.
func (k *Keyed[A]) Sweep(now time.Time) int {
	dropped := 0
	for i := range k.shards {
		s := &k.shards[i]
		s.mu.Lock()
		for key, a := range s.keys {
			if idler, ok := any(a).(Idler); ok && idler.Idle(now) {
				delete(s.keys, key)
				dropped++
			}
		}
		if len(s.keys) < s.peak/4 {
			kept := make(map[string]A, len(s.keys))
			for key, a := range s.keys {
				kept[key] = a
			}
			s.keys, s.peak = kept, len(kept)
		}
		s.mu.Unlock()
	}
	k.held.Add(int64(-dropped))
	return dropped
}

// Len reports how many keys hold state.
func (k *Keyed[A]) Len() int { return int(k.held.Load()) }

// KeyedFrom validates c by building one state with build and returns a Keyed
// whose every new key's state is built the same way, or build's error. It is
// how each chapter turns its one-key constructor into a limiter for many
// keys: KeyedFrom(c, NewTokenBucket).
func KeyedFrom[A Algorithm, C any](c C, build func(C) (A, error)) (*Keyed[A], error) {
	if _, err := build(c); err != nil {
		return nil, err
	}
	return NewKeyed(func() A { a, _ := build(c); return a }), nil
}
