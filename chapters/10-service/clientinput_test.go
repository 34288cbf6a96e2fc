package service

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strings"
	"testing"

	rlcommon "github.com/envoyproxy/go-control-plane/envoy/extensions/common/ratelimit/v3"
	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/rules"
)

// clientRules: a key-only rule (each value its own counter), a rule on a
// header value, and one so high that only a huge hits_addend passes it.
const clientRules = `
domain: edge
descriptors:
  - key: k
    rate_limit: {unit: day, requests_per_unit: 5}
  - key: hdr
    rate_limit: {unit: day, requests_per_unit: 2}
  - key: big
    rate_limit: {unit: hour, requests_per_unit: 1000000000}
`

// Behind Envoy an error lets the request through, so nothing a client
// controls may turn a request into one: each row of this table was
// INVALID_ARGUMENT for the whole request before (nothing counted, Envoy
// allowed it), and is now what envoyproxy/ratelimit answers (E33 compares
// the same requests with the reference itself).
func TestClientContentIsAnswered(t *testing.T) {
	s := start(t, Options{Config: writeRules(t, clientRules)})
	long := strings.Repeat("x", 1025)
	seventeen := desc()
	for i := range 17 {
		seventeen.Entries = append(seventeen.Entries, &rlcommon.RateLimitDescriptor_Entry{Key: fmt.Sprint("e", i), Value: "v"})
	}
	many := func(n int, d func(i int) *rlcommon.RateLimitDescriptor) []*rlcommon.RateLimitDescriptor {
		ds := make([]*rlcommon.RateLimitDescriptor, n)
		for i := range ds {
			ds[i] = d(i)
		}
		return ds
	}
	negative := desc("k", "neg")
	negative.IsNegativeHits = true
	override := desc("k", "override")
	override.Limit = &rlcommon.RateLimitDescriptor_RateLimitOverride{RequestsPerUnit: 1000, Unit: 4}
	for _, tc := range []struct {
		name string
		req  *rls.RateLimitRequest
		want string // summary: overall code, then each status
	}{
		{"a 1,025-byte header value beside a victim",
			&rls.RateLimitRequest{Domain: "edge", Descriptors: []*rlcommon.RateLimitDescriptor{desc("k", "victim"), desc("other", long)}},
			"OK OK:4 OK:-"},
		{"hits_addend 2^32-1", &rls.RateLimitRequest{Domain: "edge", HitsAddend: math.MaxUint32,
			Descriptors: []*rlcommon.RateLimitDescriptor{desc("k", "huge")}}, "OVER_LIMIT OVER_LIMIT:0"},
		{"hits_addend 2^32-1 on 1e9 per hour", &rls.RateLimitRequest{Domain: "edge", HitsAddend: math.MaxUint32,
			Descriptors: []*rlcommon.RateLimitDescriptor{desc("big", "b")}}, "OVER_LIMIT OVER_LIMIT:0"},
		{"a descriptor's hits_addend 2^64-1", &rls.RateLimitRequest{Domain: "edge",
			Descriptors: []*rlcommon.RateLimitDescriptor{withHits(desc("k", "huger"), math.MaxUint64)}}, "OVER_LIMIT OVER_LIMIT:0"},
		{"hits_addend 0: a check", &rls.RateLimitRequest{Domain: "edge",
			Descriptors: []*rlcommon.RateLimitDescriptor{withHits(desc("k", "victim"), 0)}}, "OK OK:4"},
		{"the check counted nothing", &rls.RateLimitRequest{Domain: "edge",
			Descriptors: []*rlcommon.RateLimitDescriptor{withHits(desc("k", "victim"), 0)}}, "OK OK:4"},
		{"an empty key", &rls.RateLimitRequest{Domain: "edge", Descriptors: []*rlcommon.RateLimitDescriptor{desc("", "v")}}, "OK OK:-"},
		{"a descriptor with no entries", &rls.RateLimitRequest{Domain: "edge", Descriptors: []*rlcommon.RateLimitDescriptor{{}}}, "OK OK:-"},
		{"17 entries", &rls.RateLimitRequest{Domain: "edge", Descriptors: []*rlcommon.RateLimitDescriptor{seventeen}}, "OK OK:-"},
		{"a 257-byte key", &rls.RateLimitRequest{Domain: "edge",
			Descriptors: []*rlcommon.RateLimitDescriptor{desc(strings.Repeat("k", 257), "v")}}, "OK OK:-"},
		{"is_negative_hits counts as hits (the reference ignores it)", &rls.RateLimitRequest{Domain: "edge",
			Descriptors: []*rlcommon.RateLimitDescriptor{negative}}, "OK OK:4"},
		{"a limit override is ignored: the rules set every limit", &rls.RateLimitRequest{Domain: "edge",
			Descriptors: []*rlcommon.RateLimitDescriptor{override}}, "OK OK:4"},
	} {
		resp, err := s.ShouldRateLimit(context.Background(), tc.req)
		if err != nil {
			t.Errorf("%s: %v, want an answer", tc.name, err)
			continue
		}
		if got := summary(resp); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}

	// 65 descriptors are all decided; past MaxDescriptors each one is
	// OVER_LIMIT, counted nowhere (fail closed, not an error).
	resp, err := s.ShouldRateLimit(context.Background(), &rls.RateLimitRequest{Domain: "edge",
		Descriptors: many(65, func(i int) *rlcommon.RateLimitDescriptor { return desc("k", fmt.Sprint("m", i)) })})
	if err != nil || resp.OverallCode != rls.RateLimitResponse_OK || len(resp.Statuses) != 65 || resp.Statuses[64].LimitRemaining != 4 {
		t.Errorf("65 descriptors: %v, %v; want all OK, 4 left each", summary(resp), err)
	}
	resp, err = s.ShouldRateLimit(context.Background(), &rls.RateLimitRequest{Domain: "edge",
		Descriptors: many(MaxDescriptors+3, func(int) *rlcommon.RateLimitDescriptor { return desc("other", "x") })})
	if err != nil || resp.OverallCode != rls.RateLimitResponse_OVER_LIMIT || resp.Statuses[MaxDescriptors-1].Code != rls.RateLimitResponse_OK ||
		resp.Statuses[MaxDescriptors].Code != rls.RateLimitResponse_OVER_LIMIT || len(resp.Statuses) != MaxDescriptors+3 {
		t.Errorf("%d descriptors: %v; want the first %d OK and the rest OVER_LIMIT", MaxDescriptors+3, err, MaxDescriptors)
	}
	wantMetric(t, s, "ratelimit_descriptors_past_bound_total", "3")
}

// A long value is counted, under a digest: the same long value shares one
// count, and two long values that differ only past the first MaxValueLen
// bytes count apart. Over HTTP as over gRPC.
func TestLongValuesAreCounted(t *testing.T) {
	s := start(t, Options{Config: writeRules(t, clientRules)})
	a := strings.Repeat("a", 5000) + "1"
	b := strings.Repeat("a", 5000) + "2"
	body := func(v string) string {
		return `{"domain":"edge","descriptors":[{"entries":[{"key":"hdr","value":"` + v + `"}]}]}`
	}
	for i, want := range []int{http.StatusOK, http.StatusOK, http.StatusTooManyRequests} {
		if code, msg := postJSON(t, s, body(a)); code != want {
			t.Errorf("value a, request %d: %d %s, want %d", i+1, code, clip(msg), want)
		}
	}
	resp, err := s.ShouldRateLimit(context.Background(), &rls.RateLimitRequest{Domain: "edge",
		Descriptors: []*rlcommon.RateLimitDescriptor{desc("hdr", b)}})
	if err != nil || summary(resp) != "OK OK:1" {
		t.Errorf("value b after a was refused: %s, %v; want its own count (OK, 1 left)", summary(resp), err)
	}
	if k := counterKey("edge", []rules.Entry{{Key: "hdr", Value: a}}); len(k) > 100 || k == counterKey("edge", []rules.Entry{{Key: "hdr", Value: b}}) {
		t.Errorf("counter names: %d bytes, a and b equal: %v; want a digest each", len(k), k == counterKey("edge", []rules.Entry{{Key: "hdr", Value: b}}))
	}
}
