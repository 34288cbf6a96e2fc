//go:build !exercise11

package ring

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	service "github.com/ratelimit-course/ratelimit/chapters/10-service"
	"github.com/ratelimit-course/ratelimit/internal/redistest"
)

// BenchmarkE46_BesideRedis: in one run, decisions per second and the p50 and
// p99 of one decision seen by a caller, at 8 and 64 concurrent callers, for
// this chapter's three peers (each call to a peer chosen round-robin, which
// forwards to the key's owner) and for chapter 10's service on Redis (over
// HTTP at /json, one script call per decision). Hops counts the network hops
// after the caller's own: a forward for the ring, the Redis call for the
// service. Keys never reach their limit, so every decision is a count.
//
//	go test -run '^$' -bench E46 -benchtime 20000x ./chapters/11-ring/
func BenchmarkE46_BesideRedis(b *testing.B) {
	peers := cluster(b, 3, nil)
	addr := redistest.Addr(b)
	dir := b.TempDir()
	rules := filepath.Join(dir, "e46.yaml")
	os.WriteFile(rules, []byte("domain: e46\ndescriptors:\n  - key: user\n    rate_limit: {unit: day, requests_per_unit: 1000000000}\n"), 0o644)
	svc, err := service.Start(context.Background(), service.Options{Config: rules, RedisAddr: addr, HTTPAddr: "127.0.0.1:0", StoreTimeout: 5 * time.Second})
	if err != nil {
		b.Fatal(err)
	}
	defer svc.Close()
	for _, callers := range []int{8, 64} {
		b.Run(fmt.Sprintf("ring/callers=%d", callers), func(b *testing.B) {
			client := NewClient(callers)
			defer client.Close()
			var hops atomic.Int64
			measure(b, callers, func(g, i int) error {
				out, err := client.Check(peers[i%3].Addr(), []Request{{Key: fmt.Sprint("user-", g, "-", i%16), Hits: 1, Limit: 1_000_000_000, Duration: 24 * time.Hour}})
				if err == nil && out[0].Error != "" {
					err = fmt.Errorf("%s", out[0].Error)
				}
				if err == nil {
					hops.Add(int64(out[0].Hops))
				}
				return err
			})
			b.ReportMetric(float64(hops.Load())/float64(b.N), "hops/decision")
		})
		b.Run(fmt.Sprintf("redis-service/callers=%d", callers), func(b *testing.B) {
			hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: callers}}
			defer hc.CloseIdleConnections()
			url := "http://" + svc.HTTPAddr() + "/json"
			measure(b, callers, func(g, i int) error {
				body := fmt.Sprintf(`{"domain":"e46","descriptors":[{"entries":[{"key":"user","value":"u-%d-%d"}]}]}`, g, i%16)
				resp, err := hc.Post(url, "application/json", strings.NewReader(body))
				if err != nil {
					return err
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					return fmt.Errorf("status %d", resp.StatusCode)
				}
				return nil
			})
			b.ReportMetric(1, "hops/decision")
		})
	}
}

// measure runs b.N calls of one across callers goroutines and reports
// decisions per second and the p50 and p99 of a call.
func measure(b *testing.B, callers int, one func(g, i int) error) {
	for g := range callers { // warm: connections open
		if err := one(g, 0); err != nil {
			b.Fatal(err)
		}
	}
	lat := make([][]time.Duration, callers)
	b.ResetTimer()
	begin := time.Now()
	var wg sync.WaitGroup
	for g := range callers {
		wg.Go(func() {
			for i := g; i < b.N; i += callers {
				t0 := time.Now()
				if err := one(g, i); err != nil {
					b.Error(err)
					return
				}
				lat[g] = append(lat[g], time.Since(t0))
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(begin)
	b.StopTimer()
	all := slices.Sorted(slices.Values(slices.Concat(lat...)))
	if len(all) == 0 {
		return
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "decisions/s")
	b.ReportMetric(float64(all[len(all)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(all[len(all)*99/100].Microseconds()), "p99-µs")
}
