package service

import (
	"context"
	"math"
	"sync"

	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
)

// decideAll decides every descriptor of one request into out. On a remote
// store the counters of one request are counted at once, one goroutine per
// counter, so that their script calls are out together (chapter 06's
// Batcher sends each on an idle worker's pipeline, or several in one once
// they queue): a request with several limits waits about one round trip,
// not one per limit, as envoyproxy/ratelimit sends a request's increments
// in one pipeline.
// Descriptors that name the same counter are counted in their order on one
// goroutine, so the first of two alike is counted first, as in the
// reference. After an error, the error returned is that of the counter the
// request names first, once every goroutine is done.
func (s *Service) decideAll(ctx context.Context, a *active, r request, rules []*Rule, unlimited []bool,
	out []*rls.RateLimitResponse_DescriptorStatus) error {
	var counted []int
	for i := range r.descs {
		switch {
		case unlimited[i]:
			out[i] = &rls.RateLimitResponse_DescriptorStatus{Code: rls.RateLimitResponse_OK, LimitRemaining: math.MaxUint32}
		case rules[i] == nil:
			out[i] = &rls.RateLimitResponse_DescriptorStatus{Code: rls.RateLimitResponse_OK}
		default:
			counted = append(counted, i)
		}
	}
	count := func(is []int) error {
		for _, i := range is {
			st, err := s.decide(ctx, a, r.domain, rules[i], r.descs[i], r.hits[i])
			if err != nil {
				return err
			}
			out[i] = st
		}
		return nil
	}
	if len(counted) < 2 || !s.st.remote() {
		return count(counted)
	}
	var keys []string // the counters, in the order of their first descriptor
	byKey := map[string][]int{}
	for _, i := range counted {
		k := counterKey(r.domain.name, r.descs[i])
		if byKey[k] == nil {
			keys = append(keys, k)
		}
		byKey[k] = append(byKey[k], i)
	}
	if len(keys) == 1 {
		return count(counted)
	}
	errs := make([]error, len(keys))
	var wg sync.WaitGroup
	for g, k := range keys[1:] {
		wg.Go(func() { errs[g+1] = count(byKey[k]) })
	}
	errs[0] = count(byKey[keys[0]])
	wg.Wait()
	for _, err := range errs { // keys are in the order the request names them
		if err != nil {
			return err
		}
	}
	return nil
}
