//go:build linux

package service

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	rlcommon "github.com/envoyproxy/go-control-plane/envoy/extensions/common/ratelimit/v3"
	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
)

// BenchmarkBesideEnvoyRatelimit measures decisions per second and latency of
// this chapter's service and of envoyproxy/ratelimit in one run: same
// machine, same rules (peer/rules, domain bench), each on a redis-server of
// its own, each reached over one gRPC connection by 8 and then 64 concurrent
// callers. Every decision is one descriptor of 1000 clients under a limit no
// caller reaches, so each one is a counter increment in Redis.
//
//	go test -run '^$' -bench BesideEnvoyRatelimit -benchtime 20000x -count 3 ./chapters/10-service
func BenchmarkBesideEnvoyRatelimit(b *testing.B) {
	peer := dialRLS(b, startPeer(b, peerRules).GRPC)
	ours := dialRLS(b, startOurs(b, peerRules).GRPCAddr())
	reqs := make([]*rls.RateLimitRequest, 1000)
	for i := range reqs {
		reqs[i] = &rls.RateLimitRequest{Domain: "bench", Descriptors: []*rlcommon.RateLimitDescriptor{{
			Entries: []*rlcommon.RateLimitDescriptor_Entry{{Key: "client", Value: fmt.Sprintf("c%d", i)}},
		}}}
	}
	for _, callers := range []int{8, 64} {
		for _, s := range []struct {
			name string
			c    rls.RateLimitServiceClient
		}{{"service", ours}, {"envoy-ratelimit", peer}} {
			b.Run(fmt.Sprintf("%s/callers=%d", s.name, callers), func(b *testing.B) {
				benchDecisions(b, s.c, reqs, callers)
			})
		}
	}
}

// benchDecisions makes b.N calls through c from the given number of
// goroutines and reports decisions/s (answers, not errors), the share of
// calls that ended in an error (a store deadline passed), and the 50th and
// 99th percentile of one call's latency, errors included.
func benchDecisions(b *testing.B, c rls.RateLimitServiceClient, reqs []*rls.RateLimitRequest, callers int) {
	var next atomic.Int64
	lat := make([][]time.Duration, callers)
	var mu sync.Mutex
	var wrong error // the first answer that is not OK
	var errs atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for g := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(b.N) {
					return
				}
				t0 := time.Now()
				resp, err := c.ShouldRateLimit(context.Background(), reqs[i%int64(len(reqs))])
				lat[g] = append(lat[g], time.Since(t0))
				switch {
				case err != nil: // a store deadline passed, say: counted, not fatal
					errs.Add(1)
				case resp.GetOverallCode() != rls.RateLimitResponse_OK:
					mu.Lock()
					wrong = cmp.Or(wrong, fmt.Errorf("answer %s, want OK", resp.GetOverallCode()))
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	if wrong != nil {
		b.Fatal(wrong)
	}
	all := slices.Concat(lat...)
	slices.Sort(all)
	at := func(q float64) float64 { return float64(all[int(q*float64(len(all)-1))]) / float64(time.Microsecond) }
	b.ReportMetric(float64(int64(b.N)-errs.Load())/elapsed.Seconds(), "decisions/s")
	b.ReportMetric(float64(errs.Load())/float64(b.N), "errors/op")
	b.ReportMetric(at(0.50), "p50-µs")
	b.ReportMetric(at(0.99), "p99-µs")
}
