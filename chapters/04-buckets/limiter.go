package buckets

import "github.com/ratelimit-course/ratelimit/core"

// NewTokenBucketLimiter returns a token bucket per key, safe for concurrent
// use, or the configuration's *core.ParamError.
func NewTokenBucketLimiter(c Config) (*core.Keyed[*TokenBucket], error) {
	if _, err := NewTokenBucket(c); err != nil {
		return nil, err
	}
	return core.NewKeyed(func() *TokenBucket {
		b, _ := NewTokenBucket(c) // validated above
		return b
	}), nil
}

// NewGCRALimiter returns a GCRA meter per key, safe for concurrent use.
func NewGCRALimiter(c Config) (*core.Keyed[*GCRA], error) {
	fresh, err := NewGCRA(c)
	if err != nil {
		return nil, err
	}
	return core.NewKeyed(func() *GCRA {
		g := *fresh // T and tau are worked out once, not per key
		return &g
	}), nil
}

// NewLeakyQueueLimiter returns a leaky-bucket queue per key, safe for
// concurrent use. Each allowed Decision's Wait tells the caller how long to
// hold the request before sending it upstream.
func NewLeakyQueueLimiter(c Config) (*core.Keyed[*LeakyQueue], error) {
	fresh, err := NewLeakyQueue(c)
	if err != nil {
		return nil, err
	}
	return core.NewKeyed(func() *LeakyQueue {
		q := *fresh // empty: its ring is nil, so the copies share nothing
		return &q
	}), nil
}
