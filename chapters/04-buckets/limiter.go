package buckets

import framing "github.com/ratelimit-course/ratelimit/chapters/01-framing"

// NewTokenBucketLimiter returns a token bucket per key, safe for concurrent
// use, or the configuration's *framing.ParamError.
func NewTokenBucketLimiter(c Config) (*framing.Keyed[*TokenBucket], error) {
	if _, err := NewTokenBucket(c); err != nil {
		return nil, err
	}
	return framing.NewKeyed(func() *TokenBucket {
		b, _ := NewTokenBucket(c) // validated above
		return b
	}), nil
}

// NewGCRALimiter returns a GCRA meter per key, safe for concurrent use.
func NewGCRALimiter(c Config) (*framing.Keyed[*GCRA], error) {
	fresh, err := NewGCRA(c)
	if err != nil {
		return nil, err
	}
	return framing.NewKeyed(func() *GCRA {
		g := *fresh // T and tau are worked out once, not per key
		return &g
	}), nil
}

// NewLeakyQueueLimiter returns a leaky-bucket queue per key, safe for
// concurrent use. Each allowed Decision's Wait tells the caller how long to
// hold the request before sending it upstream.
func NewLeakyQueueLimiter(c Config) (*framing.Keyed[*LeakyQueue], error) {
	fresh, err := NewLeakyQueue(c)
	if err != nil {
		return nil, err
	}
	return framing.NewKeyed(func() *LeakyQueue {
		q := *fresh // empty: its ring is nil, so the copies share nothing
		return &q
	}), nil
}
