//go:build !exercise10

package service

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	rlcommon "github.com/envoyproxy/go-control-plane/envoy/extensions/common/ratelimit/v3"
	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/ratelimit-course/ratelimit/internal/redistest"
)

// TestE32_Redis plays E32 on Redis: the same answers, each counted by one
// chapter 06 script call.
func TestE32_Redis(t *testing.T) {
	addr := redistest.Addr(t)
	d := uniqueDomain(t)
	s := start(t, Options{Config: writeRules(t, rulesFor(e32Rules, "e32", d)), RedisAddr: addr, StoreTimeout: 2 * time.Second})
	runE32(t, s, d)
}

// TestE32_RedisCluster plays E32 on a Redis Cluster of 3 primaries: every
// counter under its own hash tag, as in chapter 06.
func TestE32_RedisCluster(t *testing.T) {
	cl := redistest.NewCluster(t)
	d := uniqueDomain(t)
	s := start(t, Options{Config: writeRules(t, rulesFor(e32Rules, "e32", d)), RedisCluster: cl.Addrs, StoreTimeout: 2 * time.Second})
	runE32(t, s, d)
}

const e34Rules = `
domain: e34
descriptors:
  - key: client
    rate_limit: {unit: day, requests_per_unit: 20}
  - key: bucket
    rate_limit: {unit: day, requests_per_unit: 20, algorithm: token-bucket}
`

// TestE34_DenyCache sends an abusive key 10× its limit (200 requests, 20
// allowed per window) with and without the deny cache: the same decisions,
// and Redis calls per window of at most the limit + a few with the cache
// against one per request without it.
func TestE34_DenyCache(t *testing.T) {
	addr := redistest.Addr(t)
	for _, key := range []string{"client", "bucket"} {
		var runs [2]string
		var calls [2]int64
		for i, cache := range []int{0, -1} {
			d := uniqueDomain(t)
			s := start(t, Options{Config: writeRules(t, rulesFor(e34Rules, "e34", d)), RedisAddr: addr,
				DenyCache: cache, StoreTimeout: 2 * time.Second})
			c := client(t, s)
			var seq strings.Builder
			for range 200 {
				seq.WriteString(summary(ask(t, c, d, desc(key, "abuser"))) + ";")
			}
			runs[i], calls[i] = seq.String(), storeMetric(t, s, "ratelimit_store_calls_total")
			if cache == 0 {
				if hits := metric(t, s, `ratelimit_deny_cache_hits_total{domain="`+d+`",rule="`+d+`.`+key+`"}`); hits != "179" {
					t.Errorf("%s: deny-cache hits = %q, want 179", key, hits)
				}
			}
		}
		t.Logf("E34 %s: Redis calls for 200 requests at limit 20: %d with the deny cache, %d without", key, calls[0], calls[1])
		if runs[0] != runs[1] {
			t.Errorf("%s: decisions differ with the cache:\n%s\n%s", key, runs[0], runs[1])
		}
		if calls[0] > 20+3 || calls[1] != 200 {
			t.Errorf("%s: Redis calls %d with the cache (want <= 23), %d without (want 200)", key, calls[0], calls[1])
		}
		if strings.Count(runs[0], "OK OK:") != 20 {
			t.Errorf("%s: %d allowed, want 20", key, strings.Count(runs[0], "OK OK:"))
		}
	}
}

// TestE35_BatchingExact: 64 callers at once on one key with limit 100 (and
// on 8 keys with limit 10 each) through shared pipelines: exactly the limit
// is allowed, and the pipelines carried more than one call on average.
func TestE35_BatchingExact(t *testing.T) {
	addr := redistest.Addr(t)
	d := uniqueDomain(t)
	rules := fmt.Sprintf("domain: %s\ndescriptors:\n  - key: one\n    rate_limit: {unit: day, requests_per_unit: 100}\n  - key: many\n    rate_limit: {unit: day, requests_per_unit: 10}\n", d)
	s := start(t, Options{Config: writeRules(t, rules), RedisAddr: addr, StoreTimeout: 5 * time.Second, DenyCache: -1})
	var okOne, okMany atomic.Int64
	var wg sync.WaitGroup
	for g := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 10 {
				req := &rls.RateLimitRequest{Domain: d, Descriptors: []*rlcommon.RateLimitDescriptor{desc("one", "k")}}
				if r, err := s.ShouldRateLimit(context.Background(), req); err != nil {
					t.Error(err)
					return
				} else if r.OverallCode == rls.RateLimitResponse_OK {
					okOne.Add(1)
				}
				req = &rls.RateLimitRequest{Domain: d, Descriptors: []*rlcommon.RateLimitDescriptor{desc("many", fmt.Sprint((g+i)%8))}}
				if r, err := s.ShouldRateLimit(context.Background(), req); err != nil {
					t.Error(err)
					return
				} else if r.OverallCode == rls.RateLimitResponse_OK {
					okMany.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	if okOne.Load() != 100 || okMany.Load() != 80 {
		t.Errorf("allowed %d on one key (want 100) and %d on 8 keys (want 80)", okOne.Load(), okMany.Load())
	}
	p, batched, direct := pipelineStats(t, s)
	t.Logf("E35: %d script calls in %d pipelines (%.1f per pipeline), %d sent alone", batched, p, float64(batched)/float64(max(p, 1)), direct)
	if batched+direct < 1280 || p >= batched {
		t.Errorf("%d pipelines carried %d calls, %d went alone: want 1280 calls or more, and fewer pipelines than calls", p, batched, direct)
	}
}

// TestE38_StoreFails freezes (SIGSTOP) and then kills the service's own
// Redis: the fail-open domain answers OK and counts the failure, the
// fail-closed one answers UNAVAILABLE over gRPC and 503 with Retry-After: 1
// over HTTP (not 429: the client asked for nothing too much), both within a bounded time (the Guard's deadline, or at once once
// the breaker is open); after a restart, decisions come from Redis again.
// The bound is proven by who answers, not by a stopwatch: the frozen or
// dead Redis answers nothing, and ask's own deadline (10 s) is shorter
// than the Guard's longest wait (30 s), so an OK before it can only be the
// Guard's deadline and patience at work. The time taken is logged.
func TestE38_StoreFails(t *testing.T) {
	red := redistest.StartDedicated(t)
	dir := t.TempDir()
	writeFile(t, dir, "open.yaml", "domain: open\nfailure_mode: open\ndescriptors:\n  - key: k\n    rate_limit: {unit: day, requests_per_unit: 1000}\n")
	writeFile(t, dir, "closed.yaml", "domain: closed\nfailure_mode: closed\ndescriptors:\n  - key: k\n    rate_limit: {unit: day, requests_per_unit: 1000}\n")
	const deadline = 300 * time.Millisecond
	s := start(t, Options{Config: dir, RedisAddr: red.Addr(), StoreTimeout: deadline})
	c := client(t, s)
	check := func(phase string) {
		t.Helper()
		var slowest time.Duration
		defer func() { t.Logf("%s: the open domain answered within %v (deadline %v)", phase, slowest, deadline) }()
		for i := range 5 {
			begin := time.Now()
			r := ask(t, c, "open", desc("k", "v")) // fails the test past its 10 s deadline
			slowest = max(slowest, time.Since(begin))
			if r.OverallCode != rls.RateLimitResponse_OK {
				t.Errorf("%s #%d: open domain answered %v, want OK", phase, i, r.OverallCode)
			}
			_, err := c.ShouldRateLimit(context.Background(), &rls.RateLimitRequest{Domain: "closed",
				Descriptors: []*rlcommon.RateLimitDescriptor{desc("k", "v")}})
			if status.Code(err) != codes.Unavailable {
				t.Errorf("%s #%d: closed domain over gRPC: %v, want Unavailable", phase, i, err)
			}
			hr, err := http.Post("http://"+s.HTTPAddr()+"/json", "application/json",
				strings.NewReader(`{"domain":"closed","descriptors":[{"entries":[{"key":"k","value":"v"}]}]}`))
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(hr.Body)
			hr.Body.Close()
			if hr.StatusCode != http.StatusServiceUnavailable || hr.Header.Get("Retry-After") != "1" ||
				strings.TrimSpace(string(b)) != "rate limiter unavailable, try again shortly" {
				t.Errorf("%s #%d: closed domain over HTTP: %d Retry-After %q %q, want 503, 1 and the one line",
					phase, i, hr.StatusCode, hr.Header.Get("Retry-After"), b)
			}
		}
	}
	if r := ask(t, c, "closed", desc("k", "v")); summary(r) != "OK OK:999" {
		t.Fatalf("before the failure: %s", summary(r))
	}
	if err := red.Pause(); err != nil {
		t.Fatal(err)
	}
	check("SIGSTOP")
	if err := red.Resume(); err != nil {
		t.Fatal(err)
	}
	if err := red.Kill(); err != nil {
		t.Fatal(err)
	}
	check("killed")
	wantMetric(t, s, `ratelimit_store_unavailable_total{domain="open",mode="open"}`, "10")
	wantMetric(t, s, `ratelimit_store_unavailable_total{domain="closed",mode="closed"}`, "20")
	// A fail-open answer is still a decision by its code (before, the
	// series stopped counting while the store was down).
	wantMetric(t, s, `ratelimit_decisions_total{code="OK",domain="open",rule="open.k"}`, "10")
	if err := red.Restart(); err != nil {
		t.Fatal(err)
	}
	// The breaker probes again after its cool-down (1 s); the restarted
	// Redis is empty, so the count starts over.
	poll(t, 30*time.Second, func() bool {
		r, err := c.ShouldRateLimit(context.Background(), &rls.RateLimitRequest{Domain: "closed",
			Descriptors: []*rlcommon.RateLimitDescriptor{desc("k", "after")}})
		return err == nil && summary(r) == "OK OK:999"
	})
}

// TestE37_ReloadRedis is E37 with the counts in Redis.
func TestE37_ReloadRedis(t *testing.T) {
	runE37(t, Options{RedisAddr: redistest.Addr(t), StoreTimeout: 2 * time.Second}, uniqueDomain(t))
}

// TestReloadKeepsCountsWhenTheLimitChangesRedis: a reload that changes a
// rule's limit keeps the counts on Redis too, whose key does not move.
// Redis counts on its own real clock: the unit is one whose window
// outlasts the test.
func TestReloadKeepsCountsWhenTheLimitChangesRedis(t *testing.T) {
	runReloadKeepsCounts(t, Options{RedisAddr: redistest.Addr(t)}, windowUnit(t, time.Now()))
}
