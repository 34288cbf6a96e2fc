package service

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	rlcommon "github.com/envoyproxy/go-control-plane/envoy/extensions/common/ratelimit/v3"
	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
	"github.com/ratelimit-course/ratelimit/chapters/10-service/store"
)

// startInProcess is a service with no listener on a clock the test steps,
// as the terminal app's service screen runs one.
func startInProcess(t testing.TB, o Options) (*Service, *atomic.Int64) {
	t.Helper()
	clock, now := stepClock()
	return mustStart(t, onClock(t, o, now)), clock
}

// stepClock is a clock the test steps, at a whole minute (the minute
// windows start there), and its time. It is atomic: the sweeper reads it on
// its own goroutine.
func stepClock() (*atomic.Int64, func() time.Time) {
	clock := new(atomic.Int64)
	clock.Store(1_800_000_000)
	return clock, func() time.Time { return time.Unix(clock.Load(), 0) }
}

// startBehindOutage is startInProcess on the in-memory store behind an
// Outage switch, on the same clock and holding o.MaxKeys keys.
func startBehindOutage(t testing.TB, o Options) (*Service, *atomic.Int64, *store.Outage) {
	t.Helper()
	clock, now := stepClock()
	out := &store.Outage{}
	o = onClock(t, o, now)
	o.Store = out.Wrap(o.Store)
	return mustStart(t, o), clock, out
}

// mustStart starts a service with no listener of the test's own, closed
// when the test ends.
func mustStart(t testing.TB, o Options) *Service {
	t.Helper()
	s, err := Start(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func explain(t testing.TB, s *Service, domain string, ds ...*rlcommon.RateLimitDescriptor) (*rls.RateLimitResponse, []Trace, error) {
	t.Helper()
	return s.Explain(context.Background(), &rls.RateLimitRequest{Domain: domain, Descriptors: ds})
}

// path is a trace's walk as "how node[rule]" per step, "|" between steps.
func path(tr Trace) string {
	var parts []string
	for _, st := range tr.Steps {
		p := st.How.String()
		if st.Node != "" {
			p += " " + st.Node
		}
		if st.Rule != nil {
			p += "[" + st.Rule.Label() + "]"
		}
		if st.End {
			p += " end"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, " | ")
}

// TestExplainPaths: each kind of match in the example rules, as the walk
// took it, and the counter each names.
func TestExplainPaths(t *testing.T) {
	s, _ := startInProcess(t, Options{})
	cases := []struct {
		kv               []string
		path, rule, key  string
		unlimited, store bool
	}{
		{[]string{"api_key", "k1"}, "key only api_key[api.api_key]", "api.api_key", "api·api_key·k1", false, true},
		{[]string{"path", "/login", "remote_address", "10.0.0.1"},
			"exact value path_/login | key only remote_address[login_per_ip]", "login_per_ip", "api·path·/login·remote_address·10.0.0.1", false, true},
		{[]string{"path", "/search?q=x"}, "wildcard path_/search*[api.path_/search*]", "api.path_/search*", "api·path·/search?q=x", false, true},
		{[]string{"plan", "internal"}, "exact value plan_internal[api.plan_internal]", "api.plan_internal", "", true, false},
		{[]string{"path", "/login"}, "exact value path_/login", "", "", false, false},
		{[]string{"path", "/other"}, "no match", "", "", false, false},
		{[]string{"api_key", "k1", "path", "/x"}, "key only api_key[api.api_key] end", "", "", false, false},
	}
	for _, tc := range cases {
		resp, trs, err := explain(t, s, "api", desc(tc.kv...))
		if err != nil || len(trs) != 1 || resp.OverallCode != rls.RateLimitResponse_OK {
			t.Fatalf("%v: %v, %d traces, %v", tc.kv, err, len(trs), resp)
		}
		tr := trs[0]
		rule := ""
		if tr.Rule != nil {
			rule = tr.Rule.Label()
		}
		got := fmt.Sprintf("%s / %s / %s / unlimited %v / store %v", path(tr), rule, tr.Key, tr.Unlimited, tr.Store)
		want := fmt.Sprintf("%s / %s / %s / unlimited %v / store %v", tc.path, tc.rule, tc.key, tc.unlimited, tc.store)
		if got != want {
			t.Errorf("%v:\n got %s\nwant %s", tc.kv, got, want)
		}
	}
}

// TestExplainReplaced: a rule another matched rule replaces counts nothing,
// and the trace names the one that replaced it.
func TestExplainReplaced(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "r.yaml", `domain: r
descriptors:
  - key: user
    rate_limit: {unit: minute, requests_per_unit: 5, name: per_user, replaces: [{name: generic}]}
  - key: generic
    rate_limit: {unit: minute, requests_per_unit: 1, name: generic}
`)
	s, _ := startInProcess(t, Options{Config: dir})
	resp, trs, err := explain(t, s, "r", desc("user", "u1"), desc("generic", "g"))
	if err != nil {
		t.Fatal(err)
	}
	if len(trs) != 2 || trs[1].Rule == nil {
		t.Fatalf("%d traces, the second on no rule; want 2, the second on generic (the matching, rules.walk, found none)", len(trs))
	}
	if got := summary(resp); got != "OK OK:4 OK:-" {
		t.Errorf("answer %q, want OK OK:4 OK:-", got)
	}
	if trs[0].ReplacedBy != "" || trs[0].Key != "r·user·u1" || !trs[0].Store {
		t.Errorf("per_user: %+v", trs[0])
	}
	if trs[1].Rule.Label() != "generic" || trs[1].ReplacedBy != "per_user" || trs[1].Key != "" || trs[1].Store {
		t.Errorf("generic: replaced by %q, key %q, store %v; want per_user, none, false", trs[1].ReplacedBy, trs[1].Key, trs[1].Store)
	}
}

// TestExplainDenyCache: 10 a second per API key. The 11th is refused by the
// store, which the deny cache remembers; the 12th is answered from memory
// and the store is not asked. A second later the store answers again.
func TestExplainDenyCache(t *testing.T) {
	s, clock := startInProcess(t, Options{})
	var stores, denies int
	var last string
	for range 12 {
		resp, trs, err := explain(t, s, "api", desc("api_key", "k1"))
		if err != nil {
			t.Fatal(err)
		}
		last = fmt.Sprintf("%s store %v deny %v", summary(resp), trs[0].Store, trs[0].Deny)
		if trs[0].Store {
			stores++
		}
		if trs[0].Deny {
			denies++
		}
	}
	if stores != 11 || denies != 1 || last != "OVER_LIMIT OVER_LIMIT:0 store false deny true" {
		t.Errorf("12 requests: %d store calls, %d deny-cache answers, the last %q; want 11, 1, OVER_LIMIT from the deny cache", stores, denies, last)
	}
	clock.Add(1)
	resp, trs, _ := explain(t, s, "api", desc("api_key", "k1"))
	if got := summary(resp); got != "OK OK:9" || !trs[0].Store || trs[0].Deny {
		t.Errorf("a second later: %s store %v deny %v; want OK OK:9 from the store", got, trs[0].Store, trs[0].Deny)
	}
}
