package core

import (
	"sync"
	"sync/atomic"
	"time"
)

// Keyed runs one Algorithm per key and is safe for concurrent use. Each key's
// state is created on first sight by the factory given to NewKeyed.
//
// Every key has an entry with its own mutex, and the entries sit in a
// sync.Map, whose lookup of a key already there takes no lock. So a decision
// for an existing key locks that key alone and allocates nothing, and two
// goroutines wait for each other only when they decide for the same key:
// no lock is shared by keys, not even a shard's.
type Keyed[A Algorithm] struct {
	newState func() A
	keys     sync.Map     // string → *entry[A]
	held     atomic.Int64 // how many keys hold state (Len)
}

type entry[A Algorithm] struct {
	mu    sync.Mutex
	a     A
	swept bool // dropped by Sweep: a decision that finds it looks the key up again
}

// NewKeyed returns a keyed limiter whose per-key state comes from newState.
// The factory must not fail: validate the configuration before calling this.
func NewKeyed[A Algorithm](newState func() A) *Keyed[A] {
	return &Keyed[A]{newState: newState}
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
	e := k.lock(key)
	if cost < 1 || cost > e.a.MaxCost() {
		e.mu.Unlock()
		return Decision{}, CheckCost(cost, e.a.MaxCost())
	}
	d := e.a.AllowN(now, cost)
	e.mu.Unlock()
	return d, nil
}

// Allow decides a request of cost 1, which every valid configuration
// accepts; a now outside the domain is a zero Decision (not allowed).
func (k *Keyed[A]) Allow(key string, now time.Time) Decision {
	if t := now.Unix(); t < 0 || t >= endUnix {
		return Decision{}
	}
	e := k.lock(key)
	d := e.a.AllowN(now, 1)
	e.mu.Unlock()
	return d
}

// lock returns key's entry, created on first sight, with its mutex held.
// An entry Sweep has dropped is out of the map by the time its mutex is
// free, so looking again finds the key's new entry or makes one.
func (k *Keyed[A]) lock(key string) *entry[A] {
	for {
		v, ok := k.keys.Load(key)
		if !ok {
			if v, ok = k.keys.LoadOrStore(key, &entry[A]{a: k.newState()}); !ok {
				k.held.Add(1)
			}
		}
		e := v.(*entry[A])
		e.mu.Lock()
		if !e.swept {
			return e
		}
		e.mu.Unlock()
	}
}

// Sweep drops every key whose state is idle at now (see Idler) and reports
// how many it dropped. Without it a limiter keyed by something a client
// chooses (an IP, an API key) keeps one state per key it has ever seen, so a
// caller runs Sweep periodically, e.g. once per window. Dropping is lossless
// for requests stamped at or after now, and the memory goes back (sync.Map
// frees the nodes a deletion empties). Sweep locks one key at a time, so
// decisions on other keys go on meanwhile; an Algorithm that does not
// implement Idler is never dropped.
func (k *Keyed[A]) Sweep(now time.Time) int {
	dropped := 0
	k.keys.Range(func(key, v any) bool {
		e := v.(*entry[A])
		e.mu.Lock()
		if idler, ok := any(e.a).(Idler); ok && !e.swept && idler.Idle(now) {
			e.swept = true
			k.keys.CompareAndDelete(key, e)
			k.held.Add(-1)
			dropped++
		}
		e.mu.Unlock()
		return true
	})
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
