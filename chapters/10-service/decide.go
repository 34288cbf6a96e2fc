package service

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
	"google.golang.org/protobuf/types/known/durationpb"

	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
	"github.com/ratelimit-course/ratelimit/core"
)

// What a client controls never turns a request into an error: behind
// Envoy an error lets the request through (the filter's failure_mode_deny
// is false by default), so a refusal would be a way past every limit. A
// request is an error only for what the reference refuses too and no
// client's content can cause: an empty domain, no descriptors, bytes that
// are not the protocol. The bounds that protect the service answer, and
// fail closed:
const (
	// MaxDescriptors is how many descriptors of one request are matched
	// and counted; each one past it is OVER_LIMIT, counted nowhere.
	MaxDescriptors = 256
	// MaxValueLen is the longest value a counter is named by as it is; a
	// longer one is named by its SHA-256 digest, so a counter's name (and
	// the state kept for it) stays small whatever a client sends.
	MaxValueLen = 256
	// MaxMessage is the largest request, gRPC message or HTTP body.
	MaxMessage = 4 << 20
)

// BadRequest is a request the service cannot decide at all: gRPC
// INVALID_ARGUMENT, HTTP 400. Nothing of it has been counted.
type BadRequest struct{ Msg string }

func (e *BadRequest) Error() string { return e.Msg }

func bad(format string, a ...any) error { return &BadRequest{Msg: fmt.Sprintf(format, a...)} }

// ErrUnavailable is a fail-closed domain's answer while the store cannot
// decide: gRPC UNAVAILABLE, and 503 with Retry-After over HTTP.
var ErrUnavailable = distributed.ErrUnavailable

// request is a RateLimitRequest read for deciding: the first
// MaxDescriptors descriptors' entries and hits.
type request struct {
	domain *domainRules
	descs  [][]Entry
	hits   []int // 0: a check, which counts nothing
	n      int   // descriptors in the request, MaxDescriptors or fewer of them read
}

// check reads a request as the reference does: a domain and at least one
// descriptor, or an error. A domain the rules do not name is not an error:
// every descriptor is then OK with no limit (request.domain is nil). A
// descriptor's hits are its own hits_addend if set (0 is a check), else
// the request's, else 1; any number past the largest limit is refused the
// same, so it is kept as MaxCount + 1. is_negative_hits is ignored, as the
// reference ignores it, and so is a descriptor's limit: the rules set every
// limit, and a client never chooses its own budget.
func (a *active) check(req *rls.RateLimitRequest) (request, error) {
	if req.GetDomain() == "" {
		return request{}, bad("domain: must not be empty")
	}
	ds := req.GetDescriptors()
	if len(ds) == 0 {
		return request{}, bad("descriptors: the list must not be empty")
	}
	read := min(len(ds), MaxDescriptors)
	r := request{domain: a.rules.domains[req.GetDomain()], descs: make([][]Entry, read), hits: make([]int, read), n: len(ds)}
	for i, desc := range ds[:read] {
		es := make([]Entry, len(desc.GetEntries()))
		for j, e := range desc.GetEntries() {
			es[j] = Entry{Key: e.GetKey(), Value: e.GetValue()}
		}
		r.descs[i] = es
		r.hits[i] = max(1, int(req.GetHitsAddend()))
		if h := desc.GetHitsAddend(); h != nil {
			r.hits[i] = int(min(h.GetValue(), core.MaxCount+1))
		}
	}
	return r, nil
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
		Statuses: make([]*rls.RateLimitResponse_DescriptorStatus, r.n)}
	for i := len(r.descs); i < r.n; i++ { // past MaxDescriptors: fail closed
		resp.Statuses[i] = &rls.RateLimitResponse_DescriptorStatus{Code: rls.RateLimitResponse_OVER_LIMIT}
	}
	if past := r.n - len(r.descs); past > 0 {
		s.m.pastBounds.Add(float64(past))
	}
	if r.domain == nil { // a domain without rules: nothing matches
		for i := range r.descs {
			resp.Statuses[i] = &rls.RateLimitResponse_DescriptorStatus{Code: rls.RateLimitResponse_OK}
		}
		s.m.unknownDomain.Inc()
	} else {
		rules, unlimited := r.domain.limitsToCheck(r.descs)
		if err := s.decideAll(ctx, a, r, rules, unlimited, resp.Statuses[:len(r.descs)]); err != nil {
			return nil, err
		}
	}
	for _, st := range resp.Statuses {
		if st.Code == rls.RateLimitResponse_OVER_LIMIT {
			resp.OverallCode = rls.RateLimitResponse_OVER_LIMIT
		}
	}
	if s.o.ResponseHeaders {
		addResponseHeaders(resp, s.now()) // headers.go
	}
	return resp, nil
}

// counterKey names one counter: the domain and every entry, so each value
// of a key-only or wildcard rule has its own count, as in the reference. A
// value longer than MaxValueLen is named by its SHA-256 digest, after a
// byte (0xFF) that no value can hold (a protobuf or JSON string is UTF-8):
// two long values share a count only if their digests collide.
func counterKey(domain string, es []Entry) string {
	var b strings.Builder
	b.WriteString(domain)
	for _, e := range es {
		b.WriteByte(0)
		b.WriteString(e.Key)
		b.WriteByte(0)
		if len(e.Value) > MaxValueLen {
			sum := sha256.Sum256([]byte(e.Value))
			b.WriteString("\xffsha256:")
			b.WriteString(hex.EncodeToString(sum[:]))
			continue
		}
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
	over, denyHit, forced, full := false, false, false, false
	var dec core.Decision
	switch until, known := s.deny.over(denyKey, now, max(hits, 1)); {
	case limit == 0: // requests_per_unit: 0 rejects everything, counted nowhere
		over = true
	case known: // (for a check: a refusal of one hit stands)
		noteDeny(ctx, key) // explain.go
		over, denyHit = true, true
		dec.RetryAfter = until.Sub(now)
	case hits > limit && rule.Algorithm != AlgoFixedWindow:
		over = true // a cost the bucket can never hold
	default:
		cost := hits // 0: a check, Peek
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
			if !errors.Is(err, errStoreFull) {
				return nil, err
			}
			full = true // a fail-closed domain with no room for a new key
		}
		over = full || forced || !dec.Allowed
		if over && cost > 0 && !full {
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

// count asks the rule's counter (cost 0: Peek), through the Guard for a
// remote store, and records the store's latency and failures. The memory
// store's errStoreFull (no room for a new key) is answered by the domain's
// failure mode: errFailedOpen for open, errStoreFull itself for closed.
func (s *Service) count(ctx context.Context, c counter, d *domainRules, key string, cost int) (core.Decision, error) {
	noteStore(ctx, key) // explain.go
	mode := d.failureMode
	if mode == "" {
		mode = s.failureMode
	}
	if s.guard == nil {
		dec, err := askCounter(ctx, c, key, cost)
		if errors.Is(err, errStoreFull) {
			s.m.storeFull.WithLabelValues(d.name, mode).Inc()
			if mode == "open" {
				return dec, errFailedOpen
			}
		}
		return dec, err
	}
	select { // a place in front of the store: the wait here is not the store's
	case s.slots <- struct{}{}:
	case <-ctx.Done():
		return core.Decision{}, ctx.Err()
	}
	start := time.Now()
	out, err := s.guard.AllowN(context.WithValue(ctx, counterCtx{}, c), mode, key, cost)
	<-s.slots
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

// askCounter decides cost on c, or with cost 0 reads what the key has left.
func askCounter(ctx context.Context, c counter, key string, cost int) (core.Decision, error) {
	if cost == 0 {
		return c.Peek(ctx, key)
	}
	return c.AllowN(ctx, key, cost)
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
