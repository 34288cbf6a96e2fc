package service

import (
	"sync"
	"time"
)

// denyCache is the service's first tier: once a key is over its limit, the
// service remembers until when, and answers OVER_LIMIT from memory without
// asking the store. The answer is the store's own: a fixed window's count
// only grows until the window ends (rejected hits count too), and a bucket
// or a sliding counter refuses a cost of at least the refused one until its
// RetryAfter has passed. So the decisions are the same; only the store's
// calls go away. It is bounded: when full it first drops what has expired
// and otherwise does not remember (the store still answers, just slower).
type denyCache[K comparable] struct {
	mu    sync.Mutex
	m     map[K]denied
	max   int
	swept time.Time // the last sweep of a full cache: at most one a second
}

// denied is one remembered refusal: until when, and for which cost.
type denied struct {
	until time.Time
	cost  int
}

func newDenyCache[K comparable](max int) *denyCache[K] {
	if max <= 0 {
		return nil
	}
	return &denyCache[K]{m: make(map[K]denied), max: max}
}

// over reports whether key is known over its limit at now for a request of
// this cost, and until when.
func (c *denyCache[K]) over(key K, now time.Time, cost int) (time.Time, bool) {
	if c == nil {
		return time.Time{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.m[key]
	if !ok {
		return time.Time{}, false
	}
	if !now.Before(d.until) {
		delete(c.m, key)
		return time.Time{}, false
	}
	return d.until, cost >= d.cost
}

// remember records that key refuses a cost until until.
func (c *denyCache[K]) remember(key K, until time.Time, cost int, now time.Time) {
	if c == nil || !until.After(now) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[key]; !ok && len(c.m) >= c.max {
		if now.Sub(c.swept) < time.Second {
			return
		}
		c.swept = now
		for k, d := range c.m {
			if !now.Before(d.until) {
				delete(c.m, k)
			}
		}
		if len(c.m) >= c.max {
			return
		}
	}
	c.m[key] = denied{until: until, cost: cost}
}

// len reports how many refusals are remembered.
func (c *denyCache[K]) len() int {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}
