//go:build !exercise10

package service

import (
	"context"
	"fmt"
	"testing"
	"time"

	rlcommon "github.com/envoyproxy/go-control-plane/envoy/extensions/common/ratelimit/v3"
	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"

	"github.com/ratelimit-course/ratelimit/internal/redistest"
)

// TestRequestDescriptorsCountedAtOnce: one caller, one request at a time,
// each with four descriptors of four counters, on Redis. The four are
// counted at once: while the first script call is out, the Batcher sends
// the others (in pipelines of their own while a worker is idle, together
// once they queue). Before, one request's descriptors were counted one
// after another and every call went alone (0 through the Batcher's
// pipelines). Each descriptor is still counted exactly: the limit of 5
// admits 5 of the 8 requests for each counter.
func TestRequestDescriptorsCountedAtOnce(t *testing.T) {
	addr := redistest.Addr(t)
	d := uniqueDomain(t)
	rules := fmt.Sprintf("domain: %s\ndescriptors:\n  - key: user\n    rate_limit: {unit: day, requests_per_unit: 5}\n", d)
	s := start(t, Options{Config: writeRules(t, rules), RedisAddr: addr, StoreTimeout: 5 * time.Second, DenyCache: -1})
	req := &rls.RateLimitRequest{Domain: d, Descriptors: []*rlcommon.RateLimitDescriptor{
		desc("user", "a"), desc("user", "b"), desc("user", "c"), desc("user", "d")}}
	for i := range 8 {
		r, err := s.ShouldRateLimit(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		for j, st := range r.Statuses {
			want, remaining := rls.RateLimitResponse_OK, uint32(4-i)
			if i >= 5 {
				want, remaining = rls.RateLimitResponse_OVER_LIMIT, 0
			}
			if st.Code != want || st.LimitRemaining != remaining {
				t.Errorf("request %d, descriptor %d: %v with %d remaining, want %v with %d", i+1, j+1, st.Code, st.LimitRemaining, want, remaining)
			}
		}
	}
	p, batched, direct := pipelineStats(t, s)
	t.Logf("%d script calls in %d pipelines, %d alone", batched, p, direct)
	if batched == 0 || batched+direct < 32 {
		t.Errorf("%d calls in %d pipelines and %d alone: want 32 calls or more, some of them sent while another was out", batched, p, direct)
	}
}

// TestAlikeDescriptorsCountedInOrder: a request that names one counter
// twice (and another once) counts it in the request's order, as the
// reference does: at a limit of 1 the first of the two is OK and the
// second OVER_LIMIT, every time, while the other counter is counted beside
// them.
func TestAlikeDescriptorsCountedInOrder(t *testing.T) {
	addr := redistest.Addr(t)
	d := uniqueDomain(t)
	rules := fmt.Sprintf("domain: %s\ndescriptors:\n  - key: user\n    rate_limit: {unit: day, requests_per_unit: 1}\n", d)
	s := start(t, Options{Config: writeRules(t, rules), RedisAddr: addr, StoreTimeout: 5 * time.Second, DenyCache: -1})
	for i := range 50 {
		u := fmt.Sprintf("u%d", i)
		req := &rls.RateLimitRequest{Domain: d, Descriptors: []*rlcommon.RateLimitDescriptor{
			desc("user", "other"+u), desc("user", u), desc("user", u)}}
		r, err := s.ShouldRateLimit(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		got := []rls.RateLimitResponse_Code{r.Statuses[0].Code, r.Statuses[1].Code, r.Statuses[2].Code}
		want := []rls.RateLimitResponse_Code{rls.RateLimitResponse_OK, rls.RateLimitResponse_OK, rls.RateLimitResponse_OVER_LIMIT}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("request %d: %v, want %v", i+1, got, want)
		}
	}
}
