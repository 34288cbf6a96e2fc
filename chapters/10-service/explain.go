package service

import (
	"context"
	"slices"
	"strings"
	"sync"

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
	// Key is the counter Rule counts, its separators shown as '·' ("" when
	// nothing is counted).
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
	r, err := s.cur.Load().check(req)
	if err != nil {
		return nil, nil, err
	}
	traces := make([]Trace, len(r.descs))
	if r.domain != nil {
		rules, unlimited := r.domain.limitsToCheck(r.descs)
		for i, es := range r.descs {
			t := &traces[i]
			t.Rule = r.domain.walk(es, func(st Step) { t.Steps = append(t.Steps, st) })
			t.Unlimited = unlimited[i]
			if rules[i] != nil {
				t.Key = counterKey(r.domain.name, es)
			}
		}
		for i := range traces {
			if t := &traces[i]; t.Rule != nil && !t.Unlimited && rules[i] == nil {
				t.ReplacedBy = replacer(traces, t.Rule.Name)
			}
		}
	}
	rec := &recorder{deny: map[string]bool{}, store: map[string]bool{}}
	resp, err := s.ShouldRateLimit(context.WithValue(ctx, recorderCtx{}, rec), req)
	for i := range traces {
		t := &traces[i]
		t.Deny, t.Store = rec.deny[t.Key], rec.store[t.Key]
		t.Key = strings.ReplaceAll(t.Key, "\x00", "·")
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

// recorder notes, for one Explain, which counters the deny cache answered
// and which went to the store. decide and count call the two notes; with
// no recorder in the context (every ordinary request) they do nothing.
type recorder struct {
	mu          sync.Mutex
	deny, store map[string]bool
}

type recorderCtx struct{}

func noteDeny(ctx context.Context, key string)  { note(ctx, key, true) }
func noteStore(ctx context.Context, key string) { note(ctx, key, false) }

func note(ctx context.Context, key string, deny bool) {
	r, _ := ctx.Value(recorderCtx{}).(*recorder)
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if deny {
		r.deny[key] = true
	} else {
		r.store[key] = true
	}
}
