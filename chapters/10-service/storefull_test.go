package service

import (
	"context"
	"errors"
	"strings"
	"testing"

	rlcommon "github.com/envoyproxy/go-control-plane/envoy/extensions/common/ratelimit/v3"
	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// TestStoreFullAnswersByFailureMode: with the in-memory store at MaxKeys,
// a new key of a fail-closed domain is answered as an outage is
// (ErrUnavailable: gRPC UNAVAILABLE, HTTP 503), never OVER_LIMIT; one of a
// fail-open domain is admitted uncounted; the keys held go on counting.
// The store logs one line when it fills, however many keys it refuses,
// and one when a sweep leaves it room again, with the count refused.
func TestStoreFullAnswersByFailureMode(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "open.yaml", "domain: open\nfailure_mode: open\ndescriptors:\n  - key: k\n    rate_limit: {unit: minute, requests_per_unit: 5}\n")
	writeFile(t, dir, "closed.yaml", "domain: closed\nfailure_mode: closed\ndescriptors:\n  - key: k\n    rate_limit: {unit: minute, requests_per_unit: 5}\n")
	var log syncBuffer
	clock, now := stepClock()
	s := start(t, onClock(t, Options{Config: dir, MaxKeys: 2, Log: &log}, now))
	ask := func(domain, v string) (string, error) {
		resp, err := s.ShouldRateLimit(context.Background(), &rls.RateLimitRequest{Domain: domain,
			Descriptors: []*rlcommon.RateLimitDescriptor{desc("k", v)}})
		return summary(resp), err
	}
	want := func(domain, v, answer string) {
		t.Helper()
		if got, err := ask(domain, v); got != answer || err != nil {
			t.Errorf("%s %s: %q %v, want %q", domain, v, got, err, answer)
		}
	}
	lines := func(prefix string) int { return strings.Count(log.String(), prefix) }

	want("open", "a", "OK OK:4")
	want("closed", "b", "OK OK:4") // two keys held: the store is full
	for range 3 {
		if got, err := ask("closed", "new"); !errors.Is(err, ErrUnavailable) {
			t.Errorf("closed, a new key in a full store: %q %v, want ErrUnavailable", got, err)
		}
	}
	_, err := client(t, s).ShouldRateLimit(context.Background(), &rls.RateLimitRequest{Domain: "closed",
		Descriptors: []*rlcommon.RateLimitDescriptor{desc("k", "new")}})
	if status.Code(err) != codes.Unavailable {
		t.Errorf("gRPC, closed, a new key in a full store: %v, want UNAVAILABLE", err)
	}
	if code, body := postJSON(t, s, `{"domain":"closed","descriptors":[{"entries":[{"key":"k","value":"new"}]}]}`); code != 503 {
		t.Errorf("HTTP, closed, a new key in a full store: %d %q, want 503", code, body)
	}
	want("open", "new", "OK OK:-") // failed open: admitted, counted nowhere
	want("open", "a", "OK OK:3")   // held: counting on
	want("closed", "b", "OK OK:3")
	if got := metric(t, s, `ratelimit_store_full_total{domain="closed",mode="closed"}`); got != "5" {
		t.Errorf("store full, closed: %q, want 5", got)
	}
	if n := lines("in-memory store full: it holds 2 keys (--max-keys 2)"); n != 1 {
		t.Errorf("%d lines saying the store is full, want 1:\n%s", n, log.String())
	}

	clock.Add(120) // both windows over: a sweep drops both keys
	s.st.(interface{ Sweep() }).Sweep()
	s.st.(interface{ Sweep() }).Sweep() // nothing more to say
	if n := lines("in-memory store has room again: it holds 0 keys of 2 (--max-keys); 6 new key(s) were refused while it was full"); n != 1 {
		t.Errorf("%d lines saying the store has room again, want 1:\n%s", n, log.String())
	}
	want("closed", "new", "OK OK:4")
}

// TestStoreFullIsNoOutage: behind the Guard (an Outage switch given), a
// full store is answered by the failure mode all the same, and its
// refusals are not store failures: the breaker stays closed and the keys
// held are counted on.
func TestStoreFullIsNoOutage(t *testing.T) {
	s, _, _ := startBehindOutage(t, Options{MaxKeys: 1})
	if resp, _, err := explain(t, s, "payments", desc("account", "a1")); summary(resp) != "OK OK:2" || err != nil {
		t.Fatalf("first key: %s %v, want OK OK:2", summary(resp), err)
	}
	for i := range 5 {
		if _, _, err := explain(t, s, "payments", desc("account", "new")); !errors.Is(err, ErrUnavailable) {
			t.Errorf("new key #%d in a full store: %v, want ErrUnavailable", i, err)
		}
	}
	if resp, _, err := explain(t, s, "api", desc("api_key", "new")); summary(resp) != "OK OK:-" || err != nil {
		t.Errorf("fail-open domain, new key: %s %v, want OK with no limit", summary(resp), err)
	}
	if s.Breaker() != "closed" {
		t.Errorf("breaker %s after refusals for room, want closed: the store answered", s.Breaker())
	}
	if resp, _, err := explain(t, s, "payments", desc("account", "a1")); summary(resp) != "OK OK:1" || err != nil {
		t.Errorf("the key held: %s %v, want OK OK:1", summary(resp), err)
	}
}
