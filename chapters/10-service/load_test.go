//go:build !exercise10

package service

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	rlcommon "github.com/envoyproxy/go-control-plane/envoy/extensions/common/ratelimit/v3"
	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"

	"github.com/ratelimit-course/ratelimit/internal/redistest"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/server"
)

// Load must never turn limiting off. 500 keys at 5 a window admit exactly
// 2,500 requests however many callers ask at once, and on a healthy store
// no decision is made by a failure mode: the store deadline and the breaker
// judge Redis, not the service's own queue in front of it. Each caller
// sends a fixed number of requests (the loop is bounded in count, not in
// time), enough that every key is asked more than its limit.
//
// The store deadline is the default 50 ms, which the queue in front of
// Redis outlasts under this load, so the Guard's patience is what keeps
// the decisions with the store. The patience itself is a minute: the
// default 500 ms is a judgement about how long a healthy store can seem
// silent, and a starved CPU under -race (two cores, other tests beside)
// has stretched that silence past it, handing thousands of decisions to
// the failure mode. This test asks for exactness, not for the length of a
// store's silence; a regression to failing calls at the deadline still
// fails it, since the deadline is short.
func TestLoadKeepsLimiting(t *testing.T) {
	if testing.Short() {
		t.Skip("load test")
	}
	red := redistest.StartDedicated(t)
	const keys, limit = 500, 5
	unit := windowUnit(t, time.Now()) // no window ends while the test runs
	rules := fmt.Sprintf("domain: load\nfailure_mode: open\ndescriptors:\n  - key: k\n    rate_limit: {unit: %s, requests_per_unit: %d}\n", unit, limit)
	s := start(t, Options{Config: writeRules(t, rules), RedisAddr: red.Addr(), StorePatience: time.Minute,
		MaxConnsPerClient: server.MaxConns}) // 1,024 HTTP/1.1 callers hold 1,024 connections from one address
	failedOpen := func() string {
		return metric(t, s, `ratelimit_store_unavailable_total{domain="load",mode="open"}`)
	}
	for _, tc := range []struct {
		over    string
		callers int
	}{{"grpc", 512}, {"http", 512}, {"grpc", 1024}, {"http", 1024}} {
		t.Run(fmt.Sprintf("%s/%d", tc.over, tc.callers), func(t *testing.T) {
			tag := fmt.Sprintf("%s%d-", tc.over, tc.callers) // fresh keys for each case
			ok, over, failed := hammer(t, s, tc.over, tc.callers, 3*keys*limit, func(i int) string {
				return fmt.Sprintf("%s%d", tag, i%keys)
			})
			if ok != keys*limit || failed != 0 {
				t.Errorf("%d callers over %s: %d admitted, %d refused, %d errors; want exactly %d admitted and no error "+
					"(failure-mode decisions so far: %q)", tc.callers, tc.over, ok, over, failed, keys*limit, failedOpen())
			}
		})
	}
	if got := failedOpen(); got != "" && got != "0" {
		t.Errorf("decisions made by the failure mode on a healthy store: %s, want 0", got)
	}
}

// hammer sends n requests from callers goroutines at once over gRPC or
// POST /json, the i-th for key(i), and counts the answers.
func hammer(t *testing.T, s *Service, over string, callers, n int, key func(int) string) (ok, refused, failed int64) {
	t.Helper()
	send := hammerGRPC(t, s)
	if over == "http" {
		send = hammerHTTP(t, s, callers)
	}
	var next atomic.Int64
	var okN, overN, errN atomic.Int64
	var first sync.Once
	var wg sync.WaitGroup
	for range callers {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				code, err := send(key(i))
				switch {
				case err != nil:
					errN.Add(1)
					first.Do(func() { t.Logf("first error: %v", err) })
				case code == rls.RateLimitResponse_OK:
					okN.Add(1)
				default:
					overN.Add(1)
				}
			}
		})
	}
	wg.Wait()
	return okN.Load(), overN.Load(), errN.Load()
}

func hammerGRPC(t *testing.T, s *Service) func(string) (rls.RateLimitResponse_Code, error) {
	c := client(t, s)
	return func(v string) (rls.RateLimitResponse_Code, error) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		r, err := c.ShouldRateLimit(ctx, &rls.RateLimitRequest{Domain: "load",
			Descriptors: []*rlcommon.RateLimitDescriptor{desc("k", v)}})
		return r.GetOverallCode(), err
	}
}

func hammerHTTP(t *testing.T, s *Service, callers int) func(string) (rls.RateLimitResponse_Code, error) {
	// One connection a caller at most, and dropped by the client before the
	// server's idle timeout can close it under a request in flight (Go's
	// client does not resend a POST on a connection the server closed).
	tr := &http.Transport{MaxIdleConnsPerHost: callers, MaxConnsPerHost: callers, IdleConnTimeout: server.IdleTimeout / 2}
	t.Cleanup(tr.CloseIdleConnections)
	hc := &http.Client{Transport: tr, Timeout: time.Minute}
	url := "http://" + s.HTTPAddr() + "/json"
	return func(v string) (rls.RateLimitResponse_Code, error) {
		body := `{"domain":"load","descriptors":[{"entries":[{"key":"k","value":"` + v + `"}]}]}`
		resp, err := hc.Post(url, "application/json", strings.NewReader(body))
		if err != nil {
			return 0, err
		}
		defer resp.Body.Close()
		var b bytes.Buffer
		_, _ = b.ReadFrom(resp.Body)
		switch resp.StatusCode {
		case http.StatusOK:
			return rls.RateLimitResponse_OK, nil
		case http.StatusTooManyRequests:
			return rls.RateLimitResponse_OVER_LIMIT, nil
		}
		return 0, fmt.Errorf("HTTP %d: %s", resp.StatusCode, strings.TrimSpace(b.String()))
	}
}
