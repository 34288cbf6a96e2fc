package service

import (
	"context"
	"slices"

	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/rules"
)

// Explain is the service decided step by step, for a learner watching it
// (the terminal app's service screen): the path each descriptor took
// through the rule tree, the counter it names, and what answered it. The
// walk is the decision's own (rules.Domain.Walk: rules/walk.go's, or
// yours in rules/exercise.go, reporting each step through rules/match.go)
// and the decision is ShouldRateLimit's own; nothing here decides anything.

// Trace is how one descriptor of a request was decided.
type Trace struct {
	Steps []rules.Step
	// Rule is the rule the walk ended on (nil: none, so the descriptor is
	// OK and counted nowhere).
	Rule *rules.Rule
	// Unlimited: Rule is unlimited, OK and counted nowhere.
	Unlimited bool
	// ReplacedBy names the matched rule whose replaces drops Rule ("" if
	// none); a replaced rule counts nothing.
	ReplacedBy string
	// Key is the counter Rule counts as a person reads it: domain, keys
	// and values between '·' (counterName; a share_threshold wildcard's
	// value in place of the request's), "" when nothing is counted.
	Key string
	// Deny: the deny cache answered OVER_LIMIT, and the store was not asked.
	Deny bool
	// Store: the store was asked (through the Guard, when there is one).
	Store bool
}

// Explain decides req with ShouldRateLimit and reports each descriptor's
// Trace beside its answer. A request ShouldRateLimit refuses, or a
// fail-closed domain while the store is down, returns its error; the
// traces are still returned then, with what was asked before the error.
func (s *Service) Explain(ctx context.Context, req *rls.RateLimitRequest) (*rls.RateLimitResponse, []Trace, error) {
	resp, r, err := s.answer(ctx, req)
	if r.descs == nil {
		return nil, nil, err
	}
	traces := make([]Trace, len(r.descs))
	if r.domain == nil {
		return resp, traces, err
	}
	for i := range r.descs {
		d, t := &r.descs[i], &traces[i]
		t.Rule = r.domain.Walk(d.entries, func(st rules.Step) { t.Steps = append(t.Steps, st) })
		t.Unlimited = d.unlimited
		if d.key != "" {
			t.Key = counterName(r.domain.Name(), d.counted)
		}
		t.Deny, t.Store = d.verdict.by == byDenyCache, d.verdict.askedStore()
	}
	for i := range traces {
		if t := &traces[i]; t.Rule != nil && !t.Unlimited && r.descs[i].rule == nil {
			t.ReplacedBy = replacer(traces, t.Rule.Name)
		}
	}
	return resp, traces, err
}

// replacer names the first matched rule whose replaces lists name.
func replacer(traces []Trace, name string) string {
	for _, t := range traces {
		if t.Rule != nil && slices.Contains(t.Rule.Replaces, name) {
			return t.Rule.Label()
		}
	}
	return ""
}
