package service

import (
	"context"
	"errors"
	"time"

	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/ratelimit-course/ratelimit/core"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/rules"
	"github.com/ratelimit-course/ratelimit/chapters/10-service/store"
)

// answeredBy is what decided one descriptor's count.
type answeredBy uint8

const (
	notCounted     answeredBy = iota // no rule: unlimited, replaced, or none matched
	byZeroLimit                      // requests_per_unit 0: refused, counted nowhere
	byDenyCache                      // a refusal remembered: the store was not asked
	byCostTooLarge                   // more hits than a bucket can ever hold: refused
	byStore                          // the rule's counter decided
	byStoreForced                    // a fixed window asked for more than its limit: the limit counted, refused
	byFailOpen                       // the store could not decide and the domain fails open: OK
	byStoreFull                      // no room for a new key and the domain fails closed: unavailable, as in an outage
)

// verdict is one descriptor's decision, before it becomes a status.
type verdict struct {
	by   answeredBy
	over bool          // refused (answered OK all the same under shadow_mode)
	dec  core.Decision // the counter's answer: what remains, when to retry
}

// askedStore reports whether the store was asked for this verdict.
func (v verdict) askedStore() bool { return v.by >= byStore }

// denyKey names a remembered refusal: the rule and the counter.
type denyKey struct {
	rule rules.ID
	key  string
}

// verdict counts one descriptor against its rule: the deny cache first,
// then the store (through the Guard when it is remote). It returns an error
// only when the domain fails closed and the store cannot decide; its
// verdict then says only that the store was asked.
func (s *Service) verdict(ctx context.Context, a *active, d *rules.Domain, ds descriptor, now time.Time) (verdict, error) {
	rule, hits, limit := ds.rule, ds.hits, int(ds.rule.RequestsPerUnit)
	dk := denyKey{rule: rule.ID(), key: ds.key}
	if limit == 0 {
		return verdict{by: byZeroLimit, over: true}, nil
	}
	// For a check (hits 0), a refusal of one hit stands.
	if until, known := s.deny.over(dk, now, max(hits, 1)); known {
		return verdict{by: byDenyCache, over: true, dec: core.Decision{RetryAfter: until.Sub(now)}}, nil
	}
	if hits > limit && rule.Algorithm != rules.AlgoFixedWindow {
		return verdict{by: byCostTooLarge, over: true}, nil
	}
	cost, by := hits, byStore // cost 0: a check, Peek
	if hits > limit {
		// INCRBY hits would leave the window over its limit whatever it
		// held; counting the limit itself leaves it the same.
		cost, by = limit, byStoreForced
	}
	dec, err := s.count(ctx, a.counters[rule], d, ds.key, cost)
	switch {
	case errors.Is(err, errFailedOpen):
		return verdict{by: byFailOpen}, nil
	case errors.Is(err, store.ErrFull): // ErrUnavailable too: the failure mode's 503, not a 429
		return verdict{by: byStoreFull}, err
	case err != nil:
		return verdict{by: by}, err // the store was asked, and could not decide
	}
	v := verdict{by: by, over: by == byStoreForced || !dec.Allowed, dec: dec}
	if v.over && cost > 0 {
		s.rememberRefusal(dk, rule, hits, dec, now)
	}
	return v, nil
}

// rememberRefusal puts a refusal in the deny cache until it would be
// refused no more. A fixed window's count only grows until the window ends,
// so any cost is refused until then; the store's RetryAfter says when, on
// its own clock (Redis TIME), and a forced refusal has none.
func (s *Service) rememberRefusal(dk denyKey, rule *rules.Rule, hits int, dec core.Decision, now time.Time) {
	until, cost := now.Add(dec.RetryAfter), hits
	if rule.Algorithm == rules.AlgoFixedWindow {
		cost = 1
		if dec.RetryAfter <= 0 {
			until = windowEnd(now, rule)
		}
	}
	s.deny.remember(dk, until, cost, now)
}

// descriptorStatus is a verdict as the protocol answers it. A shadow_mode
// rule's refusal is answered OK; so is a quota_mode rule's, with its limit,
// 0 remaining and no duration_until_reset, as the reference rewrites it
// (shouldRateLimitWorker; shadow_mode first, so both is shadow's answer).
// A fail-open answer carries no limit.
func descriptorStatus(rule *rules.Rule, v verdict, now time.Time) *rls.RateLimitResponse_DescriptorStatus {
	if v.by == byFailOpen {
		return &rls.RateLimitResponse_DescriptorStatus{Code: rls.RateLimitResponse_OK}
	}
	st := &rls.RateLimitResponse_DescriptorStatus{Code: rls.RateLimitResponse_OK,
		CurrentLimit: &rls.RateLimitResponse_RateLimit{Name: rule.Name, RequestsPerUnit: rule.RequestsPerUnit,
			Unit: rls.RateLimitResponse_RateLimit_Unit(rule.Unit)},
		DurationUntilReset: reset(now, rule, v)}
	switch {
	case v.over && rule.Shadow:
	case v.over && rule.Quota:
		st.DurationUntilReset = nil
	case v.over:
		st.Code = rls.RateLimitResponse_OVER_LIMIT
	default:
		st.LimitRemaining = uint32(v.dec.Remaining)
	}
	return st
}

// record counts a decision in the metrics: every one by its code, a deny
// cache answer, a shadow rule's would-be refusal, a quota rule's refusal
// answered OK, and an admission that left the key past 80 % of its limit.
func (s *Service) record(d *rules.Domain, rule *rules.Rule, v verdict, code rls.RateLimitResponse_Code) {
	label := rule.Label()
	if v.by == byDenyCache {
		s.m.denyHits.WithLabelValues(d.Name(), label).Inc()
	}
	switch limit := int(rule.RequestsPerUnit); {
	case v.over && rule.Shadow:
		s.m.shadow.WithLabelValues(d.Name(), label).Inc()
	case v.over && rule.Quota:
		s.m.quotaOver.WithLabelValues(d.Name(), label).Inc()
	case !v.over && v.by != byFailOpen && limit-v.dec.Remaining > limit*8/10:
		s.m.nearLimit.WithLabelValues(d.Name(), label).Inc()
	}
	s.m.decisions.WithLabelValues(d.Name(), label, code.String()).Inc()
}

// windowEnd is when the rule's current fixed window ends: windows are
// aligned to the Unix epoch, a unit wide.
func windowEnd(now time.Time, r *rules.Rule) time.Time {
	sec := r.Unit.Seconds()
	start := now.Unix() / sec * sec
	return time.Unix(start+sec, 0)
}

// reset is duration_until_reset in whole seconds: the reference's formula
// (unit - now mod unit) for the fixed window and for an admitted request;
// the refusal's RetryAfter, rounded up, for the other algorithms.
func reset(now time.Time, r *rules.Rule, v verdict) *durationpb.Duration {
	if v.over && r.Algorithm != rules.AlgoFixedWindow && v.dec.RetryAfter > 0 {
		return &durationpb.Duration{Seconds: int64((v.dec.RetryAfter + time.Second - 1) / time.Second)}
	}
	sec := r.Unit.Seconds()
	return &durationpb.Duration{Seconds: sec - now.Unix()%sec}
}
