package service

import (
	"context"
	"time"

	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
	"github.com/ratelimit-course/ratelimit/core"
)

// newGuard is chapter 06's Guard in front of the store, with one class per
// failure mode: a remote store always sits behind it, and the in-memory
// store does when an Outage is given (outage.go). Each call finds its
// rule's counter in its context; an Outage switched on fails every call
// before it reaches the counter, as a store that does not answer would.
// timeout is one call's deadline; past it a call waits on while the store
// answers others, for as long as the store is not silent for StorePatience.
func (s *Service) newGuard(timeout time.Duration) (*distributed.Guard, error) {
	// Fail open admits and counts the failure: a bucket far above any
	// limit, so the answer is OK (the reference's failure mode allow); the
	// per-key table stays bounded at DefaultMaxKeys.
	wide := buckets.Config{Capacity: core.MaxCount, Rate: core.MaxRate}
	return distributed.NewGuard(distributed.GuardConfig{
		Remote: distributed.RemoteFunc(func(ctx context.Context, key string, cost int) (core.Decision, error) {
			if s.o.Outage.Down() {
				return core.Decision{}, ErrStoreDown
			}
			d, err := askCounter(ctx, ctx.Value(counterCtx{}).(counter), key, cost)
			s.health.storeErr(err)
			return d, err
		}),
		Timeout:  timeout,
		Patience: s.o.StorePatience,
		Breaker:  distributed.BreakerConfig{Failures: 3, Cooldown: time.Second},
		Classes: map[string]distributed.ClassPolicy{
			"open":   distributed.OpenPolicy(wide, wide),
			"closed": distributed.ClosedPolicy(),
		},
		Now: s.now, // the breaker's cooldown on the service's clock
	})
}
