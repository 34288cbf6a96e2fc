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
func (s *Service) decideAll(ctx context.Context, a *active, r request, out []*rls.RateLimitResponse_DescriptorStatus) error {
	if len(r.descs) < 2 || !s.st.Remote() { // in order, allocating nothing more
		for i := range r.descs {
			if err := s.decideInto(ctx, a, r, i, out); err != nil {
				return err
			}
		}
		return nil
	}
	return s.atOnce(ctx, a, r, out)
}

// decideInto decides descriptor i of r into out[i].
func (s *Service) decideInto(ctx context.Context, a *active, r request, i int, out []*rls.RateLimitResponse_DescriptorStatus) error {
	ds := &r.descs[i]
	switch {
	case ds.unlimited:
		out[i] = &rls.RateLimitResponse_DescriptorStatus{Code: rls.RateLimitResponse_OK, LimitRemaining: math.MaxUint32}
	case ds.rule == nil:
		out[i] = &rls.RateLimitResponse_DescriptorStatus{Code: rls.RateLimitResponse_OK}
	default:
		now := s.st.Now()
		v, err := s.verdict(ctx, a, r.domain, *ds, now)
		ds.verdict = v
		if err != nil {
			return err
		}
		out[i] = descriptorStatus(ds.rule, v, now)
		s.record(r.domain, ds.rule, v, out[i].Code)
		s.m.ref.count(ds.rule, v, ds.hits) // refmetrics.go
	}
	return nil
}

// atOnce decides each counter's descriptors, in order, on a goroutine of
// its own (the first on this one), and returns the first error in the order
// the request names the counters. Descriptors that count nothing are
// answered first, on this goroutine.
func (s *Service) atOnce(ctx context.Context, a *active, r request, out []*rls.RateLimitResponse_DescriptorStatus) error {
	var keys []string // the counters, in the order of their first descriptor
	byKey := map[string][]int{}
	for i, ds := range r.descs {
		if ds.rule == nil {
			_ = s.decideInto(ctx, a, r, i, out) // no store call, no error
			continue
		}
		if byKey[ds.key] == nil {
			keys = append(keys, ds.key)
		}
		byKey[ds.key] = append(byKey[ds.key], i)
	}
	if len(keys) == 0 {
		return nil
	}
	count := func(is []int) error {
		for _, i := range is {
			if err := s.decideInto(ctx, a, r, i, out); err != nil {
				return err
			}
		}
		return nil
	}
	errs := make([]error, len(keys))
	var wg sync.WaitGroup
	for g, k := range keys[1:] {
		wg.Go(func() { errs[g+1] = count(byKey[k]) })
	}
	errs[0] = count(byKey[keys[0]])
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
