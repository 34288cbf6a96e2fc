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
	ds := descriptors{s: s, a: a, r: r, rules: rules, unlimited: unlimited, out: out}
	if len(r.descs) < 2 || !s.st.remote() { // in order, allocating nothing more
		for i := range r.descs {
			if err := ds.decide(ctx, i); err != nil {
				return err
			}
		}
		return nil
	}
	return ds.atOnce(ctx)
}

// descriptors is one request's descriptors, their rules and their statuses.
type descriptors struct {
	s         *Service
	a         *active
	r         request
	rules     []*Rule
	unlimited []bool
	out       []*rls.RateLimitResponse_DescriptorStatus
}

// decide decides descriptor i into out[i].
func (ds *descriptors) decide(ctx context.Context, i int) error {
	switch {
	case ds.unlimited[i]:
		ds.out[i] = &rls.RateLimitResponse_DescriptorStatus{Code: rls.RateLimitResponse_OK, LimitRemaining: math.MaxUint32}
	case ds.rules[i] == nil:
		ds.out[i] = &rls.RateLimitResponse_DescriptorStatus{Code: rls.RateLimitResponse_OK}
	default:
		st, err := ds.s.decide(ctx, ds.a, ds.r.domain, ds.rules[i], ds.r.descs[i], ds.r.hits[i])
		if err != nil {
			return err
		}
		ds.out[i] = st
	}
	return nil
}

// atOnce decides each counter's descriptors, in order, on a goroutine of
// its own (the first on this one), and returns the first error in the order
// the request names the counters. Descriptors that count nothing are
// answered first, on this goroutine.
func (ds descriptors) atOnce(ctx context.Context) error {
	var keys []string // the counters, in the order of their first descriptor
	byKey := map[string][]int{}
	for i, es := range ds.r.descs {
		if ds.unlimited[i] || ds.rules[i] == nil {
			_ = ds.decide(ctx, i) // no store call, no error
			continue
		}
		k := counterKey(ds.r.domain.name, es)
		if byKey[k] == nil {
			keys = append(keys, k)
		}
		byKey[k] = append(byKey[k], i)
	}
	if len(keys) == 0 {
		return nil
	}
	count := func(is []int) error {
		for _, i := range is {
			if err := ds.decide(ctx, i); err != nil {
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
