package service

import (
	"context"
	"slices"

	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
)

// Explain is the service decided step by step, for a learner watching it
// (the terminal app's service screen): the path each descriptor took
// through the rule tree, the counter it names, and what answered it. The
// walk is the decision's own (walk in walk.go, or yours in exercise.go,
// reporting each step through match.go's report) and the decision is
// ShouldRateLimit's own; nothing here decides anything.

// How is how one entry moved down one level of a domain's tree.
type How int

const (
	NoMatch  How = iota // no child takes the entry: the walk ends, no rule
	Exact               // the child "key_value"
	Wildcard            // a child "key_prefix*" whose prefix the value starts with
	KeyOnly             // the child "key": any value, each its own counter
)

func (h How) String() string {
	return [...]string{"no match", "exact value", "wildcard", "key only"}[h]
}

// Step is one entry's move: how it matched and the child it took (its name
// in the tree, such as "path_/search*"), the rule on that child if any,
// and End when that child has no children while entries remain (the walk
// stops there and matches no rule).
type Step struct {
	Entry Entry
	How   How
	Node  string
	Rule  *Rule
	End   bool
}

// Trace is how one descriptor of a request was decided.
type Trace struct {
	Steps []Step
	// Rule is the rule the walk ended on (nil: none, so the descriptor is
	// OK and counted nowhere).
	Rule *Rule
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
		t.Rule = r.domain.walk(d.entries, func(st Step) { t.Steps = append(t.Steps, st) })
		t.Unlimited = d.unlimited
		if d.key != "" {
			t.Key = counterName(r.domain.name, d.counted)
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
