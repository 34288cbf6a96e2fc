//go:build !exercise10

package service

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	rlcommon "github.com/envoyproxy/go-control-plane/envoy/extensions/common/ratelimit/v3"
	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
	"github.com/redis/go-redis/v9"
	"google.golang.org/protobuf/encoding/protojson"

	fixedwindow "github.com/ratelimit-course/ratelimit/chapters/02-fixed-window"
	distributed "github.com/ratelimit-course/ratelimit/chapters/06-distributed"
	"github.com/ratelimit-course/ratelimit/internal/redistest"
)

// benchRules has one rule no benchmark reaches: every decision is a count.
func benchRules(domain string) string {
	return fmt.Sprintf("domain: %s\ndescriptors:\n  - key: user\n    rate_limit: {unit: day, requests_per_unit: 1000000000}\n", domain)
}

// BenchmarkE35_Batching: decisions per second through the service's
// decision path on Redis, at 1, 8 and 64 concurrent callers, with every
// script call on its own round trip and with calls sharing pipelines.
// Each caller decides for its own users, so no key is ever over its limit.
//
//	go test -run '^$' -bench E35 -benchtime 3000x ./chapters/10-service/
func BenchmarkE35_Batching(b *testing.B) {
	addr := redistest.Addr(b)
	for _, callers := range []int{1, 8, 64} {
		for _, mode := range []string{"one-trip-each", "pipelined"} {
			b.Run(fmt.Sprintf("callers=%d/%s", callers, mode), func(b *testing.B) {
				d := uniqueDomain(b)
				s := startWith(b, Options{Config: writeRules(b, benchRules(d)), RedisAddr: addr,
					StoreTimeout: 5 * time.Second, DenyCache: -1}, tuning{noBatch: mode == "one-trip-each"})
				reqs := make([]*rls.RateLimitRequest, callers*16)
				for i := range reqs {
					reqs[i] = &rls.RateLimitRequest{Domain: d, Descriptors: []*rlcommon.RateLimitDescriptor{desc("user", fmt.Sprint(i))}}
				}
				for _, r := range reqs { // warm: scripts loaded, connections open
					if _, err := s.ShouldRateLimit(context.Background(), r); err != nil {
						b.Fatal(err)
					}
				}
				perSecond(b, callers, func(g, i int) error {
					_, err := s.ShouldRateLimit(context.Background(), reqs[g*16+i%16])
					return err
				})
			})
		}
	}
}

// BenchmarkE35_ScriptsOnly is E35 without the service around the script
// call: chapter 06's fixed window straight on a go-redis client, against the
// same limiter on the batcher, at 1, 8 and 64 callers. What it adds to
// BenchmarkE35_Batching is how much of a decision's cost the round trip is.
func BenchmarkE35_ScriptsOnly(b *testing.B) {
	rdb := redistest.Client(b)
	for _, callers := range []int{1, 8, 64} {
		for _, mode := range []string{"one-trip-each", "pipelined"} {
			b.Run(fmt.Sprintf("callers=%d/%s", callers, mode), func(b *testing.B) {
				var sc redis.Scripter = rdb
				if mode == "pipelined" {
					bt, err := distributed.NewBatcher(rdb, distributed.BatcherOptions{Timeout: 5 * time.Second})
					if err != nil {
						b.Fatal(err)
					}
					defer bt.Close()
					sc = bt
				}
				lim, err := distributed.NewFixedWindow(distributed.AssumeNoEviction(sc),
					fixedwindow.Config{Window: 24 * time.Hour, Limit: 1_000_000_000})
				if err != nil {
					b.Fatal(err)
				}
				id := uniqueDomain(b)
				ctx := context.Background()
				perSecond(b, callers, func(g, i int) error {
					_, err := lim.AllowN(ctx, fmt.Sprintf("%s-%d", id, g*16+i%16), 1)
					return err
				})
			})
		}
	}
}

// BenchmarkE36_LatencyBudget measures one decision four ways in one run,
// one caller at a time (a closed loop, one request in flight): in process
// (chapter 02's fixed window through core.Keyed), through Redis (chapter
// 06's fixed-window script over go-redis), and through the service on the
// same Redis over gRPC (the generated client) and over HTTP (POST /json).
// It reports p50 and p99 in µs beside ns/op.
//
//	go test -run '^$' -bench E36 -benchtime 5000x ./chapters/10-service/
func BenchmarkE36_LatencyBudget(b *testing.B) {
	addr := redistest.Addr(b)
	d := uniqueDomain(b)
	s := start(b, Options{Config: writeRules(b, benchRules(d)), RedisAddr: addr, StoreTimeout: 5 * time.Second})
	c := client(b, s)
	ctx := context.Background()

	inProc, err := fixedwindow.NewLimiter(fixedwindow.Config{Window: 24 * time.Hour, Limit: 1_000_000_000})
	if err != nil {
		b.Fatal(err)
	}
	rdb := redistest.Client(b)
	direct, err := distributed.NewFixedWindow(rdb, fixedwindow.Config{Window: 24 * time.Hour, Limit: 1_000_000_000})
	if err != nil {
		b.Fatal(err)
	}
	body, _ := protojson.Marshal(&rls.RateLimitRequest{Domain: d, Descriptors: []*rlcommon.RateLimitDescriptor{desc("user", "u")}})
	req := &rls.RateLimitRequest{Domain: d, Descriptors: []*rlcommon.RateLimitDescriptor{desc("user", "u")}}
	hc := &http.Client{}
	url := "http://" + s.HTTPAddr() + "/json"
	id := d + "-direct"

	ways := []struct {
		name string
		one  func() error
	}{
		{"in-process", func() error { _, err := inProc.AllowN("u", time.Now(), 1); return err }},
		{"redis", func() error { _, err := direct.AllowN(ctx, id, 1); return err }},
		{"service-grpc", func() error { _, err := c.ShouldRateLimit(ctx, req); return err }},
		{"service-http", func() error {
			resp, err := hc.Post(url, "application/json", strings.NewReader(string(body)))
			if err != nil {
				return err
			}
			resp.Body.Close()
			if resp.StatusCode != 200 {
				return fmt.Errorf("status %d", resp.StatusCode)
			}
			return nil
		}},
	}
	for _, w := range ways {
		b.Run(w.name, func(b *testing.B) {
			lat := latencies(b, w.one)
			b.ReportMetric(micros(lat[len(lat)/2]), "p50-µs")
			b.ReportMetric(micros(lat[len(lat)*99/100]), "p99-µs")
		})
	}
}

// BenchmarkDescriptorsPerRequest: one caller, one request at a time
// through the service's decision path on Redis, with 1, 2 and 4
// descriptors of distinct counters in each request. It reports the p50 and
// the p50 per descriptor: what a request with several limits (per user and
// per route, say) costs over one with one.
//
//	go test -run '^$' -bench DescriptorsPerRequest -benchtime 3000x ./chapters/10-service/
func BenchmarkDescriptorsPerRequest(b *testing.B) {
	addr := redistest.Addr(b)
	d := uniqueDomain(b)
	s := start(b, Options{Config: writeRules(b, benchRules(d)), RedisAddr: addr, StoreTimeout: 5 * time.Second})
	ctx := context.Background()
	for _, n := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("descriptors=%d", n), func(b *testing.B) {
			req := &rls.RateLimitRequest{Domain: d}
			for i := range n {
				req.Descriptors = append(req.Descriptors, desc("user", fmt.Sprintf("u%d", i)))
			}
			lat := latencies(b, func() error { _, err := s.ShouldRateLimit(ctx, req); return err })
			p50 := micros(lat[len(lat)/2])
			b.ReportMetric(p50, "p50-µs")
			b.ReportMetric(p50/float64(n), "p50-µs/descriptor")
		})
	}
}

// perSecond runs b.N calls of one(g, i) on callers goroutines, goroutine g
// taking i = g, g + callers, …, and reports decisions per second.
func perSecond(b *testing.B, callers int, one func(g, i int) error) {
	b.ResetTimer()
	begin := time.Now()
	var wg sync.WaitGroup
	for g := range callers {
		wg.Go(func() {
			for i := g; i < b.N; i += callers {
				if err := one(g, i); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	b.ReportMetric(float64(b.N)/time.Since(begin).Seconds(), "decisions/s")
}

// latencies warms one up with 100 calls, then times b.N calls one at a
// time (a closed loop) and returns their latencies, sorted.
func latencies(b *testing.B, one func() error) []time.Duration {
	for range 100 {
		if err := one(); err != nil {
			b.Fatal(err)
		}
	}
	lat := make([]time.Duration, b.N)
	b.ResetTimer()
	for i := range b.N {
		t0 := time.Now()
		if err := one(); err != nil {
			b.Fatal(err)
		}
		lat[i] = time.Since(t0)
	}
	b.StopTimer()
	slices.Sort(lat)
	return lat
}

func micros(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }
