package buckets

import "github.com/ratelimit-course/ratelimit/core"

// NewTokenBucketLimiter, NewGCRALimiter and NewLeakyQueueLimiter return one
// bucket per key, safe for concurrent use, or the configuration's
// *core.ParamError. A queue's allowed Decision.Wait tells the caller how long
// to hold the request before sending it upstream.
func NewTokenBucketLimiter(c Config) (*core.Keyed[*TokenBucket], error) {
	return core.KeyedFrom(c, NewTokenBucket)
}

func NewGCRALimiter(c Config) (*core.Keyed[*GCRA], error) { return core.KeyedFrom(c, NewGCRA) }

func NewLeakyQueueLimiter(c Config) (*core.Keyed[*LeakyQueue], error) {
	return core.KeyedFrom(c, NewLeakyQueue)
}
