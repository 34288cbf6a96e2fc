package distributed

import (
	"container/list"
	"sync"
	"time"

	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
	"github.com/ratelimit-course/ratelimit/core"
)

// DefaultMaxKeys is how many keys' fallback buckets one class keeps on one
// node when ClassPolicy.MaxKeys is 0: about 2 MB at most.
const DefaultMaxKeys = 10_000

// fallback is one endpoint class's local limit on one node during an outage:
// a token bucket per key, at most maxKeys of them, and one bucket for the
// whole class that every admission spends from too.
//
// The key that went unused longest is dropped when a new one arrives at a
// full table, so memory stays bounded however many keys a client invents; a
// dropped key comes back with a full bucket, as a key never seen. The class
// bucket is what makes that safe: over an outage of length D the node admits
// at most Node.Capacity + Node.Rate × D requests of the class, whatever the
// keys, and each key at most its own bucket's C + R × D while it stays in
// the table.
type fallback struct {
	mu      sync.Mutex
	fresh   buckets.TokenBucket // a full per-key bucket, copied for each new key
	class   *buckets.TokenBucket
	maxKeys int
	keys    map[string]*list.Element // of *keyBucket
	lru     list.List                // most recently used first
}

type keyBucket struct {
	key string
	b   buckets.TokenBucket
}

func newFallback(perKey, node buckets.Config, maxKeys int) (*fallback, error) {
	fresh, err := buckets.NewTokenBucket(perKey)
	if err != nil {
		return nil, err
	}
	class, err := buckets.NewTokenBucket(node)
	if err != nil {
		return nil, err
	}
	return &fallback{fresh: *fresh, class: class, maxKeys: maxKeys, keys: map[string]*list.Element{}}, nil
}

// AllowN admits a request of cost for key at now iff both the key's bucket
// and the class bucket hold cost tokens; then both spend them.
func (f *fallback) AllowN(key string, now time.Time, cost int) (core.Decision, error) {
	if err := core.CheckTime(now); err != nil {
		return core.Decision{}, err
	}
	if err := core.CheckCost(cost, f.fresh.MaxCost()); err != nil {
		return core.Decision{}, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	e, ok := f.keys[key]
	switch {
	case ok:
		f.lru.MoveToFront(e)
	case f.lru.Len() < f.maxKeys:
		e = f.lru.PushFront(&keyBucket{key: key, b: f.fresh})
		f.keys[key] = e
	default: // full: the least recently used key's entry becomes this key's
		e = f.lru.Back()
		kb := e.Value.(*keyBucket)
		delete(f.keys, kb.key)
		kb.key, kb.b = key, f.fresh
		f.keys[key] = e
		f.lru.MoveToFront(e)
	}
	kb := e.Value.(*keyBucket)
	before := kb.b
	d := kb.b.AllowN(now, cost)
	if !d.Allowed {
		return d, nil
	}
	c := f.class.AllowN(now, cost)
	if !c.Allowed {
		kb.b = before // the key keeps its tokens: the class said no
		return c, nil
	}
	d.Remaining = min(d.Remaining, c.Remaining)
	return d, nil
}

// Len reports how many keys hold a bucket.
func (f *fallback) Len() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.lru.Len()
}
