package service

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"

	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
	"github.com/ratelimit-course/ratelimit/core"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/rules"
	"github.com/ratelimit-course/ratelimit/chapters/10-service/server"
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
)

// bad is a request the service cannot decide at all (server.BadRequest:
// gRPC INVALID_ARGUMENT, HTTP 400). Nothing of it has been counted.
func bad(format string, a ...any) error { return &server.BadRequest{Msg: fmt.Sprintf(format, a...)} }

// ErrUnavailable is a fail-closed domain's answer while the store cannot
// decide: gRPC UNAVAILABLE, and 503 with Retry-After over HTTP.
var ErrUnavailable = distributed.ErrUnavailable

// request is a RateLimitRequest read for deciding: its domain's rules and
// its first MaxDescriptors descriptors.
type request struct {
	domain *rules.Domain
	descs  []descriptor
	n      int // descriptors in the request, MaxDescriptors or fewer of them read
}

// descriptor is one descriptor as it is decided: what the client sent, the
// rule it counts against (nil: none matched, or it was replaced), the
// counter's name, and what decided it.
type descriptor struct {
	entries   []rules.Entry
	hits      int // 0: a check, which counts nothing
	rule      *rules.Rule
	unlimited bool
	counted   []rules.Entry // entries as the counter names them (domainRules.counted)
	key       string        // the counter, when rule is not nil (counterKey)
	verdict   verdict
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
	r := request{domain: a.rules.Domain(req.GetDomain()), descs: make([]descriptor, read), n: len(ds)}
	for i, desc := range ds[:read] {
		d := &r.descs[i]
		d.entries = make([]rules.Entry, len(desc.GetEntries()))
		for j, e := range desc.GetEntries() {
			d.entries[j] = rules.Entry{Key: e.GetKey(), Value: e.GetValue()}
		}
		d.hits = max(1, int(req.GetHitsAddend()))
		if h := desc.GetHitsAddend(); h != nil {
			d.hits = int(min(h.GetValue(), core.MaxCount+1))
		}
	}
	return r, nil
}

// match finds each descriptor's rule (limitsToCheck: the walk, then
// replaces and unlimited) and names its counter.
func (r *request) match() {
	entries := make([][]rules.Entry, len(r.descs))
	for i := range r.descs {
		entries[i] = r.descs[i].entries
	}
	rules, unlimited := r.domain.LimitsToCheck(entries)
	for i := range r.descs {
		d := &r.descs[i]
		d.rule, d.unlimited = rules[i], unlimited[i]
		if d.rule != nil {
			d.counted = r.domain.Counted(d.entries)
			d.key = counterKey(r.domain.Name(), d.counted)
		}
	}
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
	resp, _, err := s.answer(ctx, req)
	return resp, err
}

// answer is ShouldRateLimit, also returning the request as it was decided
// (for Explain): after an error, the descriptors decided before it.
func (s *Service) answer(ctx context.Context, req *rls.RateLimitRequest) (*rls.RateLimitResponse, request, error) {
	a := s.cur.Load()
	r, err := a.check(req)
	if err != nil {
		return nil, r, err
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
		r.match()
		if err := s.decideAll(ctx, a, r, resp.Statuses[:len(r.descs)]); err != nil {
			return nil, r, err
		}
	}
	for _, st := range resp.Statuses {
		if st.Code == rls.RateLimitResponse_OVER_LIMIT {
			resp.OverallCode = rls.RateLimitResponse_OVER_LIMIT
		}
	}
	if s.o.ResponseHeaders {
		addResponseHeaders(resp, s.st.Now()) // headers.go
	}
	return resp, r, nil
}

// counterKey names one counter: the domain and every entry (counted:
// a share_threshold wildcard's value in place of the request's), so each
// value of a key-only or wildcard rule has its own count, as in the
// reference. Each string is written after its length ("4:edge"), so no
// byte inside a key or value, a NUL from a JSON "\u0000" among them, can
// make two descriptors share a counter. A value longer than MaxValueLen is
// written as '#' and its SHA-256 digest in hex (64 bytes), which no length
// starts with: two long values share a count only if their digests collide.
func counterKey(domain string, es []rules.Entry) string {
	b := make([]byte, 0, 64)
	b = appendCounted(b, domain)
	for _, e := range es {
		b = appendCounted(b, e.Key)
		if len(e.Value) > MaxValueLen {
			sum := sha256.Sum256([]byte(e.Value))
			b = hex.AppendEncode(append(b, '#'), sum[:])
			continue
		}
		b = appendCounted(b, e.Value)
	}
	return string(b)
}

// appendCounted appends s to b after its length and a colon.
func appendCounted(b []byte, s string) []byte {
	b = strconv.AppendInt(b, int64(len(s)), 10)
	return append(append(b, ':'), s...)
}

// counterName is a counter as a person reads it (Explain): domain, keys and
// values between '·', a long value as its digest.
func counterName(domain string, es []rules.Entry) string {
	parts := []string{domain}
	for _, e := range es {
		v := e.Value
		if len(v) > MaxValueLen {
			sum := sha256.Sum256([]byte(v))
			v = "sha256:" + hex.EncodeToString(sum[:])
		}
		parts = append(parts, e.Key, v)
	}
	return strings.Join(parts, "·")
}
