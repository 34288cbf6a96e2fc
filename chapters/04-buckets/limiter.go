package buckets

import "github.com/ratelimit-course/ratelimit/core"

// NewTokenBucketLimiter, NewGCRALimiter and NewLeakyQueueLimiter return one
// bucket per key, safe for concurrent use, or the config's *core.ParamError.
func NewTokenBucketLimiter(c Config) (*core.Keyed[*TokenBucket], error) {
	return core.KeyedFrom(c, NewTokenBucket)
}
func NewGCRALimiter(c Config) (*core.Keyed[*GCRA], error) { return core.KeyedFrom(c, NewGCRA) }
func NewLeakyQueueLimiter(c Config) (*core.Keyed[*LeakyQueue], error) {
	return core.KeyedFrom(c, NewLeakyQueue)
}
