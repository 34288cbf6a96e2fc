package service

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
	"google.golang.org/protobuf/types/known/durationpb"
)

// headerString is a response's headers to add, "Name: value" joined by
// "; ", or "none".
func headerString(resp *rls.RateLimitResponse) string {
	var hs []string
	for _, h := range resp.GetResponseHeadersToAdd() {
		hs = append(hs, h.GetKey()+": "+h.GetValue())
	}
	if len(hs) == 0 {
		return "none"
	}
	return strings.Join(hs, "; ")
}

// TestResponseHeadersChoice: the descriptor the headers describe is chosen
// as the reference chooses it (the smallest remaining, the first on a tie,
// the last refusal over everything), and a status with no limit is never
// chosen.
func TestResponseHeadersChoice(t *testing.T) {
	ok := func(limit, remaining uint32, unit rls.RateLimitResponse_RateLimit_Unit, reset int64) *rls.RateLimitResponse_DescriptorStatus {
		st := &rls.RateLimitResponse_DescriptorStatus{Code: rls.RateLimitResponse_OK, LimitRemaining: remaining,
			CurrentLimit: &rls.RateLimitResponse_RateLimit{RequestsPerUnit: limit, Unit: unit}}
		if reset > 0 {
			st.DurationUntilReset = durationpb.New(time.Duration(reset) * time.Second)
		}
		return st
	}
	over := func(limit uint32, unit rls.RateLimitResponse_RateLimit_Unit, reset int64) *rls.RateLimitResponse_DescriptorStatus {
		st := ok(limit, 0, unit, reset)
		st.Code = rls.RateLimitResponse_OVER_LIMIT
		return st
	}
	const minute, hour = rls.RateLimitResponse_RateLimit_MINUTE, rls.RateLimitResponse_RateLimit_HOUR
	unlimited := &rls.RateLimitResponse_DescriptorStatus{Code: rls.RateLimitResponse_OK, LimitRemaining: 1<<32 - 1}
	noRule := &rls.RateLimitResponse_DescriptorStatus{Code: rls.RateLimitResponse_OK}
	pastBounds := &rls.RateLimitResponse_DescriptorStatus{Code: rls.RateLimitResponse_OVER_LIMIT}
	now := time.Unix(1_000_000_015, 0) // 5 s left in its minute, 785 in its hour

	for _, tc := range []struct {
		name     string
		statuses []*rls.RateLimitResponse_DescriptorStatus
		want     string
	}{
		{"no status with a limit", []*rls.RateLimitResponse_DescriptorStatus{unlimited, noRule}, "none"},
		{"one limit", []*rls.RateLimitResponse_DescriptorStatus{noRule, ok(20, 7, minute, 5)},
			"RateLimit-Limit: 20; RateLimit-Remaining: 7; RateLimit-Reset: 5"},
		{"the smallest remaining", []*rls.RateLimitResponse_DescriptorStatus{ok(20, 7, minute, 5), ok(100, 3, hour, 785), ok(10, 9, minute, 5)},
			"RateLimit-Limit: 100; RateLimit-Remaining: 3; RateLimit-Reset: 785"},
		{"a tie keeps the first", []*rls.RateLimitResponse_DescriptorStatus{ok(20, 3, minute, 5), ok(100, 3, hour, 785)},
			"RateLimit-Limit: 20; RateLimit-Remaining: 3; RateLimit-Reset: 5"},
		{"a refusal wins over 0 remaining", []*rls.RateLimitResponse_DescriptorStatus{ok(20, 0, minute, 5), over(100, hour, 785)},
			"RateLimit-Limit: 100; RateLimit-Remaining: 0; RateLimit-Reset: 785"},
		{"the last refusal", []*rls.RateLimitResponse_DescriptorStatus{over(20, minute, 5), ok(100, 0, hour, 785), over(7, hour, 785)},
			"RateLimit-Limit: 7; RateLimit-Remaining: 0; RateLimit-Reset: 785"},
		{"a refusal with no limit is not described", []*rls.RateLimitResponse_DescriptorStatus{ok(20, 4, minute, 5), pastBounds},
			"RateLimit-Limit: 20; RateLimit-Remaining: 4; RateLimit-Reset: 5"},
		{"no duration_until_reset: the unit's boundary at now", []*rls.RateLimitResponse_DescriptorStatus{ok(20, 4, hour, 0)},
			"RateLimit-Limit: 20; RateLimit-Remaining: 4; RateLimit-Reset: 785"},
	} {
		resp := &rls.RateLimitResponse{Statuses: tc.statuses}
		addResponseHeaders(resp, now)
		if got := headerString(resp); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

// TestResponseHeadersServed: with Options.ResponseHeaders the headers come
// with every answer over gRPC and in /json's body (responseHeadersToAdd),
// also on a refusal; without it there are none.
func TestResponseHeadersServed(t *testing.T) {
	rules := writeRules(t, `
domain: hdr
descriptors:
  - key: user
    rate_limit: {unit: minute, requests_per_unit: 2}
  - key: plan
    rate_limit: {unit: hour, requests_per_unit: 100}
`)
	now := time.Unix(1_000_000_015, 0) // 5 s left in the minute
	clock := func() time.Time { return now }
	on := start(t, onClock(t, Options{Config: rules, ResponseHeaders: true}, clock))
	off := start(t, onClock(t, Options{Config: rules}, clock))

	c := client(t, on)
	for i, want := range []string{
		"RateLimit-Limit: 2; RateLimit-Remaining: 1; RateLimit-Reset: 5",
		"RateLimit-Limit: 2; RateLimit-Remaining: 0; RateLimit-Reset: 5",
		"RateLimit-Limit: 2; RateLimit-Remaining: 0; RateLimit-Reset: 5", // refused
	} {
		resp := ask(t, c, "hdr", desc("plan", "free"), desc("user", "ann"))
		if got := headerString(resp); got != want {
			t.Errorf("request %d over gRPC: %s, want %s", i+1, got, want)
		}
	}
	if got := headerString(ask(t, client(t, off), "hdr", desc("user", "ann"))); got != "none" {
		t.Errorf("without ResponseHeaders: %s, want none", got)
	}

	body := `{"domain":"hdr","descriptors":[{"entries":[{"key":"plan","value":"free"}]}]}`
	code, out := postJSON(t, on, body)
	var got struct {
		ResponseHeadersToAdd []struct{ Key, Value string } `json:"responseHeadersToAdd"`
	}
	if err := json.Unmarshal([]byte(out), &got); code != http.StatusOK || err != nil {
		t.Fatalf("POST /json: %d %v: %s", code, err, out)
	}
	want := "[{RateLimit-Limit 100} {RateLimit-Remaining 96} {RateLimit-Reset 785}]"
	if s := fmt.Sprint(got.ResponseHeadersToAdd); s != want {
		t.Errorf("POST /json: responseHeadersToAdd %s, want %s (body %s)", s, want, out)
	}
	if _, out := postJSON(t, off, body); strings.Contains(out, "responseHeadersToAdd") {
		t.Errorf("without ResponseHeaders, /json: %s", out)
	}
}

// TestResponseHeadersFlag: serve's --response-headers sets the option, off
// unless given.
func TestResponseHeadersFlag(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{{nil, false}, {[]string{"--response-headers"}, true}, {[]string{"--response-headers=false"}, false}} {
		var o Options
		var cluster, mode string
		if err := serveFlags(&o, &cluster, &mode).Parse(tc.args); err != nil || o.ResponseHeaders != tc.want {
			t.Errorf("%v: ResponseHeaders %v, %v; want %v", tc.args, o.ResponseHeaders, err, tc.want)
		}
	}
}
