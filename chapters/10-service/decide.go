package service

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	rlcommon "github.com/envoyproxy/go-control-plane/envoy/extensions/common/ratelimit/v3"
	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
	"google.golang.org/protobuf/types/known/durationpb"

	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
	"github.com/ratelimit-course/ratelimit/core"
)

// The bounds on one request. Anything beyond them is refused whole, with one
// line naming the bound, before anything is counted.
const (
	MaxDescriptors = 64      // descriptors per request
	MaxEntries     = 16      // entries per descriptor
	MaxKeyLen      = 256     // bytes of an entry's key
	MaxValueLen    = 1024    // bytes of an entry's value
	MaxMessage     = 4 << 20 // bytes of one request, gRPC message or HTTP body
)

// BadRequest is a request the service refuses to decide: gRPC
// INVALID_ARGUMENT, HTTP 400. Nothing of it has been counted.
type BadRequest struct{ Msg string }

func (e *BadRequest) Error() string { return e.Msg }

func bad(format string, a ...any) error { return &BadRequest{Msg: fmt.Sprintf(format, a...)} }

// ErrUnavailable is a fail-closed domain's answer while the store cannot
// decide: gRPC UNAVAILABLE, and OVER_LIMIT over HTTP.
var ErrUnavailable = distributed.ErrUnavailable

// request is a RateLimitRequest checked against the bounds.
type request struct {
	domain *domainRules
	descs  [][]Entry
	hits   []int
}

// check validates a request as the reference does (a domain, at least one
// descriptor) plus the course's bounds. A domain the rules do not name is
// not an error: as in the reference, every descriptor is then OK with no
// limit and nothing is counted (request.domain is nil).
func (a *active) check(req *rls.RateLimitRequest) (request, error) {
	var r request
	if req.GetDomain() == "" {
		return r, bad("domain: must not be empty")
	}
	d := a.rules.domains[req.GetDomain()]
	ds := req.GetDescriptors()
	if len(ds) == 0 {
		return r, bad("descriptors: the list must not be empty")
	}
	if len(ds) > MaxDescriptors {
		return r, bad("descriptors: %d given, at most %d accepted", len(ds), MaxDescriptors)
	}
	if req.GetHitsAddend() > core.MaxCount {
		return r, bad("hits_addend: %d, accepted 0 to %d", req.GetHitsAddend(), core.MaxCount)
	}
	r = request{domain: d, descs: make([][]Entry, len(ds)), hits: make([]int, len(ds))}
	for i, desc := range ds {
		if err := checkDescriptor(i, desc); err != nil {
			return request{}, err
		}
		es := make([]Entry, len(desc.GetEntries()))
		for j, e := range desc.GetEntries() {
			es[j] = Entry{Key: e.GetKey(), Value: e.GetValue()}
		}
		r.descs[i] = es
		r.hits[i] = max(1, int(req.GetHitsAddend()))
		if h := desc.GetHitsAddend(); h != nil {
			r.hits[i] = int(h.GetValue())
		}
	}
	return r, nil
}

func checkDescriptor(i int, desc *rlcommon.RateLimitDescriptor) error {
	es := desc.GetEntries()
	switch {
	case len(es) == 0:
		return bad("descriptors[%d]: no entries", i)
	case len(es) > MaxEntries:
		return bad("descriptors[%d]: %d entries, at most %d accepted", i, len(es), MaxEntries)
	case desc.GetIsNegativeHits():
		return bad("descriptors[%d].is_negative_hits: not supported", i)
	case desc.GetLimit() != nil:
		return bad("descriptors[%d].limit: a limit override is not accepted (the rules set every limit)", i)
	}
	if h := desc.GetHitsAddend(); h != nil && (h.GetValue() < 1 || h.GetValue() > core.MaxCount) {
		return bad("descriptors[%d].hits_addend: %d, accepted 1 to %d", i, h.GetValue(), core.MaxCount)
	}
	for j, e := range es {
		switch {
		case e.GetKey() == "":
			return bad("descriptors[%d].entries[%d].key: must not be empty", i, j)
		case len(e.GetKey()) > MaxKeyLen:
			return bad("descriptors[%d].entries[%d].key: %d bytes, at most %d accepted", i, j, len(e.GetKey()), MaxKeyLen)
		case len(e.GetValue()) > MaxValueLen:
			return bad("descriptors[%d].entries[%d].value: %d bytes, at most %d accepted", i, j, len(e.GetValue()), MaxValueLen)
		}
	}
	return nil
}

// clip shortens a string quoted back in an error line.
func clip(s string) string {
	if len(s) > 64 {
		return s[:64] + "…"
	}
	return s
}

// ShouldRateLimit decides a request: every descriptor matched against the
// domain's rules and each matched rule counted with the descriptor's hits;
// the overall code is OVER_LIMIT iff any non-shadow descriptor is. It is the
// gRPC method, and POST /json calls it too.
func (s *Service) ShouldRateLimit(ctx context.Context, req *rls.RateLimitRequest) (*rls.RateLimitResponse, error) {
	a := s.cur.Load()
	r, err := a.check(req)
	if err != nil {
		return nil, err
	}
	resp := &rls.RateLimitResponse{OverallCode: rls.RateLimitResponse_OK,
		Statuses: make([]*rls.RateLimitResponse_DescriptorStatus, len(r.descs))}
	if r.domain == nil { // a domain without rules: nothing matches
		for i := range resp.Statuses {
			resp.Statuses[i] = &rls.RateLimitResponse_DescriptorStatus{Code: rls.RateLimitResponse_OK}
		}
		s.m.unknownDomain.Inc()
		return resp, nil
	}
	rules, unlimited := r.domain.limitsToCheck(r.descs)
	if err := s.decideAll(ctx, a, r, rules, unlimited, resp.Statuses); err != nil {
		return nil, err
	}
	for _, st := range resp.Statuses {
		if st.Code == rls.RateLimitResponse_OVER_LIMIT {
			resp.OverallCode = rls.RateLimitResponse_OVER_LIMIT
		}
	}
	return resp, nil
}

// counterKey names one counter: the domain and every entry, so each value
// of a key-only or wildcard rule has its own count, as in the reference.
func counterKey(domain string, es []Entry) string {
	var b strings.Builder
	b.WriteString(domain)
	for _, e := range es {
		b.WriteByte(0)
		b.WriteString(e.Key)
		b.WriteByte(0)
		b.WriteString(e.Value)
	}
	return b.String()
}

type counterCtx struct{}

// decide counts one descriptor against its rule: the deny cache first, then
// the store (through the Guard when it is remote).
func (s *Service) decide(ctx context.Context, a *active, d *domainRules, rule *Rule, es []Entry, hits int) (*rls.RateLimitResponse_DescriptorStatus, error) {
	now := s.now()
	limit := int(rule.RequestsPerUnit)
	key := counterKey(d.name, es)
	denyKey := rule.signature() + "\x00" + key
	over, denyHit, forced := false, false, false
	var dec core.Decision
	switch until, known := s.deny.over(denyKey, now, hits); {
	case limit == 0: // requests_per_unit: 0 rejects everything, counted nowhere
		over = true
	case known:
		over, denyHit = true, true
		dec.RetryAfter = until.Sub(now)
	case hits > limit && rule.Algorithm != AlgoFixedWindow:
		over = true // a cost the bucket can never hold
	default:
		cost := hits
		if hits > limit {
			// INCRBY hits would leave the window over its limit whatever
			// it held; counting the limit itself leaves it the same.
			cost, forced = limit, true
		}
		var err error
		if dec, err = s.count(ctx, a.counters[rule], d, key, cost); err != nil {
			if errors.Is(err, ErrUnavailable) {
				return nil, err
			}
			if errors.Is(err, errFailedOpen) {
				// Counted as what it answered: ratelimit_decisions_total
				// must not fall silent while the store is down.
				s.m.decisions.WithLabelValues(d.name, rule.Label(), rls.RateLimitResponse_OK.String()).Inc()
				return &rls.RateLimitResponse_DescriptorStatus{Code: rls.RateLimitResponse_OK}, nil
			}
			return nil, err
		}
		over = forced || !dec.Allowed
		if over {
			until := now.Add(dec.RetryAfter)
			rememberCost := hits
			if rule.Algorithm == AlgoFixedWindow {
				// The count only grows until the window ends: any cost is
				// refused until then. The store's RetryAfter says when, on
				// its own clock (Redis TIME); a forced refusal has none.
				rememberCost = 1
				if dec.RetryAfter <= 0 {
					until = windowEnd(now, rule)
				}
			}
			s.deny.remember(denyKey, until, rememberCost, now)
		}
	}
	st := &rls.RateLimitResponse_DescriptorStatus{Code: rls.RateLimitResponse_OK,
		CurrentLimit: &rls.RateLimitResponse_RateLimit{Name: rule.Name, RequestsPerUnit: rule.RequestsPerUnit,
			Unit: rls.RateLimitResponse_RateLimit_Unit(rls.RateLimitResponse_RateLimit_Unit_value[strings.ToUpper(rule.Unit)])},
		DurationUntilReset: s.reset(now, rule, over, dec)}
	label := rule.Label()
	if denyHit {
		s.m.denyHits.WithLabelValues(d.name, label).Inc()
	}
	switch {
	case over && rule.Shadow:
		s.m.shadow.WithLabelValues(d.name, label).Inc()
	case over:
		st.Code = rls.RateLimitResponse_OVER_LIMIT
	default:
		st.LimitRemaining = uint32(dec.Remaining)
		if used := limit - dec.Remaining; used > limit*8/10 {
			s.m.nearLimit.WithLabelValues(d.name, label).Inc()
		}
	}
	s.m.decisions.WithLabelValues(d.name, label, st.Code.String()).Inc()
	return st, nil
}

// errFailedOpen marks a decision the store could not make in a fail-open domain.
var errFailedOpen = errors.New("store unavailable, failed open")

// count asks the rule's counter, through the Guard for a remote store, and
// records the store's latency and failures.
func (s *Service) count(ctx context.Context, c counter, d *domainRules, key string, cost int) (core.Decision, error) {
	if s.guard == nil {
		return c.AllowN(ctx, key, cost)
	}
	mode := d.failureMode
	if mode == "" {
		mode = s.failureMode
	}
	start := time.Now()
	out, err := s.guard.AllowN(context.WithValue(ctx, counterCtx{}, c), mode, key, cost)
	s.m.storeTime.Observe(time.Since(start).Seconds())
	switch {
	case errors.Is(err, distributed.ErrUnavailable):
		s.m.storeErrs.Inc()
		s.m.failures.WithLabelValues(d.name, mode).Inc()
		s.health.failed(d.name, mode, err)
		return core.Decision{}, err
	case err != nil:
		return core.Decision{}, err
	case out.Source == distributed.SourceLocal:
		s.m.storeErrs.Inc()
		s.m.failures.WithLabelValues(d.name, mode).Inc()
		s.health.failed(d.name, mode, errFailedOpen)
		return core.Decision{}, errFailedOpen
	}
	s.health.ok(d.name)
	return out.Decision, nil
}

// windowEnd is when the rule's current fixed window ends: windows are
// aligned to the Unix epoch, a unit wide.
func windowEnd(now time.Time, r *Rule) time.Time {
	sec := r.Seconds()
	start := now.Unix() / sec * sec
	return time.Unix(start+sec, 0)
}

// reset is duration_until_reset in whole seconds: the reference's formula
// (unit - now mod unit) for the fixed window and for an admitted request;
// the refusal's RetryAfter, rounded up, for the other algorithms.
func (s *Service) reset(now time.Time, r *Rule, over bool, dec core.Decision) *durationpb.Duration {
	if over && r.Algorithm != AlgoFixedWindow && dec.RetryAfter > 0 {
		return &durationpb.Duration{Seconds: int64((dec.RetryAfter + time.Second - 1) / time.Second)}
	}
	sec := r.Seconds()
	return &durationpb.Duration{Seconds: sec - now.Unix()%sec}
}
