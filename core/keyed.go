package core

import (
	"hash/maphash"
	"sync"
	"time"
)

// shardCount spreads keys over independent locks so that two keys rarely
// contend and no lock is global. A power of two keeps the modulo a mask.
const shardCount = 64

// shrinkRatio: a shard whose map has fallen to a quarter of the most keys it
// has held since it was built is rebuilt at the end of Sweep. A Go map never
// gives back the room it grew to, so without this a limiter that once saw a
// million keys would hold their room after sweeping them all.
const shrinkRatio = 4

// Keyed runs one Algorithm per key and is safe for concurrent use. Each key's
// state is created on first sight by the factory given to NewKeyed.
//
// Keys hash onto shardCount shards, each with its own mutex and map: a
// decision for an existing key takes one shard lock and allocates nothing.
// The hash (hash/maphash) costs the same for a 40-byte IPv6 address as for
// a short name, and its seed is random per Keyed, so a client cannot choose
// keys that all land on one lock.
type Keyed[A Algorithm] struct {
	newState func() A
	seed     maphash.Seed
	shards   [shardCount]shard[A]
}

type shard[A Algorithm] struct {
	mu   sync.Mutex
	m    map[string]A
	peak int      // the most keys m has held since it was made
	_    [40]byte // keep neighbouring shards' locks off one cache line
}

// NewKeyed returns a keyed limiter whose per-key state comes from newState.
// The factory must not fail: validate the configuration before calling this.
func NewKeyed[A Algorithm](newState func() A) *Keyed[A] {
	k := &Keyed[A]{newState: newState, seed: maphash.MakeSeed()}
	for i := range k.shards {
		k.shards[i].m = make(map[string]A)
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
	a := s.get(key, k.newState)
	if cost < 1 || cost > a.MaxCost() {
		s.mu.Unlock()
		return Decision{}, CheckCost(cost, a.MaxCost())
	}
	d := a.AllowN(now, cost)
	s.mu.Unlock()
	return d, nil
}

// Allow decides a request of cost 1, which every valid configuration
// accepts; a now outside the domain is a zero Decision (not allowed).
func (k *Keyed[A]) Allow(key string, now time.Time) Decision {
	if t := now.Unix(); t < 0 || t >= endUnix {
		return Decision{}
	}
	s := k.shard(key)
	s.mu.Lock()
	d := s.get(key, k.newState).AllowN(now, 1)
	s.mu.Unlock()
	return d
}

func (k *Keyed[A]) shard(key string) *shard[A] {
	return &k.shards[maphash.String(k.seed, key)&(shardCount-1)]
}

// get returns key's state, creating it on first sight. s.mu is held.
func (s *shard[A]) get(key string, newState func() A) A {
	a, ok := s.m[key]
	if !ok {
		a = newState()
		s.m[key] = a
		s.peak = max(s.peak, len(s.m))
	}
	return a
}

// Sweep drops every key whose state is idle at now (see Idler) and reports
// how many it dropped. Without it a limiter keyed by something a client
// chooses (an IP, an API key) keeps one state per key it has ever seen, so a
// caller runs Sweep periodically, e.g. once per window. Dropping is lossless
// for requests stamped at or after now. Sweep takes one shard lock at a time,
// so decisions on other shards go on meanwhile; an Algorithm that does not
// implement Idler is never dropped. A shard left with under a quarter of the
// keys it once held is copied into a map of its present size, so that the
// memory of swept keys is given back.
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
		if len(s.m) < s.peak/shrinkRatio {
			m := make(map[string]A, len(s.m))
			for key, a := range s.m {
				m[key] = a
			}
			s.m, s.peak = m, len(m)
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
